package dev.idgen.client;

import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.TimeSource;

/**
 * One server's breaker: it opens after {@code threshold} consecutive failures, lets one trial request through once
 * {@code openNanos} have passed (half-open), and closes on that request's success or opens again on its failure.
 *
 * <p>Unlike the core's {@link CircuitBreaker}, which opens at the first failure, this one counts: a single lost
 * request over a network says little about a server. Its methods are synchronized: they run once per HTTP request,
 * which costs far more than an uncontended lock, and a lock keeps the count and the state consistent with each other.
 */
final class Breaker {

    /** What {@link #acquire()} granted: an ordinary request, or the one trial request of an open breaker. */
    enum Permit {
        NORMAL,
        PROBE
    }

    private final int threshold;

    private final long openNanos;

    private final TimeSource clock;

    private CircuitBreaker.State state = CircuitBreaker.State.CLOSED;

    private int consecutiveFailures;

    /** While open: from when a trial may go. While half-open: when the trial is presumed lost. */
    private long until;

    Breaker(int threshold, long openNanos, TimeSource clock) {
        this.threshold = threshold;
        this.openNanos = openNanos;
        this.clock = clock;
    }

    /** @return the permit for a request now, or null when the breaker refuses it */
    synchronized Permit acquire() {
        if (state == CircuitBreaker.State.CLOSED) {
            return Permit.NORMAL;
        }
        long now = clock.nanoTime();
        if (now - until < 0) {
            return null;
        }
        // Open long enough, or a trial that never reported (its caller died): this caller is the trial.
        state = CircuitBreaker.State.HALF_OPEN;
        until = now + openNanos;
        return Permit.PROBE;
    }

    /**
     * A trial although the breaker refuses: every server's breaker is open, and trying the one that reopens first
     * beats failing without trying at all.
     */
    synchronized Permit force() {
        if (state == CircuitBreaker.State.CLOSED) {
            return Permit.NORMAL;
        }
        state = CircuitBreaker.State.HALF_OPEN;
        until = clock.nanoTime() + openNanos;
        return Permit.PROBE;
    }

    /** The server answered: a trial's answer closes the breaker; a closed one forgets earlier failures. */
    synchronized void success(Permit permit) {
        if (permit == Permit.PROBE || state == CircuitBreaker.State.CLOSED) {
            state = CircuitBreaker.State.CLOSED;
            consecutiveFailures = 0;
        }
    }

    /**
     * The server failed: a trial's failure opens the breaker again; on a closed breaker it counts towards the
     * threshold. A failure of a request admitted before the breaker opened leaves its time alone, so that late
     * failures do not keep a server out longer.
     */
    synchronized void failure(Permit permit) {
        if (permit == Permit.PROBE) {
            if (state == CircuitBreaker.State.HALF_OPEN) {
                open();
            }
        } else if (state == CircuitBreaker.State.CLOSED && ++consecutiveFailures >= threshold) {
            open();
        }
    }

    /** The request said nothing about the server (interrupted, rate limited): a trial may go again at once. */
    synchronized void abandon(Permit permit) {
        if (permit == Permit.PROBE && state == CircuitBreaker.State.HALF_OPEN) {
            state = CircuitBreaker.State.OPEN;
            until = clock.nanoTime();
        }
    }

    private void open() {
        state = CircuitBreaker.State.OPEN;
        until = clock.nanoTime() + openNanos;
        consecutiveFailures = 0;
    }

    synchronized CircuitBreaker.State state() {
        return state;
    }

    /** @return while open, the clock reading from which a trial may go; meaningless while closed */
    synchronized long openUntil() {
        return until;
    }
}
