package dev.idgen.spring.reactive;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.BiConsumer;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The endless stream of {@link ReactiveIdService#ids(String)}: one {@code nextIdsAsync} at a time, of at most what
 * the subscriber has requested and not yet received, so that no ID is taken before it is wanted and a cancel wastes at
 * most the rest of one batch.
 */
final class IdFlux extends Flux<Long> {

    private final IdService ids;
    private final String name;
    private final Executor blocking;

    IdFlux(IdService ids, String name, Executor blocking) {
        this.ids = ids;
        this.name = name;
        this.blocking = blocking;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Long> actual) {
        try {
            IdArguments.checkName(name);
        } catch (RuntimeException e) {
            Operators.error(actual, e);
            return;
        }
        actual.onSubscribe(new IdSubscription(actual, ids, name, blocking));
    }

    /**
     * A queue-drain loop: whoever moves {@link #wip} from 0 emits; request, cancel and a batch's arrival, from any
     * thread, only record what happened and ask for a drain. A batch that completes on the draining thread itself (an
     * in-memory generator) is picked up by the same loop instead of a nested call, so an unbounded demand does not
     * grow the stack.
     */
    static final class IdSubscription implements Subscription, BiConsumer<long[], Throwable> {

        private static final AtomicLongFieldUpdater<IdSubscription> REQUESTED =
                AtomicLongFieldUpdater.newUpdater(IdSubscription.class, "requested");
        private static final AtomicIntegerFieldUpdater<IdSubscription> WIP =
                AtomicIntegerFieldUpdater.newUpdater(IdSubscription.class, "wip");

        private final CoreSubscriber<? super Long> actual;
        private final IdService ids;
        private final String name;
        private final Executor blocking;

        private volatile long requested;
        private volatile int wip;
        private volatile boolean cancelled;
        private volatile long[] arrived;
        private volatile Throwable failure;

        // Touched only by the thread that holds wip.
        private long[] batch;
        private int index;
        private boolean fetching;

        IdSubscription(CoreSubscriber<? super Long> actual, IdService ids, String name, Executor blocking) {
            this.actual = actual;
            this.ids = ids;
            this.name = name;
            this.blocking = blocking;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                failure = Exceptions.nullOrNegativeRequestException(n);
            } else {
                Operators.addCap(REQUESTED, this, n);
            }
            drain();
        }

        @Override
        public void cancel() {
            // The batch in flight is not cancelled: its IDs become gaps, as any ID taken and not used.
            cancelled = true;
            drain();
        }

        /** A batch arrived, or failed. */
        @Override
        public void accept(long[] batch, Throwable error) {
            if (error != null) {
                failure = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            } else {
                arrived = batch;
            }
            drain();
        }

        private void drain() {
            if (WIP.getAndIncrement(this) != 0) {
                return;
            }
            int missed = 1;
            for (; ; ) {
                if (cancelled) {
                    batch = null;
                    arrived = null;
                    return;
                }
                Throwable error = failure;
                if (error != null) {
                    cancelled = true;
                    batch = null;
                    actual.onError(error);
                    return;
                }
                if (batch == null) {
                    long[] next = arrived;
                    if (next != null) {
                        arrived = null;
                        batch = next;
                        index = 0;
                        fetching = false;
                    }
                }
                long[] current = batch;
                if (current != null) {
                    long wanted = requested;
                    long emitted = 0;
                    int i = index;
                    while (emitted != wanted && i < current.length) {
                        if (cancelled) {
                            batch = null;
                            return;
                        }
                        actual.onNext(current[i++]);
                        emitted++;
                    }
                    index = i;
                    if (i == current.length) {
                        batch = null;
                    }
                    if (emitted != 0 && wanted != Long.MAX_VALUE) {
                        REQUESTED.addAndGet(this, -emitted);
                    }
                }
                if (batch == null && !fetching && !cancelled) {
                    long wanted = requested;
                    if (wanted > 0) {
                        fetching = true;
                        int count = (int) Math.min(wanted, IdService.MAX_BATCH_SIZE);
                        CompletableFuture<long[]> next;
                        try {
                            next = ids.nextIdsAsync(name, count, blocking);
                        } catch (RuntimeException e) {
                            failure = e;
                            continue;
                        }
                        // Completes here at once for an in-memory generator: accept() then only bumps wip.
                        next.whenComplete(this);
                    }
                }
                missed = WIP.addAndGet(this, -missed);
                if (missed == 0) {
                    return;
                }
            }
        }
    }
}
