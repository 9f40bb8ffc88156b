package dev.idgen.core.coalesce;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * Combines concurrent callers of one counter into one round trip, like {@link RangeCoalescer}, for a store whose round
 * trips complete on its client's I/O thread: no caller's thread runs a round trip. A caller queues a future; whoever
 * finds no round trip in flight (a caller, or the I/O thread completing the previous one) takes the queue's worth
 * ({@code INCRBY n}) and sends it; when it completes, the I/O thread sends the next round trip for the callers queued
 * meanwhile and hands the range out by completing their futures (in the order that makes the next batch larger: see
 * RoundTrip.handOut). Reactive callers are never parked; blocking
 * callers park on their future only ({@link #nextBlocking()}), and the round trip's cycle no longer waits for a caller
 * thread to be woken and scheduled.
 *
 * <p><b>Invariants</b> (those of {@link BatchCoalescer}, kept differently):
 * <ul>
 * <li>At most {@code maxInFlight} round trips are in flight (one unless the constructor says otherwise): a slot of
 * {@link #inFlight} is taken by compare-and-set before a round trip is sent and given back only when it completed. A
 * caller adds itself to the queue before it tries to take a slot, and the completing thread gives its slot back
 * before it looks at the queue, so a caller is either seen by the completing thread or finds a slot free itself: no
 * caller is left queued with nothing in flight (the usual drain hand-off, relying on the total order of the queue's
 * and the counter's volatile accesses). Several in flight need a store that runs round trips in the order they were
 * sent (one pipelined connection): round trips sent together then overlap with the hand-out of the ones before, so
 * the client's I/O thread and the store work at the same time.</li>
 * <li>A round trip serves only callers queued before it was sent: it takes them from the queue when it is sent. So a
 * call that starts after another call returned is served by a round trip sent after that call's round trip
 * completed, and gets a larger value (the store's counter only moves forward).</li>
 * <li>Each value of a range goes to exactly one caller, the oldest caller the lowest value. A caller that gives up
 * while still queued ({@link Waiter#giveUp()} wins against the round trip's {@link Waiter#take()}) takes no value;
 * once taken, it waits for its round trip, which the store's own timeout bounds. A future cancelled by its subscriber
 * after it was taken leaves its value unused (a gap, never a repeat).</li>
 * <li>A round trip that fails fails every caller it was for, with its exception; callers queued behind it are served
 * by the next round trip.</li>
 * </ul>
 *
 * <p>A call allocates its future and a queue node; a round trip allocates what its source does.
 */
public final class AsyncRangeCoalescer {

    /** One round trip to the store. */
    @FunctionalInterface
    public interface AsyncRangeSource {
        /**
         * Takes {@code n} consecutive values from the store in one round trip, without blocking.
         *
         * @param n how many, from 1 to the coalescer's batch limit
         * @return completes with the last value taken: the values are {@code last - n + 1} to {@code last}; it must
         *         complete (or fail) within the store's own timeout
         */
        CompletableFuture<Long> take(int n);
    }

    /** A caller's future, with whether a round trip took it or it gave up first. */
    static final class Waiter extends CompletableFuture<Long> {
        private static final int QUEUED = 0;
        private static final int TAKEN = 1;
        private static final int GAVE_UP = 2;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Waiter.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused") // through STATE
        private volatile int state;

        /** When the caller queued ({@link System#nanoTime()}). */
        final long queuedAt = System.nanoTime();

        /** @return whether this caller is now the round trip's: false when it gave up first */
        boolean take() {
            return STATE.compareAndSet(this, QUEUED, TAKEN) && !isDone();
        }

        /** @return whether this caller left before a round trip took it: false when one already did */
        boolean giveUp() {
            return STATE.compareAndSet(this, QUEUED, GAVE_UP);
        }
    }

    private final AsyncRangeSource source;
    private final int maxBatch;
    private final Duration maxWait;
    private final long maxWaitNanos;
    private final Duration maxRoundTrip;
    private final String what;
    private final ConcurrentLinkedQueue<Waiter> queue = new ConcurrentLinkedQueue<>();
    /** Round trips in flight, at most {@link #maxInFlight}. */
    private final AtomicInteger inFlight = new AtomicInteger();

    private final int maxInFlight;
    private final LongAdder roundTrips = new LongAdder();

    /**
     * A coalescer whose blocking callers wait at most four times {@code maxWait} for the round trip that took them.
     *
     * @param source the round trip
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param maxWait how long a caller waits in the queue before it gives up with a
     *        {@link StoreUnavailableException}
     * @param what names the counter in errors, e.g. {@code "the Redis counter 'orders'"}
     */
    public AsyncRangeCoalescer(AsyncRangeSource source, int maxBatch, Duration maxWait, String what) {
        this(source, maxBatch, 1, maxWait, maxWait.multipliedBy(4), what);
    }

    /**
     * @param source the round trip
     * @param maxBatch the most callers one round trip serves, at least 1
     * @param maxInFlight the most round trips in flight at once, at least 1: more than one only over a connection
     *        that runs commands in the order they were sent (a pipelined Redis connection), so that a round trip sent
     *        later takes later values
     * @param maxWait how long a caller waits in the queue before it gives up with a
     *        {@link StoreUnavailableException}
     * @param maxRoundTrip how long a blocking caller waits for the round trip that took it: at least the source's own
     *        bound, so that only a source that breaks it fails the call this way
     * @param what names the counter in errors, e.g. {@code "the Redis counter 'orders'"}
     */
    public AsyncRangeCoalescer(
            AsyncRangeSource source,
            int maxBatch,
            int maxInFlight,
            Duration maxWait,
            Duration maxRoundTrip,
            String what) {
        this.source = Objects.requireNonNull(source, "source");
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, but was " + maxBatch);
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, but was " + maxInFlight);
        }
        this.maxInFlight = maxInFlight;
        this.maxBatch = maxBatch;
        this.maxWait = Objects.requireNonNull(maxWait, "maxWait");
        this.maxWaitNanos = maxWait.toNanos();
        this.maxRoundTrip = Objects.requireNonNull(maxRoundTrip, "maxRoundTrip");
        this.what = what;
    }

    /**
     * @return completes with the next value, on the thread that completed its round trip (the store client's I/O
     *         thread), or with what the round trip failed with; a call still queued after the maximum wait fails with
     *         a {@link StoreUnavailableException} when the next round trip is sent (so within the maximum wait plus
     *         one round trip, which the source bounds); stages chained to it must not block
     */
    public CompletableFuture<Long> next() {
        Waiter waiter = new Waiter();
        queue.offer(waiter);
        sendIfIdle();
        return waiter;
    }

    /**
     * {@link #next()} for a blocking caller: parks until the value is there.
     *
     * @return the next value
     * @throws RuntimeException what the round trip failed with; {@link StoreUnavailableException} when no round trip
     *         took this call within the maximum wait, or when the round trip that took it did not come back within
     *         the round trip's maximum (the source broke its bound);
     *         {@link IdGenerationException} when interrupted (a value already taken for the call is a gap)
     */
    public long nextBlocking() {
        Waiter waiter = new Waiter();
        queue.offer(waiter);
        sendIfIdle();
        try {
            try {
                return waiter.get(maxWaitNanos, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (waiter.giveUp()) {
                    throw gaveUp(e);
                }
            }
            // A round trip took this call: its value (or failure) comes within the source's own bound.
            try {
                return waiter.get(maxRoundTrip.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                waiter.cancel(false);
                throw new StoreUnavailableException(
                        "The round trip to " + what + " that took this call did not come back within " + maxRoundTrip,
                        e);
            }
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Taken or not, this caller does not wait any more: a value taken for it is a gap.
            waiter.giveUp();
            waiter.cancel(false);
            throw new IdGenerationException("Interrupted while waiting for " + what, e);
        }
    }

    private StoreUnavailableException gaveUp(Throwable cause) {
        return new StoreUnavailableException(
                "No round trip to " + what + " took this call within " + maxWait
                        + ": the one in flight has not come back",
                cause);
    }

    /**
     * @return how many round trips were sent
     */
    public long roundTrips() {
        return roundTrips.sum();
    }

    /** @return whether a round trip may be sent now: one more is counted in flight */
    private boolean takeSlot() {
        for (int n = inFlight.get(); n < maxInFlight; n = inFlight.get()) {
            if (inFlight.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sends a round trip for the queued callers if none is in flight, and goes on sending while round trips complete
     * at once (a source that fails before it sends anything): a loop, not a recursion, however many fail so.
     */
    private void sendIfIdle() {
        while (!queue.isEmpty() && takeSlot()) {
            Waiter[] batch;
            try {
                batch = takeBatch();
            } catch (Throwable e) {
                inFlight.decrementAndGet();
                throw e;
            }
            if (batch == null) {
                // Everyone queued gave up: give the flag back and look again (a caller may have queued meanwhile).
                inFlight.decrementAndGet();
                continue;
            }
            RoundTrip trip = new RoundTrip(batch);
            roundTrips.increment();
            CompletableFuture<Long> answer;
            try {
                answer = source.take(batch.length);
            } catch (Throwable e) {
                answer = CompletableFuture.failedFuture(e);
            }
            answer.whenComplete(trip);
            if (trip.attached()) {
                // It completes later, on another thread, which then sends the next one.
                return;
            }
            // It completed while being attached: hand it out here and loop for the next.
            trip.handOut(false);
        }
    }

    /**
     * One round trip's callers and what it answered. Its completion hands the values out and sends the next round
     * trip, unless it completed while {@link #sendIfIdle} was still attaching to it: then that loop does it, so that
     * round trips that fail at once do not nest one call deeper each.
     */
    private final class RoundTrip implements BiConsumer<Long, Throwable> {
        private static final int ATTACHING = 0;
        private static final int ATTACHED = 1;
        private static final int COMPLETED_EARLY = 2;

        private final Waiter[] batch;
        private final AtomicInteger state = new AtomicInteger(ATTACHING);
        // Written before the state moves to COMPLETED_EARLY, read after seeing it.
        private Long last;
        private Throwable failure;

        RoundTrip(Waiter[] batch) {
            this.batch = batch;
        }

        @Override
        public void accept(Long answered, Throwable failed) {
            last = answered;
            failure = failed;
            if (state.compareAndSet(ATTACHING, COMPLETED_EARLY)) {
                return;
            }
            handOut(true);
            sendIfIdle();
        }

        /** @return true when the completion will run on its own; false when it already came, for the caller to do */
        boolean attached() {
            return state.compareAndSet(ATTACHING, ATTACHED);
        }

        /**
         * Completes the batch's futures and gives the flag back; the caller then sends the next round trip (inside
         * {@link #sendIfIdle}'s loop, {@code mayCallSend} is false: that loop sends it, without nesting). Callers
         * already queued (blocking callers that arrived meanwhile) get theirs before this batch is woken, which takes
         * a while; with none queued, the flag is held through the hand-out, so that callers whose completion makes
         * them call again at once (a reactive chain, on this thread) queue rather than each sending one of its own.
         */
        void handOut(boolean mayCallSend) {
            boolean released = false;
            try {
                if (mayCallSend && !queue.isEmpty()) {
                    inFlight.decrementAndGet();
                    released = true;
                    sendIfIdle();
                }
            } finally {
                try {
                    complete();
                } finally {
                    if (!released) {
                        inFlight.decrementAndGet();
                    }
                }
            }
        }

        private void complete() {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause()
                        : failure;
                for (Waiter waiter : batch) {
                    waiter.completeExceptionally(cause);
                }
                return;
            }
            long first = last - batch.length + 1;
            for (int i = 0; i < batch.length; i++) {
                batch[i].complete(first + i);
            }
        }
    }

    /**
     * @return the oldest queued callers that still wait, at most {@code maxBatch}; null when there are none. Callers
     *         queued for longer than the maximum wait are failed here instead (they would otherwise wait on for a
     *         store that has not answered), and take no value.
     */
    private Waiter[] takeBatch() {
        Waiter[] batch = null;
        int size = 0;
        long now = System.nanoTime();
        Waiter waiter;
        while (size < maxBatch && (waiter = queue.poll()) != null) {
            if (now - waiter.queuedAt > maxWaitNanos) {
                if (waiter.giveUp()) {
                    waiter.completeExceptionally(gaveUp(null));
                }
                continue;
            }
            if (!waiter.take()) {
                continue;
            }
            if (batch == null) {
                batch = new Waiter[Math.min(maxBatch, 16)];
            } else if (size == batch.length) {
                batch = Arrays.copyOf(batch, Math.min(maxBatch, size * 2));
            }
            batch[size++] = waiter;
        }
        return batch == null ? null : size == batch.length ? batch : Arrays.copyOf(batch, size);
    }

    private static RuntimeException rethrown(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IdGenerationException("The round trip failed: " + cause, cause);
    }

    /** @return how many callers are queued for the next round trip (for tests) */
    int queued() {
        return queue.size();
    }
}
