package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Issues MongoDB {@link ObjectId}s as MongoDB's drivers do: the current second, 5 random bytes drawn once per
 * generator from a {@link SecureRandom}, and a 24-bit counter that starts at a random value and counts up by one per
 * ID, across seconds, wrapping round at 2^24.
 *
 * <p>A counter value can only come back within one second after 2^24 (16,777,216) IDs in that second. The generator
 * notices when the counter reaches the value it had at the start of the second and then waits for the next second
 * (at most a second) instead of repeating an ID. A clock that steps back leaves the second where it was and the
 * counter counts on; if the counter then comes round and the next second is more than a second away,
 * {@link #next()} throws {@link ClockBackwardsException} until the clock catches up.
 *
 * <p>ObjectIds order by second only: within a second, IDs of different generators interleave by their random bytes.
 *
 * <p>Thread-safe: {@link #next()} takes the generator's lock and allocates only the returned ObjectId.
 */
public final class ObjectIdGenerator {

    /** The form's name. */
    public static final String FORM = "object-id";

    /** The longest wait for the next second when a second's counter values are used up. */
    static final long MAX_WAIT_MILLIS = 1000;

    private static final long MAX_SECONDS = 0xFFFF_FFFFL;

    private static final int COUNTER_MASK = 0xFF_FFFF;

    private final Object lock = new Object();

    private final TimeSource timeSource;

    private final long processUnique;

    /** The second in use; guarded by {@link #lock}. */
    private long second = Long.MIN_VALUE;

    /** The counter of the next ID; guarded by {@link #lock}. */
    private int counter;

    /** The counter of the first ID of {@link #second}: reaching it again means the second is used up. */
    private int secondStart;

    private ObjectIdGenerator(TimeSource timeSource, SecureRandom random) {
        this.timeSource = timeSource;
        byte[] bytes = new byte[8];
        random.nextBytes(bytes);
        long bits = 0;
        for (byte b : bytes) {
            bits = bits << 8 | (b & 0xFF);
        }
        this.processUnique = bits >>> 24;
        this.counter = (int) bits & COUNTER_MASK;
    }

    /**
     * @return a builder with the system clock and a new DRBG {@link SecureRandom}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next ObjectId.
     *
     * @return an ObjectId this generator never issued before
     * @throws ClockBackwardsException when the second's counter values are used up and the clock is more than a
     *         second away from the next second
     * @throws LayoutExhaustedException from 2106-02-07T06:28:16Z on, when 32 bits no longer hold the seconds
     * @throws IdGenerationException when the clock reads before 1970, it does not reach the next second within the
     *         wait, or the caller is interrupted while waiting
     */
    public ObjectId next() {
        for (; ; ) {
            long nextSecondMillis;
            long nowMillis;
            synchronized (lock) {
                nowMillis = timeSource.currentTimeMillis();
                long nowSecond = Math.floorDiv(nowMillis, 1000);
                if (nowSecond > second) {
                    if (nowMillis < 0) {
                        throw new IdGenerationException("The clock reads " + Instant.ofEpochMilli(nowMillis)
                                + ", before 1970: ObjectId timestamps cannot hold it");
                    }
                    if (nowSecond > MAX_SECONDS) {
                        throw new LayoutExhaustedException("ObjectId timestamps are used up: their 32 bits of"
                                + " seconds ran out at " + Instant.ofEpochSecond(MAX_SECONDS + 1));
                    }
                    second = nowSecond;
                    secondStart = counter;
                    return issue();
                }
                if (counter != secondStart) {
                    return issue();
                }
                nextSecondMillis = (second + 1) * 1000;
                if (nextSecondMillis - nowMillis > MAX_WAIT_MILLIS) {
                    long behind = second * 1000 - nowMillis;
                    throw new ClockBackwardsException(
                            "All 2^24 ObjectId counter values of "
                                    + Instant.ofEpochSecond(second) + " are used and the clock is " + behind
                                    + " ms behind"
                                    + " that second, too far to wait for the next: no ID is issued until the clock catches up",
                            behind);
                }
            }
            // Outside the lock: other callers meet the same used-up second and wait too.
            awaitClock(nextSecondMillis, nowMillis);
        }
    }

    /**
     * What an ObjectId carries.
     *
     * @param id an ObjectId
     * @return {@code timestamp} (an {@link Instant}), {@code processUnique} and {@code counter}, in an unmodifiable,
     *         ordered map
     * @throws InvalidArgumentException naming {@code id} when it is null
     */
    public static Map<String, Object> decode(ObjectId id) {
        Map<String, Object> map = new LinkedHashMap<>();
        putParts(map, id);
        return Collections.unmodifiableMap(map);
    }

    /**
     * This generator's ObjectIds as the {@value #FORM} form: the canonical string is 24 lowercase hex digits.
     *
     * @param generator the generator's name
     * @return the form, decoding to {@code form}, {@code timestamp}, {@code processUnique} and {@code counter}
     */
    public IdForm form(String generator) {
        return new GeneratorForm(generator, FORM, () -> next().toString(), text -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("form", FORM);
            putParts(map, ObjectId.parse(text));
            return Collections.unmodifiableMap(map);
        });
    }

    /**
     * @return this generator's 5 random bytes, as a number
     */
    public long processUnique() {
        return processUnique;
    }

    @Override
    public String toString() {
        return "ObjectIdGenerator[" + timeSource + "]";
    }

    private ObjectId issue() {
        ObjectId id = new ObjectId(second, processUnique, counter);
        counter = (counter + 1) & COUNTER_MASK;
        return id;
    }

    private static void putParts(Map<String, Object> map, ObjectId id) {
        if (id == null) {
            throw Forms.invalidId(null, "id must be an ObjectId, but was null");
        }
        map.put("timestamp", id.timestamp());
        map.put("processUnique", id.processUnique());
        map.put("counter", id.counter());
    }

    /**
     * Waits until the clock reads {@code targetMillis}, parking in short steps; gives up once the monotonic clock
     * says the wait took a second longer than the clock was away from it.
     */
    private void awaitClock(long targetMillis, long nowMillis) {
        long started = timeSource.nanoTime();
        long limitNanos = (targetMillis - nowMillis + MAX_WAIT_MILLIS) * 1_000_000L;
        for (; ; ) {
            long remaining = targetMillis - timeSource.currentTimeMillis();
            if (remaining <= 0) {
                return;
            }
            if (timeSource.nanoTime() - started > limitNanos) {
                throw new IdGenerationException("All 2^24 ObjectId counter values of the second before "
                        + Instant.ofEpochMilli(targetMillis) + " are used, and the clock did not reach the next second"
                        + " within " + (limitNanos / 1_000_000) + " ms");
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IdGenerationException("Interrupted while waiting for the next second's ObjectIds");
            }
            LockSupport.parkNanos(Math.min(remaining, 10) * 1_000_000L);
        }
    }

    /**
     * Builds an {@link ObjectIdGenerator}.
     */
    public static final class Builder {

        private TimeSource timeSource = TimeSource.system();

        private SecureRandom random;

        private Builder() {}

        /**
         * @param timeSource the clock; the system clock by default
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @param random where the 5 random bytes and the counter's start come from, once; by default a new
         *        {@code SecureRandom.getInstance("DRBG")}
         * @return this builder
         */
        public Builder random(SecureRandom random) {
            this.random = random;
            return this;
        }

        /**
         * @return the generator
         * @throws InvalidArgumentException naming {@code timeSource} when it is missing
         */
        public ObjectIdGenerator build() {
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            return new ObjectIdGenerator(timeSource, random != null ? random : RandomBuffer.defaultSource());
        }
    }
}
