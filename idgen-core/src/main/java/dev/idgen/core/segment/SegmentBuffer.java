package dev.idgen.core.segment;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The two buffers of one name: the segment being served and the next one, loaded in the background once the current
 * one is used past the preload threshold.
 *
 * <p>The hot path is one {@code getAndAdd} on the current range's cursor. Only when a range is used up do callers take
 * the lock, to switch to the next range or wait (parked, bounded) for it. Exactly one load per name runs at a time.
 */
final class SegmentBuffer {

    private static final long MAX_RETRY_DELAY_MILLIS = 5_000;

    /** The largest ID a segment may end at: room for the cursor to overshoot without wrapping. */
    static final long MAX_ID = Long.MAX_VALUE - (1L << 32);

    private final String name;
    private final SegmentStore store;
    private final SegmentSettings settings;
    private final ScheduledExecutorService loader;
    private final TimeSource timeSource;

    private volatile SegmentRange current;
    /** Written only by the loader, under {@link #lock}; taken by a switching caller, under the lock. */
    private volatile SegmentRange next;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AtomicBoolean loading = new AtomicBoolean();

    // Guarded by lock.
    private long completedLoads;
    private long highestAllocated;
    private volatile Throwable lastFailure;
    /** Set when a caller that needed a segment was refused; cleared by the next load that succeeds. */
    private volatile boolean refusing;
    /** Why this name refuses for good: the store handed out a block that may repeat IDs. Never cleared. */
    private volatile String refusedForGood;
    private final AtomicBoolean retryPending = new AtomicBoolean();

    // Used by the one running load only (the loading flag orders them between loads).
    private long step;
    private long lastFetchMillis = -1;
    private long servedAtLastFetch;
    private int consecutiveFailures;
    private volatile double ratePerSecond;

    private final AtomicLong fetches = new AtomicLong();
    private final AtomicLong fetchFailures = new AtomicLong();
    private final AtomicLong fetchNanos = new AtomicLong();
    private final AtomicLong failedFetchNanos = new AtomicLong();
    private final LongAdder waits = new LongAdder();

    /** Striped mode only: the IDs this thread claimed and has not handed out yet. */
    private final ThreadLocal<Stripe> stripes = ThreadLocal.withInitial(Stripe::new);

    private static final class Stripe {
        long next = 1;
        long last;
    }

    SegmentBuffer(String name, SegmentStore store, SegmentSettings settings, ScheduledExecutorService loader,
            TimeSource timeSource) {
        this.name = name;
        this.store = store;
        this.settings = settings;
        this.loader = loader;
        this.timeSource = timeSource;
        this.step = settings.step();
    }

    long nextId() {
        for (;;) {
            SegmentRange range = current;
            if (range != null) {
                long id = range.take(1);
                if (id <= range.last) {
                    if (id == range.preloadAt) {
                        preload();
                    }
                    return id;
                }
            }
            switchOrAwait(range);
        }
    }

    /**
     * Striped mode: serves from this thread's claimed IDs, claiming {@code stripeSize} more from the shared cursor
     * when they run out. Thread-confined plain fields, so no shared write per ID.
     */
    long nextIdStriped() {
        Stripe stripe = stripes.get();
        long id = stripe.next;
        if (id <= stripe.last) {
            stripe.next = id + 1;
            return id;
        }
        int size = settings.stripeSize();
        for (;;) {
            SegmentRange range = current;
            if (range != null) {
                long start = range.take(size);
                if (start <= range.last) {
                    long end = Math.min(range.last, start + size - 1);
                    if (start <= range.preloadAt && range.preloadAt <= end) {
                        preload();
                    }
                    stripe.next = start + 1;
                    stripe.last = end;
                    return start;
                }
            }
            switchOrAwait(range);
        }
    }

    /**
     * Fills {@code ids} with consecutive IDs, taking as many as fit from each range in one claim.
     */
    void nextIds(long[] ids) {
        if (settings.stripeSize() > 0) {
            // The batch comes from the shared cursor, above this thread's run: drop the run (a gap), so this thread's
            // next ID is claimed afresh and stays above the batch.
            Stripe stripe = stripes.get();
            stripe.next = stripe.last + 1;
        }
        int filled = 0;
        while (filled < ids.length) {
            SegmentRange range = current;
            if (range != null) {
                int wanted = ids.length - filled;
                long start = range.take(wanted);
                if (start <= range.last) {
                    long end = Math.min(range.last, start + wanted - 1);
                    if (start <= range.preloadAt && range.preloadAt <= end) {
                        preload();
                    }
                    for (long id = start; id <= end; id++) {
                        ids[filled++] = id;
                    }
                    continue;
                }
            }
            switchOrAwait(range);
        }
    }

    /**
     * Starts loading the next segment if none is loaded. Called on the hot path by a caller that already holds a valid
     * ID, so it never throws: a loader that refuses work is reported to the caller that runs out instead.
     */
    private void preload() {
        if (next == null) {
            startLoad();
        }
    }

    /**
     * @return false when the loader refused the load (it is shut down); true when a load runs now
     */
    private boolean startLoad() {
        if (loading.compareAndSet(false, true)) {
            try {
                loader.execute(this::load);
            } catch (RejectedExecutionException e) {
                loading.set(false);
                return false;
            }
        }
        return true;
    }

    /**
     * The slow path: {@code exhausted} (or no range yet) ran out. Switch to the next range, or wait for it up to the
     * await timeout, parked on a condition.
     */
    private void switchOrAwait(SegmentRange exhausted) {
        lock.lock();
        try {
            // A name's first segment gets longer: its load may create the row, open the first connections, and no
            // preload could have fetched it ahead of time.
            java.time.Duration timeout = exhausted == null
                    ? max(settings.firstLoadTimeout(), settings.awaitTimeout()) : settings.awaitTimeout();
            long deadline = System.nanoTime() + timeout.toNanos();
            long loadsAtStart = completedLoads;
            boolean counted = false;
            for (;;) {
                if (current != exhausted) {
                    return;
                }
                String lostData = refusedForGood;
                if (lostData != null) {
                    refusing = true;
                    throw new StoreUnavailableException("No IDs left for '" + name + "': " + lostData);
                }
                SegmentRange following = next;
                if (following != null) {
                    next = null;
                    following.servedBefore = exhausted == null ? 0 : exhausted.servedBefore + exhausted.size();
                    current = following;
                    return;
                }
                if (completedLoads > loadsAtStart && lastFailure != null) {
                    // Fail fast: a load finished since we came and it failed.
                    refusing = true;
                    throw new StoreUnavailableException("No IDs left for '" + name + "' and the segment store failed: "
                            + lastFailure.getMessage(), lastFailure);
                }
                if (!startLoad()) {
                    refusing = true;
                    throw new IdGenerationException("No IDs left for '" + name + "': the segment loader is shut down");
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    refusing = true;
                    throw new StoreUnavailableException("No IDs left for '" + name + "': the next segment did not"
                            + " load within " + timeout.toMillis() + " ms");
                }
                if (!counted) {
                    waits.increment();
                    counted = true;
                }
                try {
                    changed.awaitNanos(remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IdGenerationException("Interrupted while waiting for the next segment of '" + name + "'",
                            e);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void load() {
        if (refusedForGood != null || next != null && current != null) {
            // Refused for good (no load may move the store on), or a preload that lost a race with a load which
            // already filled the next buffer: nothing to do.
            loading.set(false);
            return;
        }
        long size = nextStep();
        long started = System.nanoTime();
        Segment segment = null;
        Throwable failure = null;
        try {
            segment = store.allocate(name, size);
            if (segment == null) {
                throw new StoreUnavailableException("The segment store returned no segment for '" + name + "'");
            }
        } catch (Throwable t) {
            failure = t;
        }
        long took = System.nanoTime() - started;
        fetchNanos.addAndGet(took);
        if (failure != null) {
            failedFetchNanos.addAndGet(took);
        }
        fetches.incrementAndGet();
        boolean retry;
        lock.lock();
        try {
            String refusal = null;
            if (failure == null && segment.last() > MAX_ID) {
                // Cursors run past a range's end by up to one claim per caller; near 2^63 that would wrap negative.
                refusal = "the segment store handed out [" + segment.first() + ", " + segment.last() + "] for '"
                        + name + "': IDs this close to 2^63 are refused";
            } else if (failure == null && segment.first() <= highestAllocated) {
                refusal = "the segment store handed out [" + segment.first() + ", " + segment.last() + "] for '"
                        + name + "', which does not follow the previous segment's end " + highestAllocated
                        + ": it may have lost data, so no IDs are issued for this name until the store is repaired"
                        + " and the instance restarted";
            }
            if (refusal != null) {
                // For good: loading again would move the store on until a block passes this instance's own
                // highest, yet other instances may have served above it. Only a person can tell the store is right.
                refusedForGood = refusal;
                failure = new StoreUnavailableException(refusal);
            }
            if (failure == null) {
                highestAllocated = segment.last();
                SegmentRange range = new SegmentRange(segment, settings.preloadThreshold());
                if (current == null) {
                    current = range;
                } else {
                    next = range;
                }
                lastFailure = null;
                refusing = false;
                consecutiveFailures = 0;
            } else {
                fetchFailures.incrementAndGet();
                lastFailure = failure;
                consecutiveFailures++;
            }
            completedLoads++;
            loading.set(false);
            changed.signalAll();
            // Keep trying in the background (backing off) until a load succeeds: while the current range still
            // serves, the store coming back is noticed before the buffer runs out; once it has run out, the name
            // recovers (and its health with it) without waiting for a caller to come and fail first.
            retry = failure != null && next == null && refusedForGood == null;
        } finally {
            lock.unlock();
        }
        // One pending retry per name at most: loads that callers start meanwhile do not add more.
        if (retry && retryPending.compareAndSet(false, true)) {
            long delay = Math.min(MAX_RETRY_DELAY_MILLIS, 100L << Math.min(6, consecutiveFailures));
            try {
                loader.schedule(() -> {
                    retryPending.set(false);
                    preload();
                }, delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException ignored) {
                retryPending.set(false); // shutting down
            }
        }
    }

    private static java.time.Duration max(java.time.Duration a, java.time.Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * Sizes the next fetch so that a segment lasts about the buffer duration at the rate observed since the last one,
     * moving at most a factor of two per fetch.
     */
    private long nextStep() {
        long now = timeSource.currentTimeMillis();
        long served = served();
        if (lastFetchMillis >= 0) {
            long elapsed = Math.max(1, now - lastFetchMillis);
            double rate = (served - servedAtLastFetch) * 1000.0 / elapsed;
            ratePerSecond = rate;
            double wanted = rate * settings.bufferDuration().toMillis() / 1000.0;
            // At most double or halve per fetch: a burst right after start-up must not turn into one huge segment
            // (a huge gap after the next restart), and a quiet minute must not shrink it to nothing.
            wanted = Math.max(step / 2.0, Math.min(step * 2.0, wanted));
            step = (long) Math.max(settings.minStep(), Math.min(settings.maxStep(), wanted));
        }
        lastFetchMillis = now;
        servedAtLastFetch = served;
        return step;
    }

    /**
     * @return how many IDs this name has handed out in this instance
     */
    long served() {
        // One range read: its own count before it plus its use, so the total never goes down under a switch.
        SegmentRange range = current;
        return range == null ? 0 : range.servedBefore + range.used();
    }

    SegmentBufferStats stats() {
        SegmentRange range = current;
        SegmentRange following = next;
        Throwable failure = lastFailure;
        return new SegmentBufferStats(name, range == null ? 0 : range.remaining(),
                following == null ? 0 : following.remaining(), step, served(), fetches.get(), fetchFailures.get(),
                fetchNanos.get(), failedFetchNanos.get(), waits.sum(), ratePerSecond, loading.get(),
                failure == null ? null : String.valueOf(failure.getMessage()), refusing);
    }
}
