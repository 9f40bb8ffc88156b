package dev.idgen.core.snowflake;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.spi.StaticWorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLease;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

// Padding keeps the contended state word on a cache line of its own (the JCTools idiom): the JVM lays out superclass
// fields first, so the state sits between two runs of 8 unused longs.
abstract class SnowflakeStatePadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

abstract class SnowflakeStateField extends SnowflakeStatePadBefore {
    /** The last issued ID: {@code tick << (workerBits + sequenceBits) | workerId << sequenceBits | sequence}. */
    volatile long state;
}

abstract class SnowflakeStatePadAfter extends SnowflakeStateField {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A lock-free Snowflake generator for one worker id.
 *
 * <p>Guarantees, for as long as no other live generator holds the same worker id:
 * <ul>
 * <li>no ID is issued twice, and IDs strictly increase in the order callers obtain them (so on each thread);</li>
 * <li>no ID carries a timestamp earlier than one already used, nor (with {@code maxBorrow} ticks of borrowing) more
 * than {@code maxBorrow} ticks ahead of the clock;</li>
 * <li>a clock that moves backwards by at most {@code clockBackwardsTolerance} is waited out; further, calls throw
 * {@link ClockBackwardsException} until the clock catches up;</li>
 * <li>when a tick's sequence runs out, callers wait for the next tick: they spin for at most about a millisecond,
 * then park, so a core is never burnt for long.</li>
 * </ul>
 *
 * <p>The first sequence of a tick continues from the previous tick's last sequence, modulo a small spread
 * ({@code 2^min(10, sequenceBits - 4)}), so that at low traffic {@code id % shards} stays even instead of always
 * landing on sequence 0; under full load a tick still starts at 0 and keeps its full capacity.
 *
 * <p>A new generator starts as if its predecessor had used the current tick (plus any borrowable ticks) to the end,
 * so the first ID waits for the next tick: a generator recreated within one tick cannot repeat its predecessor's IDs.
 *
 * <p><b>Changing worker id.</b> The worker id is part of the state word, so the hot path stays one compare-and-set.
 * When a leased worker id is lost for good ({@link WorkerIdLease#whenLost}), a thread of the generator's own acquires
 * a fresh lease from the same assigner, retrying until it gets one, and installs it: the state moves, in one
 * compare-and-set, to the new worker id at a tick at or after both the fence a loss sets (see {@code floorTick}) and
 * the new id's last used timestamp; its first ID takes the tick after. Every caller that read the old state then fails
 * its compare-and-set and starts over; the new lease is published only after the state, so a caller that read the old
 * state can never pass the new lease's check with it. Until then calls throw {@link dev.idgen.core.LeaseLostException}.
 * IDs keep increasing across the change.
 *
 * <p><b>Why one class.</b> Its parts are the claim loop ({@code next}), the clock rules (waiting out a short step
 * back, refusing a long one, borrowing ticks) and the worker id change above; the builder and the getters for health
 * and meters are the rest. All three parts move the one state word, and their correctness rests on orderings between
 * them: the change publishes the state before the lease, the claim loop checks the lease after reading the state, and
 * the clock rules read the tick the change may have moved. Split into classes, each would need the others' fields and
 * the ordering would be stated in none of them; in one class it is stated once, here, and {@code
 * SnowflakeWorkerIdChangeTest} (JCStress) checks it. The lease work off the hot path (acquiring a new lease on its own
 * thread) is already delegated to the {@link WorkerIdAssigner}.
 */
public final class SnowflakeGenerator extends SnowflakeStatePadAfter implements AutoCloseable {

    /** The longest a caller may be asked to wait out a backwards clock. */
    public static final Duration MAX_CLOCK_BACKWARDS_TOLERANCE = Duration.ofSeconds(10);

    /**
     * How far, in milliseconds, a generator may run ahead of the clock at most. A restarted generator starts
     * {@code maxBorrow} ticks ahead, so it cannot repeat a predecessor with the same or a lower setting; keeping every
     * setting within one second also covers a predecessor that borrowed more, since a process restart takes longer.
     */
    public static final long MAX_BORROW_MILLIS = 1000;

    /**
     * What {@link #tryNextId()} returns when the next ID needs a wait. Never an ID: IDs are at least 0, and in
     * practice positive.
     */
    public static final long WOULD_WAIT = -1;

    /** The default tolerance for a clock that moves backwards. */
    public static final Duration DEFAULT_CLOCK_BACKWARDS_TOLERANCE = Duration.ofMillis(5);

    private static final System.Logger LOG = System.getLogger(SnowflakeGenerator.class.getName());

    private static final Duration LIFETIME_WARNING = Duration.ofDays(3653);

    /**
     * How long a wait spins before it parks. A park costs ~70 us to wake from and, on the virtual machines measured,
     * now and then over 1 ms, which loses a whole millisecond tick; so a wait for the next millisecond spins, and
     * only longer waits (second ticks, a clock being waited out) park.
     */
    private static final long SPIN_NANOS = 1_100_000;

    private static final long PARK_NANOS = 50_000;

    /** The state after {@link #close()}: negative, so no compare-and-set from it can issue an ID. */
    private static final long CLOSED = -1;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SnowflakeStateField.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SnowflakeLayout layout;
    private final TimeSource timeSource;
    private final WorkerIdAssigner workerIdAssigner;
    /** The lease IDs are issued under; replaced (after the state) only when a lost lease is re-acquired. */
    private volatile WorkerIdLease lease;

    private final Object leaseLock = new Object();
    private final long epochMillis;
    private final long tickMillis;
    private final int timestampShift;
    private final long workerMask;
    private final long sequenceMask;
    private final long spreadMask;
    private final long maxTick;
    private final long maxBorrow;
    private final long toleranceMillis;
    private final LongAdder clockBackwardsEvents = new LongAdder();
    private final LongAdder sequenceOverflowWaits = new LongAdder();
    private final LongAdder workerIdChanges = new LongAdder();
    /**
     * The state installed at start-up or with a new worker id: its tick counts as used up, so the first caller waits
     * for the next tick, and that wait is not a sequence overflow.
     */
    private volatile long installedState;
    /** The state the latest loss fenced the generator at; guarded by {@link #leaseLock}. */
    private long fenceState = -1;
    /** The thread acquiring a new worker id after a loss, if any; close() wakes it. */
    private volatile Thread reacquirer;
    /** The state as {@link #close()} found it; meaningful once {@code state} is {@link #CLOSED}. */
    private volatile long stateAtClose;

    private SnowflakeGenerator(Builder builder) {
        this.layout = builder.layout;
        this.timeSource = builder.timeSource;
        this.workerIdAssigner = builder.workerIdAssigner;
        this.maxBorrow = builder.maxBorrow;
        this.toleranceMillis = builder.clockBackwardsTolerance.toMillis();
        this.epochMillis = layout.epoch().toEpochMilli();
        this.tickMillis = layout.tickUnit().millis();
        this.timestampShift = layout.workerBits() + layout.sequenceBits();
        this.sequenceMask = layout.maxSequence();
        this.workerMask = layout.maxWorkerId() << layout.sequenceBits();
        this.spreadMask = (1L << Math.min(10, Math.max(0, layout.sequenceBits() - 4))) - 1;
        this.maxTick = layout.maxTick();

        long nowMillis = timeSource.currentTimeMillis();
        if (epochMillis > nowMillis) {
            throw new InvalidArgumentException(
                    "epoch",
                    layout.epoch(),
                    "epoch must not be in the future, but was " + layout.epoch() + " (now "
                            + Instant.ofEpochMilli(nowMillis) + ")");
        }
        Duration remaining = layout.remainingLifetime(nowMillis);
        if (remaining.isNegative() || remaining.isZero()) {
            throw new LayoutExhaustedException("The Snowflake layout is used up: its " + layout.timestampBits()
                    + " timestamp bits of " + layout.tickUnit().name().toLowerCase() + " from epoch " + layout.epoch()
                    + " ran out at " + layout.exhaustedAt() + "; choose a later epoch or more timestamp bits");
        }
        if (remaining.compareTo(LIFETIME_WARNING) < 0) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "The Snowflake layout " + layout + " runs out at " + layout.exhaustedAt() + ", in "
                            + remaining.toDays() + " days: plan a later epoch or more timestamp bits");
        }

        WorkerIdLease first = workerIdAssigner.acquire(layout.maxWorkerId());
        checkWorkerId(first);
        this.lease = first;
        long start = startState(first, tickAt(nowMillis) + maxBorrow);
        installedState = start;
        STATE.setVolatile(this, start);
        first.whenLost(() -> reacquireAfterLosing(first));
    }

    /**
     * @return a builder with the standard layout, worker id 0, the system clock, no borrowing and a 5 ms tolerance
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The next ID.
     *
     * @return a positive ID, greater than every ID this generator issued before
     * @throws ClockBackwardsException when the clock is behind the last used timestamp by more than the tolerance
     * @throws LayoutExhaustedException when the layout's timestamp bits are used up
     * @throws dev.idgen.core.LeaseLostException when the worker id lease may have expired unrenewed
     * @throws IdGenerationException when the generator is closed, or the caller is interrupted while waiting
     */
    public long nextId() {
        return next(true);
    }

    /**
     * The next ID if it can be issued without waiting: as {@link #nextId()}, except that where that would wait (the
     * tick's sequence is used up, or the clock is being waited out within the tolerance) this returns
     * {@link #WOULD_WAIT} at once, issuing nothing, for a caller that must not park its thread (an event loop) to hand
     * the call to one that may. Such a return is not counted as a wait: the {@link #nextId()} that follows counts it
     * if it still has to wait.
     *
     * @return a positive ID, greater than every ID this generator issued before; or {@link #WOULD_WAIT}
     * @throws ClockBackwardsException when the clock is behind the last used timestamp by more than the tolerance
     * @throws LayoutExhaustedException when the layout's timestamp bits are used up
     * @throws dev.idgen.core.LeaseLostException when the worker id lease may have expired unrenewed
     * @throws IdGenerationException when the generator is closed
     */
    public long tryNextId() {
        return next(false);
    }

    private long next(boolean mayWait) {
        for (; ; ) {
            // State before clock: a caller that sees another's newer tick also reads a clock at least as late as
            // the one that tick came from, so a caller merely paused between the two reads is not taken for a clock
            // that moved backwards.
            long current = (long) STATE.getVolatile(this);
            if (current == CLOSED) {
                throw new IdGenerationException("The Snowflake generator for worker " + workerId() + " is closed");
            }
            long nowMillis = timeSource.currentTimeMillis();
            // After the clock read: an ID is only issued with a timestamp read while the lease was still valid, even
            // if this thread is frozen (SIGSTOP, a long pause) between here and the compare-and-set below. A lease
            // is valid over one unbroken interval, so being valid now means it was when the clock was read.
            WorkerIdLease checked = lease;
            if (!checked.isValid()) {
                if (lease != checked) {
                    continue; // a new worker id was installed meanwhile: start over with its state
                }
                checked.checkValid();
            }
            long now = tickAt(nowMillis);
            long last = current >>> timestampShift;
            long next;
            if (now > last) {
                if (now > maxTick) {
                    throw exhausted();
                }
                // (current + 1) carries out of a full sequence into zeros, so a saturated tick hands 0 to the next.
                next = (now << timestampShift) | (current & workerMask) | ((current + 1) & spreadMask);
            } else if (last - now > maxBorrow) {
                if (!mayWait) {
                    checkClockWithinTolerance(nowMillis, last - maxBorrow, false);
                    return WOULD_WAIT;
                }
                awaitClockCatchUp(nowMillis, last - maxBorrow);
                continue;
            } else if ((current & sequenceMask) < sequenceMask) {
                next = current + 1;
            } else if (last - now < maxBorrow) {
                if (last >= maxTick) {
                    throw exhausted();
                }
                next = ((last + 1) << timestampShift) | (current & workerMask);
            } else {
                if (!mayWait) {
                    return WOULD_WAIT;
                }
                if (current != installedState) {
                    sequenceOverflowWaits.increment();
                }
                awaitTick(last + 1 - maxBorrow);
                continue;
            }
            // The CAS is the only write to state besides fencing a lost lease and installing a new worker id (see
            // floorTick), both under the lease lock. next > current on every path, so between those the state
            // strictly increases and each value is won by exactly one caller.
            // Its volatile semantics order it after the reads above.
            if (STATE.compareAndSet(this, current, next)) {
                return next;
            }
        }
    }

    /**
     * @param id an ID issued under this generator's layout
     * @return its timestamp, worker id and sequence
     * @throws InvalidArgumentException when {@code id} is not positive or has bits above the layout
     */
    public SnowflakeDecodedId decode(long id) {
        return SnowflakeDecodedId.decode(layout, id);
    }

    public SnowflakeLayout layout() {
        return layout;
    }

    /**
     * @return the worker id IDs are issued under now; it changes only when a lost lease is replaced
     */
    public long workerId() {
        return (liveState() & workerMask) >>> layout.sequenceBits();
    }

    /**
     * @return how many times a lost worker id lease was replaced by a fresh one
     */
    public long workerIdChanges() {
        return workerIdChanges.sum();
    }

    /**
     * @return the start of the newest tick in use, in milliseconds since the Unix epoch
     */
    public long lastTimestampMillis() {
        return epochMillis + (liveState() >>> timestampShift) * tickMillis;
    }

    /**
     * How far the clock is now behind the newest tick in use, beyond what borrowing explains. More than the
     * tolerance means {@link #nextId()} throws {@link ClockBackwardsException} until the clock catches up.
     *
     * @return milliseconds behind, 0 when the clock is fine
     */
    public long clockBehindMillis() {
        long required = (liveState() >>> timestampShift) - maxBorrow;
        return Math.max(0, epochMillis + required * tickMillis - timeSource.currentTimeMillis());
    }

    /**
     * @return whether {@link #nextId()} can issue IDs now as far as the clock is concerned
     */
    public boolean isClockHealthy() {
        return clockBehindMillis() <= toleranceMillis;
    }

    /**
     * @return the worker id lease this generator issues under now
     */
    public WorkerIdLease lease() {
        return lease;
    }

    /**
     * @return whether {@link #close()} was called; a closed generator issues no more IDs
     */
    public boolean isClosed() {
        return (long) STATE.getVolatile(this) == CLOSED;
    }

    /**
     * @return the time left before the layout runs out
     */
    public Duration remainingLifetime() {
        return layout.remainingLifetime(timeSource.currentTimeMillis());
    }

    /**
     * @return how many times a caller found the clock behind the newest tick in use (waited out or thrown)
     */
    public long clockBackwardsEvents() {
        return clockBackwardsEvents.sum();
    }

    /**
     * @return how many times a caller waited because a tick's sequence was used up
     */
    public long sequenceOverflowWaits() {
        return sequenceOverflowWaits.sum();
    }

    public Duration clockBackwardsTolerance() {
        return Duration.ofMillis(toleranceMillis);
    }

    public long maxBorrow() {
        return maxBorrow;
    }

    /**
     * Stops issuing IDs, records the newest timestamp in use on the worker id lease and releases it.
     */
    @Override
    public void close() {
        // Swapping in CLOSED makes every in-flight compare-and-set fail, so nothing is issued after the newest tick
        // recorded here, even by a caller that was already waiting inside nextId().
        // Under the lease lock, so a new worker id being installed at the same time is either installed before
        // (and released here) or sees CLOSED and releases its lease itself.
        synchronized (leaseLock) {
            long last;
            do {
                last = (long) STATE.getVolatile(this);
                if (last == CLOSED) {
                    return;
                }
                // Before the swap, so that whoever sees CLOSED also sees the state it replaced.
                stateAtClose = last;
            } while (!STATE.compareAndSet(this, last, CLOSED));
            Thread reacquiring = reacquirer;
            if (reacquiring != null) {
                // Woken, not interrupted: it sees the generator closed between attempts, and a store call it is
                // making runs to its end (an interrupted Redis client refuses the release that must follow).
                LockSupport.unpark(reacquiring);
            }
            WorkerIdLease current = lease;
            try {
                current.recordTimestamp(lastMillisOf(last));
            } finally {
                current.close();
            }
        }
    }

    @Override
    public String toString() {
        return "SnowflakeGenerator[workerId=" + workerId() + ", layout=" + layout + "]";
    }

    private void checkWorkerId(WorkerIdLease candidate) {
        long id = candidate.workerId();
        if (id < 0 || id > layout.maxWorkerId()) {
            candidate.close();
            throw new InvalidArgumentException(
                    "workerId",
                    id,
                    "workerId must be between 0 and " + layout.maxWorkerId()
                            + " for this layout's worker bits, but was " + id);
        }
    }

    /**
     * The state a lease starts from: its tick at or after {@code minTick} and after the worker id's last used
     * timestamp, with the sequence at its maximum, so that tick counts as used up and the first ID takes a later one.
     */
    private long startState(WorkerIdLease candidate, long minTick) {
        long predecessorTick = candidate.lastUsedTimestamp().isPresent()
                ? tickAt(candidate.lastUsedTimestamp().getAsLong())
                : -1;
        long startTick = Math.min(maxTick, Math.max(minTick, predecessorTick));
        return (startTick << timestampShift) | (candidate.workerId() << layout.sequenceBits()) | sequenceMask;
    }

    /** The last millisecond of the tick in {@code state}. */
    private long lastMillisOf(long state) {
        return epochMillis + ((state >>> timestampShift) + 1) * tickMillis - 1;
    }

    /**
     * Runs once per lost lease: on a thread of its own, acquires a fresh worker id from the assigner until one is
     * granted or the generator is closed, and installs it. The lost lease is released first (the store ignores it
     * when another instance holds the id), keeping the newest timestamp in use for the id's next holder.
     */
    private void reacquireAfterLosing(WorkerIdLease lost) {
        Thread thread = new Thread(
                () -> {
                    long lostWorkerId = lost.workerId();
                    synchronized (leaseLock) {
                        // Fence: move the state to the end of a tick at or after every timestamp a caller may still
                        // hold
                        // (the clock plus borrowing), so a caller that passed the lease check before the loss and is
                        // still
                        // on its way fails its compare-and-set, and the recorded timestamp is exact for the next
                        // holder.
                        long current;
                        long fence = CLOSED;
                        do {
                            current = (long) STATE.getVolatile(this);
                            if (current == CLOSED) {
                                break;
                            }
                            long tick = Math.min(
                                    maxTick,
                                    Math.max(
                                            current >>> timestampShift,
                                            tickAt(timeSource.currentTimeMillis()) + maxBorrow));
                            fence = Math.max(current, (tick << timestampShift) | (current & workerMask) | sequenceMask);
                            if (fence == current && tick < maxTick) {
                                // The state must change, or a caller that passed the lease check before the loss could
                                // still win its compare-and-set (with a clock that stepped back meanwhile).
                                fence = ((tick + 1) << timestampShift) | (current & workerMask) | sequenceMask;
                            }
                        } while (!STATE.compareAndSet(this, current, fence));
                        if (current != CLOSED) {
                            fenceState = fence;
                            lost.recordTimestamp(lastMillisOf(fence));
                        }
                    }
                    lost.close();
                    long backoffMillis = 100;
                    while (!isClosed()) {
                        try {
                            WorkerIdLease fresh = workerIdAssigner.acquire(layout.maxWorkerId());
                            checkWorkerId(fresh);
                            if (install(fresh)) {
                                LOG.log(
                                        System.Logger.Level.INFO,
                                        "Issuing IDs again, under worker id " + fresh.workerId() + " (worker id "
                                                + lostWorkerId + " was lost): " + fresh);
                            }
                            return;
                        } catch (RuntimeException e) {
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "Could not acquire a new worker id after losing worker id " + lostWorkerId + " ("
                                            + e.getMessage() + "); retrying in " + backoffMillis + " ms");
                        }
                        LockSupport.parkNanos(backoffMillis * 1_000_000L);
                        backoffMillis = Math.min(5_000, backoffMillis * 2);
                    }
                },
                "idgen-reacquire-worker-id");
        thread.setDaemon(true);
        synchronized (leaseLock) {
            if (isClosed()) {
                return;
            }
            reacquirer = thread;
            thread.start();
        }
    }

    /** @return whether {@code fresh} is now in use; false (and released) when the generator closed meanwhile */
    private boolean install(WorkerIdLease fresh) {
        synchronized (leaseLock) {
            long current = (long) STATE.getVolatile(this);
            if (current == CLOSED) {
                fresh.close();
                return false;
            }
            long minTick = Math.max(tickAt(timeSource.currentTimeMillis()) + maxBorrow, floorTick(current));
            long next = startState(fresh, minTick);
            installedState = next;
            // Callers race with this CAS only by their own CASes, which fail once it succeeds; close() holds the
            // lock. The state first, the lease second: a caller that still sees the old lease throws, and one that
            // read the old state fails its CAS whatever lease it sees.
            while (!STATE.compareAndSet(this, current, next)) {
                current = (long) STATE.getVolatile(this);
                minTick = Math.max(minTick, floorTick(current));
                next = startState(fresh, minTick);
                installedState = next;
            }
            lease = fresh;
            workerIdChanges.increment();
        }
        fresh.whenLost(() -> reacquireAfterLosing(fresh));
        return true;
    }

    /**
     * The lowest tick a new worker id's start state may take over {@code current}. Its first ID comes at the tick
     * after (the start state's sequence is full), so IDs keep increasing across the change either way. Over a state
     * that issued IDs: the tick after it. Over the fence of a lost lease, which issued none and already sits at the
     * borrowing limit: the fence's own tick, so the new worker id does not start a tick ahead of the borrowing limit,
     * which callers would take for a clock gone backwards (and refuse, with a tolerance of 0). That start state may be
     * numerically below the fence (a lower worker id in the same tick). No caller can act on that: every caller that
     * read a state before the fence fails its compare-and-set, and one that read the fence finds the lost lease
     * invalid, or a new lease and starts over. Even a state value coming back (the fenced worker id leased again
     * within the same tick) only lets a caller issue an ID above that state, under a lease held now.
     */
    private long floorTick(long current) {
        long tick = current >>> timestampShift;
        return current == fenceState ? tick : tick + 1;
    }

    private long liveState() {
        long current = (long) STATE.getVolatile(this);
        return current == CLOSED ? stateAtClose : current;
    }

    private long tickAt(long epochMillis) {
        long delta = epochMillis - this.epochMillis;
        return tickMillis == 1 ? delta : Math.floorDiv(delta, tickMillis);
    }

    private void awaitClockCatchUp(long nowMillis, long requiredTick) {
        checkClockWithinTolerance(nowMillis, requiredTick, true);
        awaitTick(requiredTick);
    }

    /**
     * @param counted whether a clock found behind within the tolerance counts as an event here (it is waited out);
     *        one found beyond it always counts, as it is refused here
     */
    private void checkClockWithinTolerance(long nowMillis, long requiredTick, boolean counted) {
        long behind = epochMillis + requiredTick * tickMillis - nowMillis;
        if (counted || behind > toleranceMillis) {
            clockBackwardsEvents.increment();
        }
        if (behind > toleranceMillis) {
            throw new ClockBackwardsException(
                    "The clock moved backwards: it is " + behind
                            + " ms behind the newest timestamp in use (" + Instant.ofEpochMilli(nowMillis + behind)
                            + "), more than the tolerance of " + toleranceMillis + " ms; worker " + workerId()
                            + " refuses to issue IDs until the clock catches up",
                    behind);
        }
    }

    private void awaitTick(long tick) {
        long targetMillis = epochMillis + tick * tickMillis;
        long spinDeadline = System.nanoTime() + SPIN_NANOS;
        for (; ; ) {
            long remaining = targetMillis - timeSource.currentTimeMillis();
            if (remaining <= 0) {
                return;
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IdGenerationException("Interrupted while waiting for the clock to reach the next tick");
            }
            if (remaining > 2) {
                // Whole milliseconds away (second ticks, or a clock being waited out): sleep most of it.
                LockSupport.parkNanos((remaining - 1) * 1_000_000L);
            } else if (System.nanoTime() - spinDeadline < 0) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
    }

    private LayoutExhaustedException exhausted() {
        return new LayoutExhaustedException("The Snowflake layout ran out at " + layout.exhaustedAt() + ": its "
                + layout.timestampBits() + " timestamp bits are used up; choose a later epoch or more timestamp bits");
    }

    /**
     * Builds a {@link SnowflakeGenerator}.
     */
    public static final class Builder {

        private SnowflakeLayout layout = SnowflakeLayout.standard();
        private WorkerIdAssigner workerIdAssigner = new StaticWorkerIdAssigner(0);
        private TimeSource timeSource = TimeSource.system();
        private long maxBorrow;
        private Duration clockBackwardsTolerance = DEFAULT_CLOCK_BACKWARDS_TOLERANCE;

        private Builder() {}

        public Builder layout(SnowflakeLayout layout) {
            this.layout = layout;
            return this;
        }

        /**
         * @param workerId a fixed worker id, from 0 to the layout's {@link SnowflakeLayout#maxWorkerId()}
         * @return this builder
         */
        public Builder workerId(long workerId) {
            this.workerIdAssigner = new StaticWorkerIdAssigner(workerId);
            return this;
        }

        public Builder workerIdAssigner(WorkerIdAssigner workerIdAssigner) {
            this.workerIdAssigner = workerIdAssigner;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @param maxBorrow how many ticks the generator may run ahead of the clock when a tick's sequence is used
         *        up, from 0 (never, the default) to one second's worth (1000 millisecond ticks, 1 second tick)
         * @return this builder
         */
        public Builder maxBorrow(long maxBorrow) {
            this.maxBorrow = maxBorrow;
            return this;
        }

        /**
         * @param clockBackwardsTolerance how far back the clock may step and be waited out, from 0 to 10 seconds
         * @return this builder
         */
        public Builder clockBackwardsTolerance(Duration clockBackwardsTolerance) {
            this.clockBackwardsTolerance = clockBackwardsTolerance;
            return this;
        }

        /**
         * Checks the settings, acquires a worker id and builds the generator.
         *
         * @return the generator
         * @throws InvalidArgumentException naming the first setting that breaks its rule
         * @throws LayoutExhaustedException when the layout is already used up
         */
        public SnowflakeGenerator build() {
            if (layout == null) {
                throw new InvalidArgumentException("layout", null, "layout must be set");
            }
            if (workerIdAssigner == null) {
                throw new InvalidArgumentException("workerIdAssigner", null, "workerIdAssigner must be set");
            }
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            long maxBorrowTicks = MAX_BORROW_MILLIS / layout.tickUnit().millis();
            if (maxBorrow < 0 || maxBorrow > maxBorrowTicks) {
                throw new InvalidArgumentException(
                        "maxBorrow",
                        maxBorrow,
                        "maxBorrow must be between 0 and " + maxBorrowTicks + " ticks (one second), but was "
                                + maxBorrow);
            }
            if (clockBackwardsTolerance == null
                    || clockBackwardsTolerance.isNegative()
                    || clockBackwardsTolerance.compareTo(MAX_CLOCK_BACKWARDS_TOLERANCE) > 0) {
                throw new InvalidArgumentException(
                        "clockBackwardsTolerance",
                        clockBackwardsTolerance,
                        "clockBackwardsTolerance must be between 0 and 10s, but was " + clockBackwardsTolerance);
            }
            return new SnowflakeGenerator(this);
        }
    }
}
