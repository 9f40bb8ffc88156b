package dev.idgen.core.segment;

import dev.idgen.core.InvalidArgumentException;
import java.time.Duration;

/**
 * How segments are sized and loaded. Immutable; build with {@link #builder()}.
 *
 * @param step the first segment's size, and the smallest unless {@code minStep} is set lower
 * @param minStep the smallest segment the dynamic step fetches
 * @param maxStep the largest segment the dynamic step fetches
 * @param bufferDuration how long one segment should last at the observed rate
 * @param preloadThreshold the used fraction of the current segment after which the next one loads, in (0, 1)
 * @param awaitTimeout how long a caller waits for the next segment when the current one is used up
 * @param stripeSize 0 (the default) to serve every caller from the shared cursor, so a name's IDs strictly increase
 *        across the instance; otherwise each thread claims up to this many IDs at a time and serves them alone, which
 *        scales with threads but keeps IDs increasing only per thread. A thread's claims start at 1 ID and double
 *        per claim up to this size, so the unserved rest a thread takes with it when it ends (a gap) is at most the
 *        IDs it used and at most this size: a new thread per request (virtual threads) claims only what it uses
 * @param firstLoadTimeout how long the first callers of a name wait for its first segment. Longer than
 *        {@code awaitTimeout}: the first load of a name may create its row (or the table) and opens the first
 *        connections, and nothing is buffered yet that a preload could have filled ahead of time
 */
public record SegmentSettings(
        long step,
        long minStep,
        long maxStep,
        Duration bufferDuration,
        double preloadThreshold,
        Duration awaitTimeout,
        int stripeSize,
        Duration firstLoadTimeout) {

    /**
     * The defaults: step 1,000 (and min), max 1,000,000, 5 minutes per segment, preload at 20%, wait up to 1 s for a
     * segment and up to 10 s for a name's first one.
     */
    public static final SegmentSettings DEFAULTS = builder().build();

    /**
     * @return a builder with the {@linkplain #DEFAULTS defaults}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds {@link SegmentSettings}.
     */
    public static final class Builder {

        private long step = 1000;
        private Long minStep;
        private long maxStep = 1_000_000;
        private Duration bufferDuration = Duration.ofMinutes(5);
        private double preloadThreshold = 0.2;
        private Duration awaitTimeout = Duration.ofSeconds(1);
        private int stripeSize;
        private Duration firstLoadTimeout = Duration.ofSeconds(10);

        private Builder() {}

        /** @param step the first segment's size, and the smallest unless {@link #minStep} says otherwise */
        public Builder step(long step) {
            this.step = step;
            return this;
        }

        /** @param minStep the smallest segment; defaults to {@code step} */
        public Builder minStep(long minStep) {
            this.minStep = minStep;
            return this;
        }

        public Builder maxStep(long maxStep) {
            this.maxStep = maxStep;
            return this;
        }

        public Builder bufferDuration(Duration bufferDuration) {
            this.bufferDuration = bufferDuration;
            return this;
        }

        public Builder preloadThreshold(double preloadThreshold) {
            this.preloadThreshold = preloadThreshold;
            return this;
        }

        public Builder awaitTimeout(Duration awaitTimeout) {
            this.awaitTimeout = awaitTimeout;
            return this;
        }

        /**
         * @param stripeSize 0 for one shared cursor (IDs increase across the instance), or 1 to 65536 IDs claimed per
         *        thread at a time at most (IDs increase per thread only; a thread's claims start at 1 and double)
         * @return this builder
         */
        public Builder stripeSize(int stripeSize) {
            this.stripeSize = stripeSize;
            return this;
        }

        /**
         * @param firstLoadTimeout how long the first callers of a name wait for its first segment, from 0 to 5m
         * @return this builder
         */
        public Builder firstLoadTimeout(Duration firstLoadTimeout) {
            this.firstLoadTimeout = firstLoadTimeout;
            return this;
        }

        /**
         * @return the settings
         * @throws InvalidArgumentException naming the first setting that breaks its rule
         */
        public SegmentSettings build() {
            long min = minStep != null ? minStep : step;
            if (step < 1 || step > 1_000_000_000L) {
                throw new InvalidArgumentException(
                        "step", step, "step must be between 1 and 1000000000, but was " + step);
            }
            if (min < 1 || min > step) {
                throw new InvalidArgumentException(
                        "minStep", min, "minStep must be between 1 and step (" + step + "), but was " + min);
            }
            if (maxStep < step || maxStep > 1_000_000_000L) {
                throw new InvalidArgumentException(
                        "maxStep",
                        maxStep,
                        "maxStep must be between step (" + step + ") and 1000000000, but was " + maxStep);
            }
            if (bufferDuration == null
                    || bufferDuration.compareTo(Duration.ofSeconds(1)) < 0
                    || bufferDuration.compareTo(Duration.ofDays(1)) > 0) {
                throw new InvalidArgumentException(
                        "bufferDuration",
                        bufferDuration,
                        "bufferDuration must be between 1s and 1d, but was " + bufferDuration);
            }
            if (!(preloadThreshold > 0 && preloadThreshold < 1)) {
                throw new InvalidArgumentException(
                        "preloadThreshold",
                        preloadThreshold,
                        "preloadThreshold must be greater than 0 and less than 1, but was " + preloadThreshold);
            }
            if (awaitTimeout == null
                    || awaitTimeout.isNegative()
                    || awaitTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new InvalidArgumentException(
                        "awaitTimeout", awaitTimeout, "awaitTimeout must be between 0 and 1m, but was " + awaitTimeout);
            }
            if (stripeSize < 0 || stripeSize > 65_536) {
                throw new InvalidArgumentException(
                        "stripeSize",
                        stripeSize,
                        "stripeSize must be between 0 (off) and 65536, but was " + stripeSize);
            }
            if (firstLoadTimeout == null
                    || firstLoadTimeout.isNegative()
                    || firstLoadTimeout.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new InvalidArgumentException(
                        "firstLoadTimeout",
                        firstLoadTimeout,
                        "firstLoadTimeout must be between 0 and 5m, but was " + firstLoadTimeout);
            }
            return new SegmentSettings(
                    step, min, maxStep, bufferDuration, preloadThreshold, awaitTimeout, stripeSize, firstLoadTimeout);
        }
    }
}
