package dev.idgen.core.coalesce;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link RangeCoalescer} for values that are not one {@code long} each: concurrent callers share one round trip that
 * takes a <em>batch</em> of {@code n} values of any shape, and each caller turns its share (the batch and its index in
 * it) into its value on its own thread. Readable IDs use it: one script takes {@code n} sequences of a bucket, and each
 * caller formats its own ID from the bucket, the millisecond and its sequence.
 *
 * <p>The invariants are {@link RangeCoalescer}'s:
 * <ul>
 * <li>at most one round trip is in flight, on a caller's own thread;</li>
 * <li>a round trip serves only callers that were queued before it started, so a call that starts after another call
 * returned is served by a later round trip;</li>
 * <li>each index of a batch goes to exactly one caller, the oldest caller the lowest index; a caller that gives up
 * while still queued (its deadline, an interrupt) leaves the queue and no share is taken for it;</li>
 * <li>a round trip that fails fails every caller it was for, with its exception, except when it failed because its
 * leading caller was interrupted: that is the leader's own business, so the others go back to the head of the queue
 * and the next round trip serves them.</li>
 * </ul>
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
        Object served;
        int index;
        RuntimeException failure;
        Waiter[] batch;
        int batchSize;
        volatile int state;

        Waiter(Thread thread) {
            this.thread = thread;
        }
    }

    private final BatchSource<B> source;
    private final int maxBatch;
    private final long maxWaitNanos;
    private final String what;

    private final ReentrantLock lock = new ReentrantLock();
    /** Whether a round trip is in flight or about to start. Guarded by {@link #lock}. */
    private boolean inFlight;
    /** Callers waiting for the next round trip, oldest first. Guarded by {@link #lock}. */
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();

    private final java.util.concurrent.atomic.LongAdder roundTrips = new java.util.concurrent.atomic.LongAdder();

    /**
     * @param source the round trip
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param maxWait how long a caller waits in the queue before it gives up with a {@link StoreUnavailableException}
     * @param what names the store in errors, e.g. {@code "the readable IDs on Redis at 127.0.0.1:6379"}
     */
    public BatchCoalescer(BatchSource<B> source, int maxBatch, Duration maxWait, String what) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, but was " + maxBatch);
        }
        if (maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("maxWait must be positive, but was " + maxWait);
        }
        this.source = source;
        this.maxBatch = maxBatch;
        this.maxWaitNanos = maxWait.toNanos();
        this.what = what;
    }

    /**
     * @param share turns this call's share of a batch into its value
     * @param <T> the value
     * @return the value, from a round trip this call ran or one it shared
     * @throws RuntimeException what the round trip threw, or {@code share}; {@link StoreUnavailableException} when no
     *         round trip took this call within the maximum wait; {@link IdGenerationException} when interrupted while
     *         queued
     */
    public <T> T next(Share<? super B, ? extends T> share) {
        Waiter waiter;
        lock.lock();
        try {
            if (!inFlight) {
                inFlight = true;
                waiter = null;
            } else {
                waiter = new Waiter(Thread.currentThread());
                queue.addLast(waiter);
            }
        } finally {
            lock.unlock();
        }
        if (waiter == null) {
            return share.value(lead(null, 0), 0);
        }
        int state = await(waiter);
        if (state == SERVED) {
            @SuppressWarnings("unchecked")
            B batch = (B) waiter.served;
            return share.value(batch, waiter.index);
        }
        if (state == FAILED) {
            throw waiter.failure;
        }
        return share.value(lead(waiter.batch, waiter.batchSize), 0);
    }

    /**
     * @return how many round trips ran (successful ones)
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
        long deadline = System.nanoTime() + maxWaitNanos;
        boolean interrupted = false;
        try {
            for (;;) {
                int state = waiter.state;
                if (state != WAITING) {
                    return state;
                }
                long remaining = deadline - System.nanoTime();
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
                        throw new StoreUnavailableException("No round trip to " + what + " took this call within "
                                + Duration.ofNanos(maxWaitNanos).toMillis() + " ms: the store answers too slowly for"
                                + " the callers queued for it");
                    }
                    // Already taken into a round trip: wait for it; the store's own timeout bounds it. (Should it
                    // make this caller the leader, the leader's interrupt fails no one else: see lead.)
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

    /**
     * Runs one round trip for this caller and {@code batch}, hands the shares out, and passes the lead to the first
     * caller queued meanwhile, if any.
     *
     * @return the batch; this caller's share is index 0
     */
    private B lead(Waiter[] batch, int batchSize) {
        int n = batchSize + 1;
        B taken;
        try {
            taken = source.take(n);
        } catch (RuntimeException | Error e) {
            if (batchSize > 0 && Thread.currentThread().isInterrupted()) {
                // This caller was interrupted (a cancelled request, a pool shutting down): not the store's failure and
                // not the others' business. They were queued before this round trip started, so the next one may
                // serve them in its place.
                requeue(batch, batchSize);
                passLead();
                throw e;
            }
            RuntimeException failure = e instanceof RuntimeException r ? r
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
        lock.lock();
        try {
            next = queue.pollFirst();
            if (next == null) {
                inFlight = false;
                return;
            }
            int size = Math.min(queue.size(), maxBatch - 1);
            Waiter[] batch = null;
            if (size > 0) {
                batch = new Waiter[size];
                for (int i = 0; i < size; i++) {
                    batch[i] = queue.pollFirst();
                }
            }
            next.batch = batch;
            next.batchSize = size;
        } finally {
            lock.unlock();
        }
        next.state = LEAD;
        LockSupport.unpark(next.thread);
    }
}
