package dev.idgen.core.segment;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.PermissionDeniedException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The buffers of one name: the segment being served and the blocks loaded ahead of it, fetched in the background once
 * the current one is used past the preload threshold.
 *
 * <p>The hot path is one {@code getAndAdd} on the current range's cursor. Only when a range is used up do callers take
 * the lock, to switch to the next ready block or wait (parked, bounded) for one. Exactly one load per name runs at a
 * time.
 *
 * <p><b>Adaptive prefetch.</b> A caller waits only if the blocks loaded ahead run out before a load completes. So the
 * buffer keeps {@link #prefetchDepth} blocks ready, enough for {@value #SAFETY} times the IDs served during one load:
 * the rate observed while serving (how long each block lasted) times the load latency observed from the moment a load
 * was asked for until its block was ready (which includes waiting for the loader thread, not only the store), worked
 * out by {@link PrefetchEstimate}. Both estimates are maxima that halve every 30 s unless a sample is higher, so a
 * spike deepens the prefetch at once and it shrinks slowly once things are calm. At
 * ordinary rates one block lasts minutes (the dynamic step) and the depth stays 1, the classic double buffer; it
 * grows only where blocks at {@code maxStep} last less than a few load latencies. A load starts when the ready blocks
 * drop below the depth and, past a depth of 1, fills them up to twice the depth ({@link #batchDepth}), so the store is
 * asked about once per depth of blocks rather than once per block. The blocks one load fetches, at most
 * {@value #MAX_DEPTH}, come in one allocation of {@code blocks x step} IDs, split here, so a deeper prefetch costs no
 * extra round trips. IDs prefetched and not served when the instance stops are gaps, as in the double buffer: at most
 * {@value #MAX_READY} blocks.
 */
final class SegmentBuffer {

    private static final long MAX_RETRY_DELAY_MILLIS = 5_000;

    /** What the {@code try...} methods return when the caller would have to wait. Never an ID: IDs are positive. */
    static final long WOULD_WAIT = -1;

    /** The largest ID a segment may end at: room for the cursor to overshoot without wrapping. */
    static final long MAX_ID = Long.MAX_VALUE - (1L << 32);

    private final String name;
    private final SegmentStore store;

    /** IDs of the name handed out before its store was in use; read once, by the first load that succeeds. */
    private final SegmentStartFloor startFloor;

    /**
     * Whether {@link #startFloor} was read and {@link #highestAllocated} raised to it. Written and read by loads only,
     * which never overlap (the {@code loading} flag); volatile so that a load on another loader thread sees it.
     */
    private volatile boolean startFloorRead;

    private final SegmentSettings settings;
    private final ScheduledExecutorService loader;
    private final TimeSource timeSource;

    /** How many times the IDs served during one load the ready blocks should hold. */
    static final int SAFETY = PrefetchEstimate.SAFETY;

    /** The deepest prefetch, and the most blocks fetched in one load. */
    static final int MAX_DEPTH = PrefetchEstimate.MAX_DEPTH;

    /** The most blocks ready at once: a load fills up to twice the depth ({@link #batchDepth}). */
    static final int MAX_READY = 2 * MAX_DEPTH;

    private volatile SegmentRange current;
    /** Blocks loaded ahead of {@link #current}, oldest first. Guarded by {@link #lock}. */
    private final ArrayDeque<SegmentRange> ready = new ArrayDeque<>();
    /** {@code ready.size()}, for the hot path's preload check without the lock. Written under the lock. */
    private volatile int readyBlocks;
    /** IDs in the ready blocks, for stats. Written under the lock. */
    private volatile long readyIds;
    /** How many blocks to keep ready, at least 1. Written under the lock. */
    private volatile int prefetchDepth = 1;
    /** What {@link #prefetchDepth} is worked out from. Guarded by lock. */
    private final PrefetchEstimate estimate = new PrefetchEstimate();
    /** When the running load was asked for. Written before the loader runs it (the loading flag orders them). */
    private volatile long loadRequestedAt;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AtomicBoolean loading = new AtomicBoolean();

    // Guarded by lock.
    private long completedLoads;
    private long highestAllocated;
    private volatile Throwable lastFailure;
    /** When the latest segment loaded, in epoch milliseconds; -1 before the first. */
    private volatile long lastLoadMillis = -1;
    /** Set when a caller that needed a segment was refused; cleared by the next load that succeeds. */
    private volatile boolean refusing;
    /**
     * The store's latest "this caller may not use the name", cleared by the next load that succeeds. Not an outage:
     * it sets neither {@link #lastFailure} nor {@link #refusing}, and no retry follows it. Guarded by lock.
     */
    private PermissionDeniedException denial;
    /** When {@link #denial} came ({@link TimeSource#nanoTime()}). Guarded by lock. */
    private long deniedAt;
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
        /**
         * How many IDs this thread claims next: 1 at first, doubling per claim up to the stripe size. So a thread that
         * makes k calls claims fewer than 2k IDs, and a thread that makes one call (a new thread per request, virtual
         * threads) claims just the ID it uses: the unserved rest that a thread takes with it is never more than it
         * used, and never more than the stripe size.
         */
        int claim = 1;
    }

    SegmentBuffer(
            String name,
            SegmentStore store,
            SegmentSettings settings,
            ScheduledExecutorService loader,
            TimeSource timeSource) {
        this(name, store, SegmentStartFloor.NONE, settings, loader, timeSource);
    }

    SegmentBuffer(
            String name,
            SegmentStore store,
            SegmentStartFloor startFloor,
            SegmentSettings settings,
            ScheduledExecutorService loader,
            TimeSource timeSource) {
        this.name = name;
        this.store = store;
        this.startFloor = startFloor;
        this.settings = settings;
        this.loader = loader;
        this.timeSource = timeSource;
        this.step = settings.step();
    }

    long nextId() {
        return claimOne(true);
    }

    /**
     * As {@link #nextId()}, without parking: {@link #WOULD_WAIT} when the range is used up and the next is not ready.
     */
    long tryNextId() {
        return claimOne(false);
    }

    /**
     * Striped mode: serves from this thread's claimed IDs, claiming more from the shared cursor when they run out (1
     * at first, doubling per claim up to {@code stripeSize}, see {@link Stripe#claim}). Thread-confined plain fields,
     * so no shared write per ID.
     */
    long nextIdStriped() {
        return claimStriped(true);
    }

    /**
     * As {@link #nextIdStriped()}, without parking: {@link #WOULD_WAIT} when this thread's run and the range are used
     * up and the next range is not ready.
     */
    long tryNextIdStriped() {
        return claimStriped(false);
    }

    /**
     * The one claim loop of a single ID, blocking or not: each caller passes a constant, so the JIT compiles each
     * caller with only its own branch (JMH before and after merging the two loops: docs/benchmarks.md, "one claim
     * loop").
     *
     * @param mayWait whether a used-up range may park the caller until the next one is ready
     * @return the ID, or {@link #WOULD_WAIT} when it may not wait and would have to
     */
    private long claimOne(boolean mayWait) {
        for (; ; ) {
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
            if (mayWait) {
                switchOrAwait(range);
            } else if (!trySwitch(range)) {
                return WOULD_WAIT;
            }
        }
    }

    /**
     * The one claim loop of striped mode, blocking or not, as {@link #claimOne}. The thread's claim doubles with each
     * claim made, so a caller that would have waited does not grow it.
     */
    private long claimStriped(boolean mayWait) {
        Stripe stripe = stripes.get();
        long id = stripe.next;
        if (id <= stripe.last) {
            stripe.next = id + 1;
            return id;
        }
        int size = stripe.claim;
        for (; ; ) {
            SegmentRange range = current;
            if (range != null) {
                long start = range.take(size);
                if (start <= range.last) {
                    long end = Math.min(range.last, start + size - 1);
                    if (start <= range.preloadAt && range.preloadAt <= end) {
                        preload();
                    }
                    if (size < settings.stripeSize()) {
                        stripe.claim = Math.min(settings.stripeSize(), size * 2);
                    }
                    stripe.next = start + 1;
                    stripe.last = end;
                    return start;
                }
            }
            if (mayWait) {
                switchOrAwait(range);
            } else if (!trySwitch(range)) {
                return WOULD_WAIT;
            }
        }
    }

    /**
     * Fills {@code ids} with consecutive IDs, taking as many as fit from each range in one claim.
     */
    void nextIds(long[] ids) {
        nextIds(ids, 0);
    }

    /**
     * As {@link #nextIds(long[])}, without parking: fills {@code ids} from the start as far as the IDs in memory go.
     *
     * @return how many it filled; fewer than {@code ids.length} when the caller would have to wait for the rest, which
     *         {@link #nextIds(long[], int)} then fills after them
     */
    int tryNextIds(long[] ids) {
        return fill(ids, 0, false);
    }

    private void dropStripe() {
        if (settings.stripeSize() > 0) {
            // The batch comes from the shared cursor, above this thread's run: drop the run (a gap), so this thread's
            // next ID is claimed afresh and stays above the batch.
            Stripe stripe = stripes.get();
            stripe.next = stripe.last + 1;
        }
    }

    /**
     * Fills {@code ids} from {@code from} on with consecutive IDs, taking as many as fit from each range in one claim.
     */
    void nextIds(long[] ids, int from) {
        fill(ids, from, true);
    }

    /**
     * Fills {@code ids} from {@code from} on, taking as many as fit from each range in one claim; when the ranges in
     * memory run out, waits for the next one ({@code mayWait}) or stops.
     *
     * @return how far it filled
     */
    private int fill(long[] ids, int from, boolean mayWait) {
        dropStripe();
        int filled = from;
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
            if (mayWait) {
                switchOrAwait(range);
            } else if (!trySwitch(range)) {
                break;
            }
        }
        return filled;
    }

    /**
     * Starts loading the next segment if none is loaded. Called on the hot path by a caller that already holds a valid
     * ID, so it never throws: a loader that refuses work is reported to the caller that runs out instead.
     */
    private void preload() {
        if (readyBlocks < prefetchDepth) {
            startLoad();
        }
    }

    /**
     * @return false when the loader refused the load (it is shut down); true when a load runs now
     */
    private boolean startLoad() {
        if (loading.compareAndSet(false, true)) {
            loadRequestedAt = timeSource.nanoTime();
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
            Duration timeout = exhausted == null
                    ? max(settings.firstLoadTimeout(), settings.awaitTimeout())
                    : settings.awaitTimeout();
            long deadline = System.nanoTime() + timeout.toNanos();
            long loadsAtStart = completedLoads;
            boolean counted = false;
            for (; ; ) {
                if (current != exhausted) {
                    return;
                }
                String lostData = refusedForGood;
                if (lostData != null) {
                    refusing = true;
                    throw new StoreUnavailableException("No IDs left for '" + name + "': " + lostData);
                }
                SegmentRange following = ready.poll();
                if (following != null) {
                    switchTo(exhausted, following);
                    return;
                }
                if (denial != null
                        && (completedLoads > loadsAtStart || timeSource.nanoTime() - deniedAt < DENIAL_HOLD_NANOS)) {
                    // Refused since we came, or so recently that asking again would only repeat the question.
                    throw denied();
                }
                if (completedLoads > loadsAtStart && lastFailure != null) {
                    // Fail fast: a load finished since we came and it failed.
                    refusing = true;
                    throw new StoreUnavailableException(
                            "No IDs left for '" + name + "' and the segment store failed: " + lastFailure.getMessage(),
                            lastFailure);
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
                    throw new IdGenerationException(
                            "Interrupted while waiting for the next segment of '" + name + "'", e);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Makes {@code following}, just taken from the ready blocks, current. Under the lock. */
    private void switchTo(SegmentRange exhausted, SegmentRange following) {
        following.servedBefore = exhausted == null ? 0 : exhausted.servedBefore + exhausted.size();
        long now = timeSource.nanoTime();
        if (exhausted != null) {
            estimate.blockUsedUp(exhausted.size(), now);
        } else {
            estimate.blockStarted(now);
        }
        current = following;
        readyBlocks = ready.size();
        readyIds -= following.size();
        if (readyBlocks < prefetchDepth - 1) {
            // More than one block short: the preload threshold of the new current block would come too
            // late. (One short is the double buffer's normal state, which that threshold refills.)
            startLoad();
        }
    }

    /**
     * The slow path of the {@code try...} methods, for a caller that must not park: switches to the next ready block
     * if the lock is free and one is ready. Otherwise it starts a load if none runs and leaves the wait, with its
     * timeout and failure reports, to the blocking call the caller hands over to ({@link #switchOrAwait}), which also
     * counts it as a wait if it still has to.
     *
     * @return true when {@code exhausted} is no longer current (switched here or by another caller): try again;
     *         false when the caller would have to wait, for a load or for the lock
     * @throws StoreUnavailableException when the name is refused for good
     * @throws IdGenerationException when the loader is shut down
     */
    private boolean trySwitch(SegmentRange exhausted) {
        if (!lock.tryLock()) {
            // Held briefly by a switch or a load's bookkeeping; waiting for it is the blocking call's to do.
            return current != exhausted;
        }
        try {
            if (current != exhausted) {
                return true;
            }
            String lostData = refusedForGood;
            if (lostData != null) {
                refusing = true;
                throw new StoreUnavailableException("No IDs left for '" + name + "': " + lostData);
            }
            SegmentRange following = ready.poll();
            if (following != null) {
                switchTo(exhausted, following);
                return true;
            }
            if (denial != null && timeSource.nanoTime() - deniedAt < DENIAL_HOLD_NANOS) {
                return false; // the blocking call reports the denial
            }
            if (!startLoad()) {
                refusing = true;
                throw new IdGenerationException("No IDs left for '" + name + "': the segment loader is shut down");
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void load() {
        int wanted;
        int depthForLoad;
        int readyBlocksForLoad;
        long highestAllocatedForLoad;
        lock.lock();
        try {
            wanted = prefetchDepth - ready.size();
            depthForLoad = prefetchDepth;
            readyBlocksForLoad = ready.size();
            highestAllocatedForLoad = highestAllocated;
            if (refusedForGood != null || current != null && wanted <= 0) {
                // Refused for good (no load may move the store on), or a preload that lost a race with a load which
                // already filled the ready blocks: nothing to do. Decided and the flag cleared under the lock: a
                // caller that runs out takes the lock, so it either finds a ready block or finds no load running
                // and starts one. (Decided outside it, a caller could use up the blocks seen here and then wait,
                // with no load coming, for the whole await timeout.)
                loading.set(false);
                return;
            }
        } finally {
            lock.unlock();
        }
        // A name's first load fetches one block: nothing is known yet about its rate. Past the double buffer a load
        // fills up to twice the depth. It starts where it did, so callers are as safe, but the store is asked once
        // per several blocks instead of once per block: each request (a transaction, a server's HTTP request) takes
        // CPU from the callers, and at 100 M IDs a second in blocks of 1,000,000 there would be a hundred a second.
        int blocks =
                current == null ? 1 : Math.max(1, Math.min(MAX_DEPTH, batchDepth(depthForLoad) - readyBlocksForLoad));
        long size = nextStep();
        long started = System.nanoTime();
        Segment segment = null;
        Throwable failure = null;
        try {
            if (!startFloorRead) {
                // Before the name's first block: IDs handed out before this store (another store, a table's
                // auto-increment column) count as served, so the store moves past them and a block at or below them
                // is refused below like any block that goes back. A floor that cannot be read fails the load.
                long above = startFloor.above(name);
                lock.lock();
                try {
                    highestAllocated = Math.max(highestAllocated, above);
                    highestAllocatedForLoad = highestAllocated;
                } finally {
                    lock.unlock();
                }
                startFloorRead = true;
            }
            // Above every ID this instance served for the name: a store that went back (a database promoted from a
            // replica that lagged) moves past them instead of handing them out again.
            segment = store.allocateAbove(name, size * blocks, highestAllocatedForLoad);
            if (segment == null) {
                throw new StoreUnavailableException("The segment store returned no segment for '" + name + "'");
            }
        } catch (Throwable t) {
            failure = t;
        }
        if (failure instanceof PermissionDeniedException refused) {
            // The store answered, and said no: neither a fetch that brought IDs nor a failed one, and no retry.
            lock.lock();
            try {
                denial = refused;
                deniedAt = timeSource.nanoTime();
                completedLoads++;
                loading.set(false);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            return;
        }
        long took = System.nanoTime() - started;
        fetchNanos.addAndGet(took);
        if (failure != null) {
            failedFetchNanos.addAndGet(took);
        }
        fetches.incrementAndGet();
        boolean retry;
        boolean more = false;
        lock.lock();
        try {
            String refusal = null;
            if (failure == null && segment.last() > MAX_ID) {
                // Cursors run past a range's end by up to one claim per caller; near 2^63 that would wrap negative.
                refusal = "the segment store handed out [" + segment.first() + ", " + segment.last() + "] for '" + name
                        + "': IDs this close to 2^63 are refused";
            } else if (failure == null && segment.first() <= highestAllocated) {
                refusal = "the segment store handed out [" + segment.first() + ", " + segment.last() + "] for '"
                        + name + "', which does not follow the previous segment's end " + highestAllocated
                        + ": it may have lost data, so no IDs are issued for this name until the store is repaired"
                        + " and the instance restarted";
            }
            if (refusal != null) {
                // For good: a store that went back and does not pass the floor it was given (a database store does,
                // and jumps past what other instances may have taken) would move on until a block passes this
                // instance's own highest, yet other instances may have served above it. Only a person can tell the
                // store is right.
                refusedForGood = refusal;
                failure = new StoreUnavailableException(refusal);
            }
            if (failure == null) {
                highestAllocated = segment.last();
                // Split what the store returned, not what was asked for: a store that hands out less (or more)
                // than blocks x size must not make a block reach past its segment, into IDs it does not own.
                for (int i = 0; i < blocks; i++) {
                    long first = segment.first() + i * size;
                    if (first > segment.last()) {
                        break;
                    }
                    long last = i == blocks - 1 ? segment.last() : Math.min(segment.last(), first + size - 1);
                    SegmentRange range = new SegmentRange(new Segment(first, last), settings.preloadThreshold());
                    if (current == null) {
                        current = range;
                        estimate.blockStarted(timeSource.nanoTime());
                    } else {
                        ready.add(range);
                        readyIds += range.size();
                    }
                }
                readyBlocks = ready.size();
                prefetchDepth = estimate.loadReady(loadRequestedAt, timeSource.nanoTime(), size);
                more = readyBlocks < prefetchDepth - 1;
                lastLoadMillis = timeSource.currentTimeMillis();
                lastFailure = null;
                denial = null;
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
            retry = failure != null && ready.isEmpty() && refusedForGood == null;
        } finally {
            lock.unlock();
        }
        if (more) {
            // The depth grew while this load ran, more than the next preload threshold can make up in time.
            startLoad();
        }
        // One pending retry per name at most: loads that callers start meanwhile do not add more.
        if (retry && retryPending.compareAndSet(false, true)) {
            long delay = Math.min(MAX_RETRY_DELAY_MILLIS, 100L << Math.min(6, consecutiveFailures));
            try {
                loader.schedule(
                        () -> {
                            retryPending.set(false);
                            preload();
                        },
                        delay,
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException ignored) {
                retryPending.set(false); // shutting down
            }
        }
    }

    /**
     * @return how many blocks a load fills the ready blocks up to: the depth itself at 1 (the double buffer), twice
     *         it beyond, so at most {@link #MAX_READY}
     */
    static int batchDepth(int depth) {
        return depth <= 1 ? depth : 2 * depth;
    }

    /**
     * How long a caller that runs out after the store denied the name gets that denial again without a new request:
     * a caller in a loop asks the store at most once a second per name.
     */
    static final long DENIAL_HOLD_NANOS = 1_000_000_000L;

    /** @return the latest denial, for this caller. Under the lock. */
    private PermissionDeniedException denied() {
        return new PermissionDeniedException(denial.name() == null ? name : denial.name(), denial.getMessage(), denial);
    }

    private static Duration max(Duration a, Duration b) {
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
        Throwable failure = lastFailure;
        return new SegmentBufferStats(
                name,
                range == null ? 0 : range.remaining(),
                readyIds,
                step,
                served(),
                fetches.get(),
                fetchFailures.get(),
                fetchNanos.get(),
                failedFetchNanos.get(),
                waits.sum(),
                ratePerSecond,
                loading.get(),
                failure == null ? null : String.valueOf(failure.getMessage()),
                refusing,
                lastLoadMillis);
    }
}
