package dev.idgen.core.segment;

import java.time.Duration;
import java.util.Optional;

/**
 * A snapshot of one name's buffers, for metrics and health.
 *
 * @param name the sequence name
 * @param currentRemaining IDs left in the segment being served
 * @param nextRemaining IDs in the blocks loaded ahead of the current one, 0 when none is loaded
 * @param step the size of the latest fetch
 * @param served IDs handed out by this instance
 * @param fetches segment fetches attempted
 * @param fetchFailures fetches that failed
 * @param fetchNanos time spent in fetches, in nanoseconds
 * @param failedFetchNanos time spent in fetches that failed, in nanoseconds
 * @param waits callers that had to wait for a segment
 * @param ratePerSecond the consumption rate observed between the last two fetches
 * @param loading whether a fetch is running now
 * @param lastFailure the message of the latest fetch's failure, {@code null} when it succeeded
 * @param refusing whether a caller that needed a segment was refused (the store failed, or the segment did not load
 *        in time) and no segment has loaded since: the name cannot serve now
 * @param lastLoadMillis when the latest segment loaded (epoch milliseconds of the buffer's time source), -1 before
 *        the first
 */
public record SegmentBufferStats(
        String name,
        long currentRemaining,
        long nextRemaining,
        long step,
        long served,
        long fetches,
        long fetchFailures,
        long fetchNanos,
        long failedFetchNanos,
        long waits,
        double ratePerSecond,
        boolean loading,
        String lastFailure,
        boolean refusing,
        long lastLoadMillis) {

    /**
     * A snapshot that does not know when the latest segment loaded ({@link #lastLoadMillis()} -1).
     */
    public SegmentBufferStats(
            String name,
            long currentRemaining,
            long nextRemaining,
            long step,
            long served,
            long fetches,
            long fetchFailures,
            long fetchNanos,
            long failedFetchNanos,
            long waits,
            double ratePerSecond,
            boolean loading,
            String lastFailure,
            boolean refusing) {
        this(
                name,
                currentRemaining,
                nextRemaining,
                step,
                served,
                fetches,
                fetchFailures,
                fetchNanos,
                failedFetchNanos,
                waits,
                ratePerSecond,
                loading,
                lastFailure,
                refusing,
                -1);
    }

    /**
     * @return IDs left in the current block and the ones loaded ahead
     */
    public long remaining() {
        return currentRemaining + nextRemaining;
    }

    /**
     * How long the buffers last at the observed rate, if the store stays away.
     *
     * @return the estimate, empty when no rate has been observed yet
     */
    public Optional<Duration> estimatedTimeLeft() {
        if (ratePerSecond <= 0) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis((long) (remaining() * 1000.0 / ratePerSecond)));
    }
}
