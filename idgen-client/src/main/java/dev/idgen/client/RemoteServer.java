package dev.idgen.client;

import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.TimeSource;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One server of a {@link RemoteSegmentStore}, as health and metrics see it: its URL, its breaker's state and how its
 * requests went. A live view: every read returns the current value, so that a gauge or a counter can read it lazily;
 * nothing here changes the store.
 */
public final class RemoteServer {

    private final URI uri;

    private final String blocks;

    private final CircuitBreaker breaker;

    private final TimeSource clock;

    private final AtomicLong successes = new AtomicLong();

    private final AtomicLong failures = new AtomicLong();

    /** Clock reading before which the server asked (429 Retry-After) not to be called; 0 and past when it did not. */
    private volatile long rateLimitedUntil;

    private volatile boolean rateLimited;

    private volatile String lastFailure;

    RemoteServer(URI uri, CircuitBreaker breaker, TimeSource clock) {
        this.uri = uri;
        String base = uri.toString();
        this.blocks = (base.endsWith("/") ? base : base + "/") + "blocks";
        this.breaker = breaker;
        this.clock = clock;
    }

    /** @return the server's base URL, as configured */
    public URI uri() {
        return uri;
    }

    /** @return its breaker's state */
    public CircuitBreaker.State state() {
        return breaker.state();
    }

    /** @return how many of its requests gave a valid block */
    public long successes() {
        return successes.get();
    }

    /**
     * @return how many of its requests gave no block: failed, timed out, rate limited, refused or answered with a
     *         block that was not valid
     */
    public long failures() {
        return failures.get();
    }

    /** @return why its last failed request failed, or null when none failed */
    public String lastFailure() {
        return lastFailure;
    }

    /** @return whether it asked (429 with Retry-After) not to be called yet */
    public boolean rateLimited() {
        return rateLimited && clock.nanoTime() - rateLimitedUntil < 0;
    }

    @Override
    public String toString() {
        return uri.toString();
    }

    String blocksUrl() {
        return blocks;
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    void succeeded() {
        successes.incrementAndGet();
    }

    void failed(String why) {
        lastFailure = why;
        failures.incrementAndGet();
    }

    void rateLimit(long nanos) {
        rateLimitedUntil = clock.nanoTime() + nanos;
        rateLimited = true;
    }
}
