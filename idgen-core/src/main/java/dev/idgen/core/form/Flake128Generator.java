package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.TimeSource;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Issues {@link Flake128Id}s, Boundary's flake: 64 bits of Unix milliseconds, a 48-bit worker id (Boundary used the
 * MAC address) and a 16-bit sequence that starts at 0 in each millisecond. 128 bits leave room for a worker id that
 * needs no coordination: by default it is 48 random bits, so two generators share one with a chance of about
 * {@code n^2 / 2^49} for {@code n} generators (one in 5.6 million for 10,000). Give each generator a worker id
 * of its own to rule that out.
 *
 * <p>IDs increase per generator: a clock that steps back leaves the millisecond where it was and the sequence counts
 * on; a sequence used up (65,536 IDs in a millisecond) borrows the next millisecond, at most
 * 1000 ms ahead of the clock. There {@link #next()} waits for the clock to move on, or, when the clock is more than
 * 10 ms short of that (it stepped back), throws {@link ClockBackwardsException} until the clock catches up.
 *
 * <p>Thread-safe: {@link #next()} takes the generator's lock and allocates only the returned ID.
 */
public final class Flake128Generator {

    /** The form's name. */
    public static final String FORM = "flake128";

    private final Object lock = new Object();

    private final TimeSource timeSource;

    private final long workerId;

    private final MillisCounter clock = new MillisCounter("flake128", 16, Long.MAX_VALUE, null);

    private Flake128Generator(TimeSource timeSource, long workerId) {
        this.timeSource = timeSource;
        this.workerId = workerId;
    }

    /**
     * @return a builder with a random worker id and the system clock
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next ID.
     *
     * @return an ID greater than every ID this generator issued before
     * @throws ClockBackwardsException when the millisecond's sequence is used up and the clock is so far behind that
     *         borrowing the next millisecond would run more than a second ahead of it (a caller that has used up the
     *         sequence a second ahead of a clock that moves on waits for it instead, a millisecond or so)
     * @throws IdGenerationException when the clock reads before 1970, the clock stalls for a second while this call
     *         waits for it, or the caller is interrupted while waiting
     */
    public Flake128Id next() {
        for (; ; ) {
            long resume;
            synchronized (lock) {
                if (clock.advance(timeSource.currentTimeMillis())) {
                    return new Flake128Id(clock.millis(), workerId, (int) clock.counter());
                }
                resume = clock.resumeMillis();
            }
            MillisCounter.awaitClock(timeSource, resume, "flake128");
        }
    }

    /**
     * @return the worker id in every ID of this generator
     */
    public long workerId() {
        return workerId;
    }

    /**
     * What a 128-bit flake ID carries.
     *
     * @param id an ID
     * @return {@code timestamp} (an {@link java.time.Instant}), {@code workerId} and {@code sequence}, in an
     *         unmodifiable, ordered map
     * @throws InvalidArgumentException naming {@code id} when it is null
     */
    public static Map<String, Object> decode(Flake128Id id) {
        Map<String, Object> map = new LinkedHashMap<>();
        putParts(map, id);
        return Collections.unmodifiableMap(map);
    }

    /**
     * This generator's IDs as the {@value #FORM} form: the canonical string is 32 lowercase hex digits.
     *
     * @param generator the generator's name
     * @return the form, decoding to {@code form}, {@code timestamp}, {@code workerId} and {@code sequence}
     */
    public IdForm form(String generator) {
        return new GeneratorForm(generator, FORM, () -> next().toString(), text -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("form", FORM);
            putParts(map, Flake128Id.parse(text));
            return Collections.unmodifiableMap(map);
        });
    }

    @Override
    public String toString() {
        return "Flake128Generator[workerId=" + workerId + ", " + timeSource + "]";
    }

    private static void putParts(Map<String, Object> map, Flake128Id id) {
        if (id == null) {
            throw Forms.invalidId(null, "id must be a 128-bit flake ID, but was null");
        }
        map.put("timestamp", id.timestamp());
        map.put("workerId", id.workerId());
        map.put("sequence", id.sequence());
    }

    /**
     * Builds a {@link Flake128Generator}.
     */
    public static final class Builder {

        private TimeSource timeSource = TimeSource.system();

        private Long workerId;

        private Builder() {}

        /**
         * @param workerId the worker id, from 0 to {@link Flake128Id#MAX_WORKER_ID}; by default 48 random bits from
         *        a new {@link SecureRandom}, drawn once when the generator is built
         * @return this builder
         */
        public Builder workerId(long workerId) {
            this.workerId = workerId;
            return this;
        }

        /**
         * @param timeSource the clock; the system clock by default
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @return the generator
         * @throws InvalidArgumentException naming {@code workerId} or {@code timeSource} when it breaks its rule
         */
        public Flake128Generator build() {
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            if (workerId != null && (workerId < 0 || workerId > Flake128Id.MAX_WORKER_ID)) {
                throw new InvalidArgumentException(
                        "workerId",
                        workerId,
                        "workerId must be between 0 and " + Flake128Id.MAX_WORKER_ID + " (48 bits), but was "
                                + workerId);
            }
            long id = workerId != null ? workerId : RandomBuffer.defaultSource().nextLong() & Flake128Id.MAX_WORKER_ID;
            return new Flake128Generator(timeSource, id);
        }
    }
}
