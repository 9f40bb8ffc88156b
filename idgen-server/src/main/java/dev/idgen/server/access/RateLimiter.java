package dev.idgen.server.access;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client's token bucket, of {@code rate} requests per second and a burst of one second's worth (at least one
 * request), kept as the generic cell rate algorithm: one {@code long}, the time at which the bucket would be full
 * again, moved forward by one request's interval with a compare-and-set. No lock, no refill thread.
 *
 * <p>Why this and not a library. Bucket4j (8.14.0, the version weighed) gives the same answers for one
 * limit, a token bucket with a burst, and much that the server has no use for (distributed buckets, several bandwidths,
 * blocking waits); its local lock-free bucket copies its state on every {@code tryConsume}, 64 bytes per admitted
 * request (the JVM's per-thread allocation counter over 2 * 10^7 calls), on a path this class walks with one
 * compare-and-set on a {@code long} and no allocation. Resilience4j's {@code RateLimiter} (2.4.0) counts
 * permits per fixed refresh period, so a client can spend one period's permits at its end and the next period's at
 * once after: twice the rate over a short span, which a per-client limit exists to prevent. The algorithm here is the
 * generic cell rate algorithm of ATM networks, short enough to read whole, with its tests in {@code RateLimiterTest}.
 */
public final class RateLimiter {

    private static final long SECOND = 1_000_000_000L;

    private final NanoClock clock;

    /** How far one request moves the full-again time. */
    private final long interval;

    /** How far ahead of now the full-again time may be: the burst. */
    private final long burst;

    /** When the bucket would be full again; at or before now while it is full. */
    private final AtomicLong fullAgain;

    /**
     * @param requestsPerSecond more than 0
     * @param clock where the time comes from
     */
    public RateLimiter(double requestsPerSecond, NanoClock clock) {
        if (!(requestsPerSecond > 0)) {
            throw new IllegalArgumentException("requestsPerSecond must be above 0, but was " + requestsPerSecond);
        }
        this.clock = clock;
        this.interval = Math.max(1, Math.round(SECOND / requestsPerSecond));
        this.burst = Math.max(interval, SECOND);
        this.fullAgain = new AtomicLong(clock.nanos());
    }

    /**
     * Takes one request's token.
     *
     * @return {@code null} when the request may pass, else how long until one token is back
     */
    public Duration tryAcquire() {
        while (true) {
            long now = clock.nanos();
            long current = fullAgain.get();
            // Differences, not comparisons: nanoTime may wrap.
            long start = current - now > 0 ? current : now;
            long next = start + interval;
            long ahead = next - now;
            if (ahead > burst) {
                return Duration.ofNanos(ahead - burst);
            }
            if (fullAgain.compareAndSet(current, next)) {
                return null;
            }
        }
    }
}
