package dev.idgen.core.segment;

import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link SegmentStore} in memory, for tests and benchmarks: unique within one JVM only, and forgotten on restart.
 * It can simulate IO latency and an outage.
 */
public final class InMemorySegmentStore implements SegmentStore {

    private final ConcurrentHashMap<String, AtomicLong> maxIds = new ConcurrentHashMap<>();
    private final long initialValue;
    private final long latencyNanos;
    private final AtomicLong allocations = new AtomicLong();
    private volatile boolean available = true;

    /**
     * A store with no latency whose names start at 1.
     */
    public InMemorySegmentStore() {
        this(0, Duration.ZERO);
    }

    /**
     * @param initialValue the max ID a new name starts from; its first ID is {@code initialValue + 1}
     * @param latency how long each allocation takes, to simulate a database round trip
     */
    public InMemorySegmentStore(long initialValue, Duration latency) {
        if (initialValue < 0) {
            throw new IllegalArgumentException("initialValue must be at least 0, but was " + initialValue);
        }
        this.initialValue = initialValue;
        this.latencyNanos = latency.toNanos();
    }

    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>As the database store does: the counter is raised to {@code floor} first, in the same allocation.
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1, but was " + step);
        }
        if (latencyNanos > 0) {
            LockSupport.parkNanos(latencyNanos);
        }
        if (!available) {
            throw new StoreUnavailableException("The in-memory segment store is marked unavailable");
        }
        allocations.incrementAndGet();
        long max = maxIds.computeIfAbsent(name, key -> new AtomicLong(initialValue))
                .accumulateAndGet(step, (current, add) -> Math.max(current, floor) + add);
        return new Segment(max - step + 1, max);
    }

    @Override
    public void checkAvailable() {
        if (!available) {
            throw new StoreUnavailableException("The in-memory segment store is marked unavailable");
        }
    }

    /**
     * @param available {@code false} to make every allocation throw {@link StoreUnavailableException}
     */
    public void setAvailable(boolean available) {
        this.available = available;
    }

    /**
     * Forgets every name, as a store that lost its data would.
     */
    public void clear() {
        maxIds.clear();
    }

    /**
     * @return how many allocations succeeded
     */
    public long allocations() {
        return allocations.get();
    }
}
