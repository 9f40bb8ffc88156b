package dev.idgen.core.segment;

/**
 * How many blocks a {@link SegmentBuffer} keeps ready: enough for {@value #SAFETY} times the IDs served during one
 * load, from two estimates, the serving rate (how long each block lasted) and the load latency (from asking for a
 * load until its block was ready, waiting for the loader thread included). Both are maxima that halve every
 * {@link #HALF_LIFE_NANOS} (30 s) unless a sample is higher, so a spike deepens the prefetch at once and it shrinks
 * slowly once things are calm.
 *
 * <p>Its own class so that the arithmetic is tested on its own, with times given, not read: the buffer passes every
 * {@code now} (its {@code TimeSource}'s nanoTime). Not thread-safe: the buffer calls it under its lock.
 */
final class PrefetchEstimate {

    /** How many times the IDs served during one load the ready blocks should hold. */
    static final int SAFETY = 3;

    /** The deepest prefetch, and the most blocks fetched in one load. */
    static final int MAX_DEPTH = 32;

    /**
     * How fast the rate and latency estimates forget a maximum: by half every this many nanoseconds. Long enough to
     * remember the store's occasional stall (a checkpoint, a failover, a busy machine) from one to the next; short
     * enough that a burst does not hold a deep prefetch for long.
     */
    static final long HALF_LIFE_NANOS = 30_000_000_000L;

    /** When the current block became current. */
    private long currentSince;

    /** Whether {@link #currentSince} is set (nanoTime has an arbitrary origin: no value can mean "unset"). */
    private boolean currentSinceKnown;

    /** IDs per second while serving, a decaying maximum over the blocks served. */
    private double servingRate;

    /** When {@link #servingRate} was last sampled. */
    private long servingRateAt;

    /** From asking for a load to its block being ready, a decaying maximum. */
    private long loadLatencyNanos;

    /** When {@link #loadLatencyNanos} was last sampled. */
    private long loadLatencyAt;

    /** A block became current at {@code now}. */
    void blockStarted(long now) {
        currentSince = now;
        currentSinceKnown = true;
    }

    /**
     * The current block, of {@code ids} IDs, was used up at {@code now}: a sample of the serving rate. The next block
     * is taken to start now.
     */
    void blockUsedUp(long ids, long now) {
        if (currentSinceKnown && now > currentSince) {
            double rate = ids * 1e9 / (now - currentSince);
            servingRate = Math.max(rate, decayed(servingRate, now - servingRateAt));
            servingRateAt = now;
        }
        blockStarted(now);
    }

    /**
     * A load asked for at {@code requestedAt} made its blocks ready at {@code now}: a sample of the load latency.
     *
     * @param blockSize the IDs in one block
     * @return the blocks to keep ready, from 1 to {@value #MAX_DEPTH}
     */
    int loadReady(long requestedAt, long now, long blockSize) {
        long latency = now - requestedAt;
        loadLatencyNanos = Math.max(latency, (long) decayed(loadLatencyNanos, now - loadLatencyAt));
        loadLatencyAt = now;
        double idsPerLoad = servingRate * loadLatencyNanos / 1e9;
        return (int) Math.max(1, Math.min(MAX_DEPTH, Math.ceil(idsPerLoad * SAFETY / blockSize)));
    }

    /** @return IDs per second while serving, as estimated now (not decayed to {@code now}) */
    double servingRate() {
        return servingRate;
    }

    /** @return the load latency, as estimated at the last load */
    long loadLatencyNanos() {
        return loadLatencyNanos;
    }

    private static double decayed(double estimate, long elapsedNanos) {
        return elapsedNanos <= 0 ? estimate : estimate * Math.pow(0.5, (double) elapsedNanos / HALF_LIFE_NANOS);
    }
}
