package dev.idgen.core.coalesce;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Combines concurrent callers of one store into one round trip: callers that arrive while a round trip is in flight
 * queue up, and when it returns, one of them takes the whole queue's worth in the next round trip: a <em>batch</em> of
 * {@code n} values of any shape, from which each caller turns its share (the batch and its index in it, the oldest
 * caller the lowest index) into its value on its own thread. {@link RangeCoalescer} is the batch of a counter (one
 * {@code INCRBY n}, one {@code UPDATE … + n}); readable IDs take {@code n} sequences of a bucket, and each caller
 * formats its own ID.
 *
 * <p><b>Invariants.</b>
 * <ul>
 * <li>At most {@code maxInFlight} round trips per coalescer are in flight ({@link #inFlight}; one unless the
 * constructor says otherwise); each runs on a caller's own thread (no hand-off to another thread), so a lone caller
 * pays two uncontended lock operations over the bare round trip. A caller that finds fewer in flight starts one at
 * once; the others queue.</li>
 * <li>A round trip serves only callers that were queued before it started. So a call that starts after another call
 * returned is served by a round trip that started after that call's had returned, and gets a larger value (the
 * store's counter only moves forward): the order of the plain one-call-one-round-trip path holds, however many round
 * trips are in flight. (Round trips in flight together serve calls that overlap in time, which may get their values
 * in either order.)</li>
 * <li>Each index of a batch goes to exactly one caller. A caller that gives up waiting (its deadline, an interrupt)
 * while still queued leaves the queue, so no share is taken for it; once its round trip has started it waits for it,
 * which the store's own timeout bounds.</li>
 * <li>A round trip that fails fails every caller it was for, with its exception; the queue behind it is served by the
 * next round trip, led by the first of it whose wait has not run out (one whose wait ran out is failed as if it had
 * given up in the queue: it would start a round trip with no time left). Except when it failed because its leading
 * caller was interrupted (the store's wait throws on an interrupt), or because the leader's own time ran out before
 * anything was sent (a leader handed the lead in time but woken after its deadline; a source that throws
 * {@link DeadlinePassedException}): that fails the leader only, and the others, who may still have time, go back to
 * the head of the queue for the next round trip.</li>
 * <li>With a {@link TimedRangeSource}, each round trip is given its leader's deadline: the moment its maximum wait,
 * counted from its call, runs out. The leader is the oldest caller of its round trip, so a source that keeps to the
 * deadline ends every caller's wait within that caller's own maximum wait, queueing included.</li>
 * </ul>
 *
 * <p>Callers that queue allocate one small record each; the lone-caller path allocates only what its source does.
 *
 * <p><b>How many in flight.</b> With one, the callers a round trip served come back while the next one is already
 * under way (it took the callers queued meanwhile), so they wait for it and then one more: callers alternate in two
 * groups, each call waits about two round trips, and a store whose round trips are slow for reasons other than load
 * (a commit's disk flush, network latency) serves about half as many calls as plain calls would. A few round trips in
 * flight let returning callers start the next one sooner, at the cost of smaller batches.
 *
 * @param <B> a batch: what one round trip took, enough for the callers it served
 */
public final class BatchCoalescer<B> {

    /**
     * One round trip to the store.
     *
     * @param <B> the batch
     */
    @FunctionalInterface
    public interface BatchSource<B> {
        /**
         * Takes {@code n} values from the store.
         *
         * @param n how many, from 1 to the coalescer's batch limit
         * @return the values, for indexes {@code 0} to {@code n - 1}
         */
        B take(int n);
    }

    /**
     * One round trip to the store that keeps to a deadline.
     *
     * @param <B> the batch
     */
    @FunctionalInterface
    public interface TimedBatchSource<B> {
        /**
         * Takes {@code n} values from the store in one round trip, giving up by {@code deadline}.
         *
         * @param n how many, from 1 to the coalescer's batch limit
         * @param deadline the {@link System#nanoTime()} by which the round trip should end: the moment its leading
         *        caller's maximum wait runs out, the earliest of its callers' (it may already be close)
         * @return the values, for indexes {@code 0} to {@code n - 1}
         */
        B take(int n, long deadline);
    }

    /**
     * Turns a caller's share of a batch into a {@code long}, on the caller's own thread.
     *
     * @param <B> the batch
     */
    @FunctionalInterface
    public interface LongShare<B> {
        /**
         * @param batch the batch the caller was served from
         * @param index the caller's index in it, from 0 to the batch's {@code n - 1}
         * @return the caller's value
         */
        long value(B batch, int index);
    }

    /**
     * Turns a caller's share of a batch into its value, on the caller's own thread.
     *
     * @param <B> the batch
     * @param <T> the caller's value
     */
    @FunctionalInterface
    public interface Share<B, T> {
        /**
         * @param batch the batch the caller was served from
         * @param index the caller's index in it, from 0 to the batch's {@code n - 1}
         * @return the caller's value
         */
        T value(B batch, int index);
    }

    private static final int WAITING = 0;
    private static final int SERVED = 1;
    private static final int FAILED = 2;
    private static final int LEAD = 3;

    /**
     * A queued caller. {@link #served}, {@link #index}, {@link #failure} and {@link #batch} are written before
     * {@link #state}.
     */
    private static final class Waiter {
        final Thread thread;
        /** When this caller's maximum wait runs out, on {@link System#nanoTime()}. */
        final long deadline;

        Object served;
        int index;
        RuntimeException failure;
        Waiter[] batch;
        int batchSize;
        volatile int state;

        Waiter(Thread thread, long deadline) {
            this.thread = thread;
            this.deadline = deadline;
        }
    }

    private final TimedBatchSource<B> source;
    private final int maxBatch;
    private final long maxWaitNanos;
    private final String what;

    /** Deadlines are on its {@code nanoTime()}: {@link System#nanoTime()} but in tests. */
    private final TimeSource clock;

    private final ReentrantLock lock = new ReentrantLock();
    /** How many round trips are in flight or about to start. Guarded by {@link #lock}. */
    private int inFlight;
    /** The most round trips in flight at once. */
    private final int maxInFlight;
    /** Callers waiting for the next round trip, oldest first. Guarded by {@link #lock}. */
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();

    private final LongAdder roundTrips = new LongAdder();

    /**
     * @param source the round trip
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param maxWait how long a caller waits in the queue before it gives up with a {@link StoreUnavailableException}
     * @param what names the store in errors, e.g. {@code "the readable IDs on Redis at 127.0.0.1:6379"}
     */
    public BatchCoalescer(BatchSource<B> source, int maxBatch, Duration maxWait, String what) {
        this(untimed(source), maxBatch, 1, maxWait, what);
    }

    /**
     * A coalescer whose round trips are each given a deadline, its leading caller's, so that no caller waits longer
     * than {@code maxWait} in all when the source keeps to it, with up to {@code maxInFlight} round trips in flight at
     * once (see the class comment).
     *
     * @param source the round trip, given its deadline
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param maxInFlight the most round trips in flight at once, at least 1
     * @param maxWait how long a caller may wait, queueing and its round trip together; one still queued when it runs
     *        out gives up with a {@link StoreUnavailableException}
     * @param what names the store in errors, e.g. {@code "ticket server db1 for 'orders'"}
     */
    public BatchCoalescer(TimedBatchSource<B> source, int maxBatch, int maxInFlight, Duration maxWait, String what) {
        this(source, maxBatch, maxInFlight, maxWait, what, TimeSource.system());
    }

    /**
     * As above, with the clock that deadlines are read from (tests: a clock of their own).
     */
    BatchCoalescer(
            TimedBatchSource<B> source,
            int maxBatch,
            int maxInFlight,
            Duration maxWait,
            String what,
            TimeSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, but was " + maxInFlight);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, but was " + maxBatch);
        }
        if (maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("maxWait must be positive, but was " + maxWait);
        }
        this.maxInFlight = maxInFlight;
        this.source = Objects.requireNonNull(source, "source");
        this.maxBatch = maxBatch;
        this.maxWaitNanos = maxWait.toNanos();
        this.what = what;
    }

    /**
     * @param share turns this call's share of a batch into its value, on this call's thread
     * @param <T> the value
     * @return the value, from a round trip this call ran or one it shared
     * @throws RuntimeException what the round trip threw, or {@code share}; {@link StoreUnavailableException} when no
     *         round trip took this call within the maximum wait; {@link IdGenerationException} when interrupted while
     *         queued
     */
    public <T> T next(Share<? super B, ? extends T> share) {
        long deadline = clock.nanoTime() + maxWaitNanos;
        Waiter waiter = queueUnlessFree(deadline);
        if (waiter == null) {
            return share.value(lead(deadline, null, 0), 0);
        }
        return share.value(served(waiter), waiter.index);
    }

    /**
     * {@link #next(Share)} for a {@code long} value, without boxing it.
     *
     * @param share turns this call's share of a batch into its value, on this call's thread
     * @return the value, from a round trip this call ran or one it shared
     */
    public long nextLong(LongShare<? super B> share) {
        long deadline = clock.nanoTime() + maxWaitNanos;
        Waiter waiter = queueUnlessFree(deadline);
        if (waiter == null) {
            return share.value(lead(deadline, null, 0), 0);
        }
        return share.value(served(waiter), waiter.index);
    }

    /**
     * @return null when this caller may start a round trip at once; otherwise its place in the queue
     */
    private Waiter queueUnlessFree(long deadline) {
        lock.lock();
        try {
            if (inFlight < maxInFlight) {
                inFlight++;
                return null;
            }
            Waiter waiter = new Waiter(Thread.currentThread(), deadline);
            queue.addLast(waiter);
            return waiter;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for {@code waiter}'s round trip, or runs it when it is handed the lead.
     *
     * @return the batch it was served from; its share is {@code waiter.index}
     */
    private B served(Waiter waiter) {
        int state = await(waiter);
        if (state == SERVED) {
            @SuppressWarnings("unchecked")
            B batch = (B) waiter.served;
            return batch;
        }
        if (state == FAILED) {
            throw waiter.failure;
        }
        waiter.index = 0;
        return lead(waiter.deadline, waiter.batch, waiter.batchSize);
    }

    /**
     * @return how many round trips ran
     */
    public long roundTrips() {
        return roundTrips.sum();
    }

    /**
     * @return how many callers are queued for the next round trip (for tests)
     */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private int await(Waiter waiter) {
        long deadline = waiter.deadline;
        boolean interrupted = false;
        try {
            for (; ; ) {
                int state = waiter.state;
                if (state != WAITING) {
                    return state;
                }
                long remaining = deadline - clock.nanoTime();
                boolean giveUp = remaining <= 0 || Thread.interrupted();
                if (giveUp) {
                    boolean left;
                    lock.lock();
                    try {
                        left = queue.remove(waiter);
                    } finally {
                        lock.unlock();
                    }
                    if (left) {
                        if (remaining > 0) {
                            Thread.currentThread().interrupt();
                            throw new IdGenerationException("Interrupted while waiting for a round trip to " + what);
                        }
                        throw waitedTooLong();
                    }
                    // Already taken into a round trip: wait for it; the store's own timeout bounds it.
                    interrupted |= remaining > 0;
                    while ((state = waiter.state) == WAITING) {
                        LockSupport.park(this);
                        interrupted |= Thread.interrupted();
                    }
                    return state;
                }
                LockSupport.parkNanos(this, remaining);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private StoreUnavailableException waitedTooLong() {
        return new DeadlinePassedException("No round trip to " + what + " took this call within "
                + Duration.ofNanos(maxWaitNanos).toMillis() + " ms: the store answers too slowly for the callers"
                + " queued for it");
    }

    private static <B> TimedBatchSource<B> untimed(BatchSource<B> source) {
        Objects.requireNonNull(source, "source");
        return (n, deadline) -> source.take(n);
    }

    /**
     * Runs one round trip for this caller and {@code batch}, hands the shares out, and passes the lead to the first
     * caller queued meanwhile, if any.
     *
     * @param deadline this caller's deadline, the round trip's
     * @return the batch; this caller's share is index 0
     */
    private B lead(long deadline, Waiter[] batch, int batchSize) {
        int n = batchSize + 1;
        B taken;
        try {
            if (deadline - clock.nanoTime() <= 0) {
                // Handed the lead in time but woken too late (a busy machine): nothing was sent, and the others of
                // the batch may still have time. Fail this caller alone, as if it had given up in the queue.
                throw waitedTooLong();
            }
            taken = source.take(n, deadline);
        } catch (Throwable e) {
            // Throwable, not only unchecked: a source that throws a checked exception sneakily must still pass the
            // lead and fail its batch, or the in-flight count leaks and the batch waits for good.
            if (batchSize > 0
                    && (e instanceof DeadlinePassedException
                            || Thread.currentThread().isInterrupted())) {
                // This caller's time ran out before anything was sent, or it was interrupted (a cancelled request, a
                // pool shutting down), which fails the store's wait: not the store's failure and not the others'
                // business. They were queued before this round trip started, so the next one may serve them in its
                // place, led by the first of them whose wait has not run out.
                requeue(batch, batchSize);
                passLead();
                throw e;
            }
            RuntimeException failure = e instanceof RuntimeException r
                    ? r
                    : new IdGenerationException("The round trip to " + what + " failed: " + e, e);
            passLead();
            for (int i = 0; i < batchSize; i++) {
                Waiter waiter = batch[i];
                waiter.failure = failure;
                waiter.state = FAILED;
                LockSupport.unpark(waiter.thread);
            }
            throw e;
        }
        roundTrips.increment();
        // Pass the lead before waking the batch: the next round trip starts as soon as possible, and only callers
        // queued before it (after this one returned) are in it.
        passLead();
        for (int i = 0; i < batchSize; i++) {
            Waiter waiter = batch[i];
            waiter.served = taken;
            waiter.index = i + 1;
            waiter.state = SERVED;
            LockSupport.unpark(waiter.thread);
        }
        return taken;
    }

    /** Puts the callers of a round trip that did not run back at the head of the queue, in their order. */
    private void requeue(Waiter[] batch, int batchSize) {
        lock.lock();
        try {
            for (int i = batchSize - 1; i >= 0; i--) {
                queue.addFirst(batch[i]);
            }
        } finally {
            lock.unlock();
        }
    }

    private void passLead() {
        Waiter next;
        List<Waiter> expired = null;
        lock.lock();
        try {
            long now = clock.nanoTime();
            // Rarely any: a caller whose wait ran out normally leaves the queue itself.
            while ((next = queue.pollFirst()) != null && next.deadline - now <= 0) {
                if (expired == null) {
                    expired = new ArrayList<>();
                }
                expired.add(next);
            }
            if (next == null) {
                inFlight--;
            } else {
                int size = Math.min(queue.size(), maxBatch - 1);
                if (size > 0) {
                    Waiter[] batch = new Waiter[size];
                    for (int i = 0; i < size; i++) {
                        batch[i] = queue.pollFirst();
                    }
                    next.batch = batch;
                }
                next.batchSize = size;
            }
        } finally {
            lock.unlock();
        }
        if (expired != null) {
            // Each fails as it would have leaving the queue itself; no value was taken for it.
            for (Waiter waiter : expired) {
                waiter.failure = waitedTooLong();
                waiter.state = FAILED;
                LockSupport.unpark(waiter.thread);
            }
        }
        if (next != null) {
            next.state = LEAD;
            LockSupport.unpark(next.thread);
        }
    }
}
