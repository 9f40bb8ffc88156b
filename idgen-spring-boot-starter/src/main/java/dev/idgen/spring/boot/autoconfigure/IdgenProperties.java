package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.TickUnit;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Configuration properties for idgen.
 */
@ConfigurationProperties("idgen")
public class IdgenProperties implements InitializingBean {

    /**
     * Whether to configure idgen at all.
     */
    private boolean enabled = true;

    /**
     * Which strategy issues the IDs: 'snowflake' (no server at run time).
     */
    private String strategy = Strategy.SNOWFLAKE.value();

    private final Snowflake snowflake = new Snowflake();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getStrategy() {
        return strategy;
    }

    public void setStrategy(String strategy) {
        this.strategy = strategy;
    }

    public Snowflake getSnowflake() {
        return snowflake;
    }

    /**
     * @return the configured strategy
     * @throws InvalidConfigurationPropertyValueException naming {@code idgen.strategy} and the allowed values
     */
    public Strategy strategy() {
        return Strategy.of(strategy);
    }

    @Override
    public void afterPropertiesSet() {
        strategy();
    }

    /**
     * The strategies {@code idgen.strategy} accepts.
     */
    public enum Strategy {

        /** Snowflake: timestamp, worker id and sequence; no server at run time. */
        SNOWFLAKE;

        /**
         * @return the property value, for example {@code snowflake}
         */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Strategy of(String value) {
            for (Strategy candidate : values()) {
                // Exact but for case, as @ConditionalOnProperty(havingValue) compares: no trimming here either.
                if (value != null && candidate.value().equalsIgnoreCase(value)) {
                    return candidate;
                }
            }
            throw new InvalidConfigurationPropertyValueException("idgen.strategy", value, "must be one of "
                    + Arrays.stream(values()).map(Strategy::value).collect(Collectors.joining(", ", "[", "]")));
        }
    }

    /**
     * The Snowflake layouts to start from.
     */
    public enum Preset {

        /** 41 timestamp bits of milliseconds, 10 worker bits, 12 sequence bits. */
        STANDARD(SnowflakeLayout.standard()),

        /** IDs below 2^53: 31 timestamp bits of seconds, 6 worker bits, 16 sequence bits. */
        JAVASCRIPT_SAFE(SnowflakeLayout.javascriptSafe());

        private final SnowflakeLayout layout;

        Preset(SnowflakeLayout layout) {
            this.layout = layout;
        }

        public SnowflakeLayout layout() {
            return layout;
        }
    }

    /**
     * Snowflake settings: the layout, the worker id and how to handle the clock.
     */
    public static class Snowflake {

        /**
         * The layout to start from: 'standard' (41/10/12 bits, milliseconds) or 'javascript-safe' (31/6/16 bits,
         * seconds; IDs below 2^53). The settings below override single parts of it.
         */
        private Preset preset = Preset.STANDARD;

        /**
         * The instant tick 0 stands for, ISO-8601. Must not be in the future. Defaults to the preset's,
         * 2025-01-01T00:00:00Z.
         */
        private Instant epoch;

        /**
         * The unit of the timestamp: 'milliseconds' or 'seconds'. Defaults to the preset's.
         */
        private TickUnit timeUnit;

        /**
         * Timestamp bits, from 1 to 62. Defaults to the preset's (41 for standard).
         */
        private Integer timestampBits;

        /**
         * Worker bits, from 0 to 61. Defaults to the preset's (10 for standard).
         */
        private Integer workerBits;

        /**
         * Sequence bits, from 1 to 62; the three bit counts sum to at most 63. Defaults to the preset's (12 for
         * standard).
         */
        private Integer sequenceBits;

        /**
         * This instance's worker id, from 0 to 2^worker-bits - 1. Must be unique among the instances running at once.
         */
        private long workerId = 0;

        /**
         * How many ticks the generator may run ahead of the clock when a tick's sequence is used up: at most one
         * second's worth (1000 millisecond ticks, or 1 second tick). 0 waits for the clock instead.
         */
        private long maxBorrow = 0;

        /**
         * How far the clock may step backwards and be waited out, from 0 to 10s. Further steps fail with a clock
         * exception (and health DOWN) until the clock catches up.
         */
        private Duration clockBackwardsTolerance = SnowflakeGenerator.DEFAULT_CLOCK_BACKWARDS_TOLERANCE;

        public Preset getPreset() {
            return preset;
        }

        public void setPreset(Preset preset) {
            this.preset = preset;
        }

        public Instant getEpoch() {
            return epoch;
        }

        public void setEpoch(Instant epoch) {
            this.epoch = epoch;
        }

        public TickUnit getTimeUnit() {
            return timeUnit;
        }

        public void setTimeUnit(TickUnit timeUnit) {
            this.timeUnit = timeUnit;
        }

        public Integer getTimestampBits() {
            return timestampBits;
        }

        public void setTimestampBits(Integer timestampBits) {
            this.timestampBits = timestampBits;
        }

        public Integer getWorkerBits() {
            return workerBits;
        }

        public void setWorkerBits(Integer workerBits) {
            this.workerBits = workerBits;
        }

        public Integer getSequenceBits() {
            return sequenceBits;
        }

        public void setSequenceBits(Integer sequenceBits) {
            this.sequenceBits = sequenceBits;
        }

        public long getWorkerId() {
            return workerId;
        }

        public void setWorkerId(long workerId) {
            this.workerId = workerId;
        }

        public long getMaxBorrow() {
            return maxBorrow;
        }

        public void setMaxBorrow(long maxBorrow) {
            this.maxBorrow = maxBorrow;
        }

        public Duration getClockBackwardsTolerance() {
            return clockBackwardsTolerance;
        }

        public void setClockBackwardsTolerance(Duration clockBackwardsTolerance) {
            this.clockBackwardsTolerance = clockBackwardsTolerance;
        }

        /**
         * @return the bit-count property the user set explicitly (the one to blame when the three sum over 63)
         */
        String explicitBitsProperty() {
            return sequenceBits != null ? "sequence-bits" : workerBits != null ? "worker-bits"
                    : timestampBits != null ? "timestamp-bits" : "preset";
        }

        /**
         * @return the preset with the explicitly set parts applied
         */
        public SnowflakeLayout.Builder layout() {
            SnowflakeLayout.Builder builder = (preset != null ? preset : Preset.STANDARD).layout().toBuilder();
            if (epoch != null) {
                builder.epoch(epoch);
            }
            if (timeUnit != null) {
                builder.tickUnit(timeUnit);
            }
            if (timestampBits != null) {
                builder.timestampBits(timestampBits);
            }
            if (workerBits != null) {
                builder.workerBits(workerBits);
            }
            if (sequenceBits != null) {
                builder.sequenceBits(sequenceBits);
            }
            return builder;
        }
    }
}
