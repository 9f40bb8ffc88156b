package dev.idgen.core.snowflake;

import dev.idgen.core.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How a Snowflake ID splits its 63 usable bits: from the top, the ticks since the epoch, the worker id and the
 * sequence within a tick. The sign bit is always 0.
 *
 * <p>Two presets: {@link #standard()} (41 timestamp bits of milliseconds, 10 worker bits, 12 sequence bits: 4,096,000
 * IDs per second per worker for 69 years) and {@link #javascriptSafe()}, whose IDs stay below 2^53 so JavaScript's
 * {@code Number} holds them exactly.
 *
 * <p>Immutable. The bit rules are checked when it is built; the epoch is checked against the clock by the
 * generator, which knows the time.
 */
public final class SnowflakeLayout {

    /** The default epoch, 2025-01-01T00:00:00Z: the later the epoch, the longer a layout lasts. */
    public static final Instant DEFAULT_EPOCH = Instant.parse("2025-01-01T00:00:00Z");

    /** Bits available below the sign bit. */
    public static final int USABLE_BITS = 63;

    private static final SnowflakeLayout STANDARD = builder().build();

    private static final SnowflakeLayout JAVASCRIPT_SAFE = builder()
            .tickUnit(TickUnit.SECONDS)
            .timestampBits(31)
            .workerBits(6)
            .sequenceBits(16)
            .build();

    private final Instant epoch;
    private final TickUnit tickUnit;
    private final int timestampBits;
    private final int workerBits;
    private final int sequenceBits;

    private SnowflakeLayout(Builder builder) {
        this.epoch = builder.epoch;
        this.tickUnit = builder.tickUnit;
        this.timestampBits = builder.timestampBits;
        this.workerBits = builder.workerBits;
        this.sequenceBits = builder.sequenceBits;
    }

    /**
     * The classic layout: 41 timestamp bits of milliseconds from {@link #DEFAULT_EPOCH}, 10 worker bits, 12 sequence
     * bits. 1,024 workers, 4,096 IDs per millisecond each, lasting until 2094.
     *
     * @return the standard layout
     */
    public static SnowflakeLayout standard() {
        return STANDARD;
    }

    /**
     * A layout whose IDs stay below 2^53 (JavaScript's {@code Number.MAX_SAFE_INTEGER} is 2^53 - 1): 31 timestamp bits
     * of seconds from {@link #DEFAULT_EPOCH}, 6 worker bits, 16 sequence bits. 64 workers, 65,536 IDs per second each,
     * lasting until 2093.
     *
     * @return the JavaScript-safe layout
     */
    public static SnowflakeLayout javascriptSafe() {
        return JAVASCRIPT_SAFE;
    }

    /**
     * @return a builder that starts from the {@linkplain #standard() standard} layout
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder that starts from this layout
     */
    public Builder toBuilder() {
        return new Builder()
                .epoch(epoch)
                .tickUnit(tickUnit)
                .timestampBits(timestampBits)
                .workerBits(workerBits)
                .sequenceBits(sequenceBits);
    }

    public Instant epoch() {
        return epoch;
    }

    public TickUnit tickUnit() {
        return tickUnit;
    }

    public int timestampBits() {
        return timestampBits;
    }

    public int workerBits() {
        return workerBits;
    }

    public int sequenceBits() {
        return sequenceBits;
    }

    /**
     * @return the largest worker id, {@code 2^workerBits - 1}
     */
    public long maxWorkerId() {
        return (1L << workerBits) - 1;
    }

    /**
     * @return the largest sequence within one tick, {@code 2^sequenceBits - 1}
     */
    public long maxSequence() {
        return (1L << sequenceBits) - 1;
    }

    /**
     * @return the largest tick count since the epoch that still fits, {@code 2^timestampBits - 1}
     */
    public long maxTick() {
        return (1L << timestampBits) - 1;
    }

    /**
     * @return the largest ID this layout can produce
     */
    public long maxId() {
        return (1L << (timestampBits + workerBits + sequenceBits)) - 1;
    }

    /**
     * @return how many IDs one worker can issue per second at most
     */
    public long maxIdsPerSecond() {
        return (maxSequence() + 1) * 1000 / tickUnit.millis();
    }

    /**
     * The first instant this layout can no longer represent: after it, every ID would overflow.
     *
     * @return {@code epoch + 2^timestampBits ticks}
     */
    public Instant exhaustedAt() {
        try {
            return Instant.ofEpochMilli(
                    Math.addExact(epoch.toEpochMilli(), Math.multiplyExact(1L << timestampBits, tickUnit.millis())));
        } catch (ArithmeticException e) {
            return Instant.ofEpochMilli(Long.MAX_VALUE);
        }
    }

    /**
     * @param nowMillis the current time in milliseconds since the Unix epoch
     * @return the time left before {@link #exhaustedAt()}, negative when already past it
     */
    public Duration remainingLifetime(long nowMillis) {
        return Duration.ofMillis(exhaustedAt().toEpochMilli() - nowMillis);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnowflakeLayout other
                && epoch.equals(other.epoch)
                && tickUnit == other.tickUnit
                && timestampBits == other.timestampBits
                && workerBits == other.workerBits
                && sequenceBits == other.sequenceBits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, tickUnit, timestampBits, workerBits, sequenceBits);
    }

    @Override
    public String toString() {
        return "SnowflakeLayout[epoch=" + epoch + ", tickUnit=" + tickUnit + ", timestampBits=" + timestampBits
                + ", workerBits=" + workerBits + ", sequenceBits=" + sequenceBits + "]";
    }

    /**
     * Builds a {@link SnowflakeLayout}; starts from the standard layout, so set only what differs.
     */
    public static final class Builder {

        private Instant epoch = DEFAULT_EPOCH;
        private TickUnit tickUnit = TickUnit.MILLISECONDS;
        private int timestampBits = 41;
        private int workerBits = 10;
        private int sequenceBits = 12;

        private Builder() {}

        /**
         * @param epoch the instant tick 0 stands for; not before 1970 and, when the generator starts, not in the future
         * @return this builder
         */
        public Builder epoch(Instant epoch) {
            this.epoch = epoch;
            return this;
        }

        /**
         * @param tickUnit milliseconds or seconds
         * @return this builder
         */
        public Builder tickUnit(TickUnit tickUnit) {
            this.tickUnit = tickUnit;
            return this;
        }

        /**
         * @param timestampBits from 1 to 62
         * @return this builder
         */
        public Builder timestampBits(int timestampBits) {
            this.timestampBits = timestampBits;
            return this;
        }

        /**
         * @param workerBits from 0 to 61; 0 means a single worker
         * @return this builder
         */
        public Builder workerBits(int workerBits) {
            this.workerBits = workerBits;
            return this;
        }

        /**
         * @param sequenceBits from 1 to 62
         * @return this builder
         */
        public Builder sequenceBits(int sequenceBits) {
            this.sequenceBits = sequenceBits;
            return this;
        }

        /**
         * @return the layout
         * @throws InvalidArgumentException naming the first setting that breaks its rule
         */
        public SnowflakeLayout build() {
            if (epoch == null) {
                throw new InvalidArgumentException("epoch", null, "epoch must be set");
            }
            if (epoch.isBefore(Instant.EPOCH)) {
                throw new InvalidArgumentException(
                        "epoch", epoch, "epoch must not be before 1970-01-01T00:00:00Z, but was " + epoch);
            }
            if (tickUnit == null) {
                throw new InvalidArgumentException("tickUnit", null, "tickUnit must be set");
            }
            checkRange("timestampBits", timestampBits, 1, 62);
            checkRange("workerBits", workerBits, 0, 61);
            checkRange("sequenceBits", sequenceBits, 1, 62);
            int sum = timestampBits + workerBits + sequenceBits;
            if (sum > USABLE_BITS) {
                // Named "layoutBits": which of the three is wrong depends on what the caller meant to set.
                throw new InvalidArgumentException(
                        "layoutBits",
                        sum,
                        "timestampBits + workerBits + sequenceBits must be at most " + USABLE_BITS + ", but "
                                + timestampBits + " + " + workerBits + " + " + sequenceBits + " = " + sum);
            }
            return new SnowflakeLayout(this);
        }

        private static void checkRange(String name, int value, int min, int max) {
            if (value < min || value > max) {
                throw new InvalidArgumentException(
                        name, value, name + " must be between " + min + " and " + max + ", but was " + value);
            }
        }
    }
}
