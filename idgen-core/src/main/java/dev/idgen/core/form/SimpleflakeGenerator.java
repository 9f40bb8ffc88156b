package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Simpleflake IDs: 64-bit, time-ordered to the millisecond, with no worker id to coordinate. The top 41 bits count
 * milliseconds since an epoch (by default {@link #DEFAULT_EPOCH}), the low 23 bits are random.
 *
 * <p><b>Lifetime.</b> IDs stay positive, so the millisecond count must stay below 2^40: the generator refuses with
 * {@link LayoutExhaustedException} from {@code epoch + 2^40 ms} on, about 34.8 years after the epoch; for the default
 * epoch from {@code 2059-11-04T19:53:47.776Z}.
 *
 * <p><b>Within one generator</b> no ID repeats: each millisecond starts at a random 23-bit value and counts up by one
 * (wrapping round at 2^23), and the generator refuses rather than come round to its start again. A clock that steps
 * back leaves the millisecond where it was and the values count on.
 *
 * <p><b>Across processes</b> nothing but chance keeps IDs apart: two processes that each issue an ID in the same
 * millisecond collide with probability 2^-23. With {@code n} IDs in one millisecond, each from a different process,
 * the chance of a collision is about {@code n^2 / 2^24} (the birthday bound, {@code 1 - e^(-n(n-1)/2^24)}):
 *
 * <table>
 * <caption>The chance of a collision among n IDs of different processes in one millisecond</caption>
 * <tr><th>n</th><th>chance</th><th>about one in</th></tr>
 * <tr><td>2</td><td>1.2 &times; 10^-7</td><td>8.4 million</td></tr>
 * <tr><td>10</td><td>5.4 &times; 10^-6</td><td>186,000</td></tr>
 * <tr><td>100</td><td>5.9 &times; 10^-4</td><td>1,700</td></tr>
 * <tr><td>1000</td><td>0.058</td><td>17</td></tr>
 * </table>
 *
 * <p>That is per millisecond: a system issuing 100 IDs in every millisecond from different processes collides about
 * every 1.7 seconds. A process that issues {@code m} IDs in a millisecond takes a run of {@code m} consecutive values,
 * so two such processes collide with probability about {@code (2m - 1) / 2^23}. Use Simpleflake where a rare
 * collision is caught (a unique key) and retried; for IDs that must never collide, use Snowflake or a 128-bit form.
 *
 * <p>Thread-safe: {@link #nextId()} takes the generator's lock and allocates nothing.
 */
public final class SimpleflakeGenerator {

    /** The form's name. */
    public static final String FORM = "simpleflake";

    /** The default epoch, 2025-01-01T00:00:00Z. */
    public static final Instant DEFAULT_EPOCH = Instant.parse("2025-01-01T00:00:00Z");

    private static final int RANDOM_BITS = 23;

    private static final long RANDOM_MASK = (1L << RANDOM_BITS) - 1;

    /** The first millisecond count that would reach the sign bit. */
    private static final long END_MILLIS = 1L << 40;

    private final Object lock = new Object();

    private final TimeSource timeSource;

    private final long epochMillis;

    private final RandomBuffer random;

    /** Milliseconds since the epoch in use; guarded by {@link #lock}. */
    private long millis = Long.MIN_VALUE;

    /** The first random value of {@link #millis}. */
    private long start;

    /** The random value of the next ID in {@link #millis}: back at {@link #start} means the millisecond is used up. */
    private long next;

    private SimpleflakeGenerator(TimeSource timeSource, long epochMillis, SecureRandom random) {
        this.timeSource = timeSource;
        this.epochMillis = epochMillis;
        this.random = new RandomBuffer(random);
    }

    /**
     * @return a builder with {@link #DEFAULT_EPOCH}, the system clock and random bits from a new DRBG
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next ID.
     *
     * @return a positive ID this generator never issued before
     * @throws LayoutExhaustedException from {@code epoch + 2^40 ms} on
     * @throws ClockBackwardsException when all 2^23 values of the millisecond in use are issued and the clock is
     *         behind it
     * @throws IdGenerationException when all 2^23 values of the current millisecond are issued, or the clock reads
     *         before the epoch
     */
    public long nextId() {
        synchronized (lock) {
            long now = timeSource.currentTimeMillis() - epochMillis;
            if (now > millis) {
                if (now < 0) {
                    throw new IdGenerationException("The clock reads " + Instant.ofEpochMilli(now + epochMillis)
                            + ", before the Simpleflake epoch " + Instant.ofEpochMilli(epochMillis));
                }
                if (now >= END_MILLIS) {
                    throw new LayoutExhaustedException("The Simpleflake layout ran out at "
                            + Instant.ofEpochMilli(epochMillis + END_MILLIS) + ": 40 bits of milliseconds since "
                            + Instant.ofEpochMilli(epochMillis) + " are used up; choose a later epoch");
                }
                millis = now;
                start = random.nextLong() & RANDOM_MASK;
                next = start;
            } else if (next == start) {
                throw usedUp(now);
            }
            if (millis == 0 && next == 0) {
                // Millisecond 0 of the epoch would give ID 0 here: skip it, so that every ID is positive.
                next = 1;
                if (next == start) {
                    throw usedUp(now);
                }
            }
            long id = millis << RANDOM_BITS | next;
            next = (next + 1) & RANDOM_MASK;
            return id;
        }
    }

    /**
     * What an ID carries.
     *
     * @param id a positive ID issued under this generator's epoch
     * @return {@code timestamp} (an {@link Instant}) and {@code random} (the low 23 bits), in an unmodifiable, ordered
     *         map
     * @throws InvalidArgumentException naming {@code id} when it is zero or negative
     */
    public Map<String, Object> decode(long id) {
        Map<String, Object> map = new LinkedHashMap<>();
        putParts(map, IdArguments.checkId(id));
        return Collections.unmodifiableMap(map);
    }

    /**
     * This generator's IDs as the {@value #FORM} form: the canonical string is the decimal number
     * ({@link IdText#decimal()}).
     *
     * @param generator the generator's name
     * @return the form, decoding to {@code form}, {@code timestamp}, {@code random} and {@code id}
     */
    public IdForm form(String generator) {
        IdText decimal = IdText.decimal();
        return new GeneratorForm(generator, FORM, () -> decimal.format(nextId()), text -> {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("form", FORM);
            long id = decimal.parse(text);
            putParts(map, id);
            map.put("id", Long.toString(id));
            return Collections.unmodifiableMap(map);
        });
    }

    /**
     * @return the epoch the milliseconds count from
     */
    public Instant epoch() {
        return Instant.ofEpochMilli(epochMillis);
    }

    @Override
    public String toString() {
        return "SimpleflakeGenerator[epoch=" + epoch() + ", " + timeSource + "]";
    }

    private void putParts(Map<String, Object> map, long id) {
        map.put("timestamp", Instant.ofEpochMilli(epochMillis + (id >>> RANDOM_BITS)));
        map.put("random", id & RANDOM_MASK);
    }

    private IdGenerationException usedUp(long now) {
        String used = "All 2^23 Simpleflake values of " + Instant.ofEpochMilli(epochMillis + millis) + " are issued";
        if (now < millis) {
            return new ClockBackwardsException(
                    used + " and the clock is " + (millis - now) + " ms behind that"
                            + " millisecond: no ID is issued until the clock catches up",
                    millis - now);
        }
        return new IdGenerationException(used + ": the next millisecond has fresh ones");
    }

    /**
     * Builds a {@link SimpleflakeGenerator}.
     */
    public static final class Builder {

        private Instant epoch = DEFAULT_EPOCH;

        private TimeSource timeSource = TimeSource.system();

        private SecureRandom random;

        private Builder() {}

        /**
         * @param epoch where the milliseconds count from, not in the future; {@link #DEFAULT_EPOCH} by default. IDs
         *        run out 2^40 ms (about 34.8 years) after it.
         * @return this builder
         */
        public Builder epoch(Instant epoch) {
            this.epoch = epoch;
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
         * @param random the one source of the random bits, never reseeded by the generator, which reads 64 KiB at
         *        a time from it; by default the AES-256 counter-mode keystream, keyed for every 4 MiB with fresh
         *        bytes from a new {@code SecureRandom.getInstance("DRBG")} (see {@code RandomBuffer})
         * @return this builder
         */
        public Builder random(SecureRandom random) {
            this.random = random;
            return this;
        }

        /**
         * @return the generator
         * @throws InvalidArgumentException naming {@code epoch} or {@code timeSource} when it breaks its rule
         * @throws LayoutExhaustedException when the layout is already used up
         */
        public SimpleflakeGenerator build() {
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            long nowMillis = timeSource.currentTimeMillis();
            if (epoch == null || epoch.isBefore(Instant.EPOCH) || epoch.isAfter(Instant.ofEpochMilli(nowMillis))) {
                throw new InvalidArgumentException(
                        "epoch",
                        epoch,
                        "epoch must be between 1970-01-01T00:00:00Z and" + " now (" + Instant.ofEpochMilli(nowMillis)
                                + "), but was " + epoch);
            }
            long epochMillis = epoch.toEpochMilli();
            if (nowMillis - epochMillis >= END_MILLIS) {
                throw new LayoutExhaustedException("The Simpleflake layout from epoch " + epoch + " ran out at "
                        + Instant.ofEpochMilli(epochMillis + END_MILLIS) + "; choose a later epoch");
            }
            return new SimpleflakeGenerator(timeSource, epochMillis, random);
        }
    }
}
