package dev.idgen.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TimeSource} that moves only when told to, for tests. Thread-safe: one thread may move it while others wait
 * on it.
 */
public final class ManualTimeSource implements TimeSource {

    private final AtomicLong millis;

    public ManualTimeSource(Instant start) {
        this.millis = new AtomicLong(start.toEpochMilli());
    }

    public ManualTimeSource(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    @Override
    public long currentTimeMillis() {
        return millis.get();
    }

    /**
     * Moves the time by {@code delta}, which may be negative to move it backwards.
     *
     * @param delta how far to move
     * @return the new time in milliseconds
     */
    public long advance(Duration delta) {
        return millis.addAndGet(delta.toMillis());
    }

    /**
     * Moves the time by {@code deltaMillis}, which may be negative.
     *
     * @param deltaMillis how far to move, in milliseconds
     * @return the new time in milliseconds
     */
    public long advanceMillis(long deltaMillis) {
        return millis.addAndGet(deltaMillis);
    }

    /**
     * @param epochMillis the new time in milliseconds since the Unix epoch
     */
    public void set(long epochMillis) {
        millis.set(epochMillis);
    }
}
