package dev.idgen.core.coalesce;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.Objects;

/**
 * Combines concurrent callers of one counter into one round trip: callers that arrive while a round trip is in flight
 * queue up, and when it returns, one of them takes the whole queue's worth ({@code INCRBY n}, {@code UPDATE … + n})
 * in the next round trip and hands the range out. A {@link BatchCoalescer} whose batch is a range of a counter, whose
 * invariants it keeps:
 *
 * <ul>
 * <li>each value of a range goes to exactly one caller, the oldest caller the lowest value;</li>
 * <li>a round trip serves only callers that were queued before it started, so a call that starts after another call
 * returned gets a larger value (the store's counter only moves forward), however many round trips are in flight;</li>
 * <li>a caller that gives up while still queued takes no value; a round trip that fails fails the callers it was
 * for.</li>
 * </ul>
 *
 * <p>Callers that queue allocate one small record each; a round trip allocates one more, for its range.
 *
 * <p><b>How many in flight.</b> With one, the callers a round trip served come back while the next one is already
 * under way (it took the callers queued meanwhile), so they wait for it and then one more: callers alternate in two
 * groups, each call waits about two round trips, and a store whose round trips are slow for reasons other than load
 * (a commit's disk flush, network latency) serves about half as many calls as plain calls would. A few round trips in
 * flight let returning callers start the next one sooner, at the cost of smaller batches.
 */
public final class RangeCoalescer {

    /**
     * One round trip to the store.
     */
    @FunctionalInterface
    public interface RangeSource {
        /**
         * Takes {@code n} values from the store in one round trip.
         *
         * @param n how many, from 1 to the coalescer's batch limit
         * @return the last value taken: the values are {@code last - (n - 1) * stride} up to {@code last}, {@code stride}
         *         apart
         */
        long take(int n);
    }

    /**
     * One round trip to the store that keeps to a deadline.
     */
    @FunctionalInterface
    public interface TimedRangeSource {
        /**
         * Takes {@code n} values from the store in one round trip, giving up by {@code deadline}.
         *
         * @param n how many, from 1 to the coalescer's batch limit
         * @param deadline the {@link System#nanoTime()} by which the round trip should end: the moment its leading
         *        caller's maximum wait runs out, the earliest of its callers' (it may already be close)
         * @return the last value taken, as {@link RangeSource#take(int)} returns it
         */
        long take(int n, long deadline);
    }

    /** A round trip's range: index i of it is {@code first + i * stride}. */
    private record Range(long first) {}

    private final BatchCoalescer<Range> coalescer;
    private final BatchCoalescer.LongShare<Range> share;

    /**
     * @param source the round trip
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param stride how far apart the values of one range are, at least 1 (ticket servers that interleave use their
     *        count)
     * @param maxWait how long a caller waits in the queue before it gives up with a {@link StoreUnavailableException}
     * @param what names the counter in errors, e.g. {@code "the Redis counter 'orders'"}
     */
    public RangeCoalescer(RangeSource source, int maxBatch, long stride, Duration maxWait, String what) {
        this(untimed(source), maxBatch, 1, stride, maxWait, what);
    }

    /**
     * A coalescer whose round trips are each given a deadline: its leading caller's, so that no caller waits longer
     * than {@code maxWait} in all when the source keeps to it.
     *
     * @param source the round trip, given its deadline
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param stride how far apart the values of one range are, at least 1
     * @param maxWait how long a caller may wait, queueing and its round trip together; one still queued when it runs
     *        out gives up with a {@link StoreUnavailableException}
     * @param what names the counter in errors, e.g. {@code "ticket server db1 for 'orders'"}
     */
    public RangeCoalescer(TimedRangeSource source, int maxBatch, long stride, Duration maxWait, String what) {
        this(source, maxBatch, 1, stride, maxWait, what);
    }

    /**
     * A coalescer with a deadline for each round trip (as above) and up to {@code maxInFlight} round trips in flight
     * at once (see the class comment).
     *
     * @param source the round trip, given its deadline
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param maxInFlight the most round trips in flight at once, at least 1
     * @param stride how far apart the values of one range are, at least 1
     * @param maxWait how long a caller may wait, queueing and its round trip together
     * @param what names the counter in errors
     */
    public RangeCoalescer(
            TimedRangeSource source, int maxBatch, int maxInFlight, long stride, Duration maxWait, String what) {
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be at least 1, but was " + stride);
        }
        Objects.requireNonNull(source, "source");
        this.coalescer = new BatchCoalescer<>(
                (n, deadline) -> new Range(source.take(n, deadline) - (long) (n - 1) * stride),
                maxBatch,
                maxInFlight,
                maxWait,
                what);
        this.share = (range, index) -> range.first() + index * stride;
    }

    /**
     * @return the next value, from a round trip this call ran or one it shared
     * @throws RuntimeException what the round trip threw; {@link StoreUnavailableException} when no round trip took
     *         this call within the maximum wait; {@link IdGenerationException} when interrupted while queued
     */
    public long next() {
        return coalescer.nextLong(share);
    }

    /**
     * @return how many round trips ran
     */
    public long roundTrips() {
        return coalescer.roundTrips();
    }

    /**
     * @return how many callers are queued for the next round trip (for tests)
     */
    int queued() {
        return coalescer.queued();
    }

    private static TimedRangeSource untimed(RangeSource source) {
        Objects.requireNonNull(source, "source");
        return (n, deadline) -> source.take(n);
    }
}
