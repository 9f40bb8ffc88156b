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

    /** Moves forward with every forward move of {@link #millis} and never backwards, like a monotonic clock. */
    private final AtomicLong nanos = new AtomicLong();

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
     * @return nanoseconds that advance with every forward move of this source and stand still when it moves backwards
     */
    @Override
    public long nanoTime() {
        return nanos.get();
    }

    /**
     * Moves the time by {@code delta}, which may be negative to move it backwards.
     *
     * @param delta how far to move
     * @return the new time in milliseconds
     */
    public long advance(Duration delta) {
        return advanceMillis(delta.toMillis());
    }

    /**
     * Moves the time by {@code deltaMillis}, which may be negative.
     *
     * @param deltaMillis how far to move, in milliseconds
     * @return the new time in milliseconds
     */
    public long advanceMillis(long deltaMillis) {
        if (deltaMillis > 0) {
            nanos.addAndGet(deltaMillis * 1_000_000L);
        }
        return millis.addAndGet(deltaMillis);
    }

    /**
     * @param epochMillis the new time in milliseconds since the Unix epoch
     */
    public void set(long epochMillis) {
        long previous = millis.getAndSet(epochMillis);
        if (epochMillis > previous) {
            nanos.addAndGet((epochMillis - previous) * 1_000_000L);
        }
    }
}
