package dev.idgen.spring.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.test.StepVerifier;

/**
 * {@link ReactiveIdService#ids(String)} takes IDs only on demand, in batches of what is requested (at most
 * {@link IdService#MAX_BATCH_SIZE}), one batch at a time, and stays correct when requests and cancels come from many
 * threads while batches complete on others. Over a counting service in memory (the stream's logic, not a store's, is
 * under test here); the BlockHound tests run it over the real strategies.
 */
class IdFluxTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final ExecutorService completing = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        completing.shutdownNow();
    }

    /** Counts from 1; each batch's size is recorded. Completes at once, or on another thread when asked to. */
    static final class CountingIdService implements IdService {

        final AtomicLong next = new AtomicLong(1);
        final List<Integer> batches = new CopyOnWriteArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        private final Executor completion;
        volatile RuntimeException failure;

        CountingIdService(Executor completion) {
            this.completion = completion;
        }

        @Override
        public String strategy() {
            return "counting";
        }

        @Override
        public long nextId(String name) {
            return nextIds(name, 1)[0];
        }

        @Override
        public long[] nextIds(String name, int count) {
            long first = next.getAndAdd(count);
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = first + i;
            }
            return ids;
        }

        @Override
        public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
            batches.add(count);
            int now = inFlight.incrementAndGet();
            mostInFlight.accumulateAndGet(now, Math::max);
            if (failure != null) {
                inFlight.decrementAndGet();
                return CompletableFuture.failedFuture(failure);
            }
            if (completion == null) {
                long[] ids = nextIds(name, count);
                inFlight.decrementAndGet();
                return CompletableFuture.completedFuture(ids);
            }
            return CompletableFuture.supplyAsync(
                    () -> {
                        long[] ids = nextIds(name, count);
                        inFlight.decrementAndGet();
                        return ids;
                    },
                    completion);
        }

        @Override
        public DecodedId decode(long id) {
            throw new UnsupportedOperationException();
        }

        long taken() {
            return next.get() - 1;
        }
    }

    private static void awaitNoBatchInFlight(CountingIdService ids) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (ids.inFlight.get() != 0) {
            assertThat(System.nanoTime()).as("the batch in flight completed").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static ReactiveIdService reactive(IdService ids) {
        return new DefaultReactiveIdService(ids, Runnable::run);
    }

    @Test
    void takesExactlyWhatIsRequestedOneBatchPerRequest() {
        CountingIdService ids = new CountingIdService(null);
        StepVerifier.create(reactive(ids).ids("orders"), 0)
                .expectSubscription()
                .then(() -> assertThat(ids.batches)
                        .as("nothing taken before a request")
                        .isEmpty())
                .thenRequest(3)
                .expectNext(1L, 2L, 3L)
                .thenRequest(2)
                .expectNext(4L, 5L)
                .thenCancel()
                .verify(DEADLINE);
        assertThat(ids.batches).containsExactly(3, 2);
        assertThat(ids.taken()).isEqualTo(5);
    }

    @Test
    void aLargeRequestIsTakenInBatchesOfAtMostTheLargestBatch() {
        CountingIdService ids = new CountingIdService(completing);
        StepVerifier.create(reactive(ids).ids("orders").take(25_000, true), 0)
                .thenRequest(25_000)
                .expectNextCount(25_000)
                .expectComplete()
                .verify(DEADLINE);
        assertThat(ids.batches).containsExactly(10_000, 10_000, 5_000);
        assertThat(ids.mostInFlight.get()).as("one batch at a time").isEqualTo(1);
    }

    @Test
    void anUnboundedDemandOverAnInMemoryGeneratorLoopsInsteadOfRecursing() {
        CountingIdService ids = new CountingIdService(null);
        AtomicLong received = new AtomicLong();
        AtomicLong last = new AtomicLong();
        reactive(ids).ids("orders").subscribe(new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                request(Long.MAX_VALUE);
            }

            @Override
            protected void hookOnNext(Long id) {
                assertThat(id).isEqualTo(last.get() + 1);
                last.set(id);
                if (received.incrementAndGet() == 1_000_000) {
                    cancel();
                }
            }
        });
        assertThat(received.get()).isEqualTo(1_000_000);
        assertThat(ids.taken()).as("at most the rest of one batch unused").isLessThanOrEqualTo(1_000_000);
    }

    @Test
    void requestsFromManyThreadsWhileBatchesCompleteOnOthersGetEveryIdOnceAndInOrder() throws Exception {
        CountingIdService ids = new CountingIdService(completing);
        int threads = 8;
        int requestsPerThread = 2_000;
        List<Long> received = new ArrayList<>();
        CountDownLatch all = new CountDownLatch(threads * requestsPerThread);
        AtomicInteger concurrentOnNext = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        BaseSubscriber<Long> subscriber = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                // Demand comes from the threads below only.
            }

            @Override
            protected void hookOnNext(Long id) {
                if (concurrentOnNext.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                received.add(id);
                concurrentOnNext.decrementAndGet();
                all.countDown();
            }
        };
        reactive(ids).ids("orders").subscribe(subscriber);
        ExecutorService requesters = Executors.newFixedThreadPool(threads);
        try {
            for (int t = 0; t < threads; t++) {
                requesters.execute(() -> {
                    for (int i = 0; i < requestsPerThread; i++) {
                        subscriber.request(1);
                    }
                });
            }
            assertThat(all.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        } finally {
            requesters.shutdownNow();
        }
        int total = threads * requestsPerThread;
        assertThat(overlaps.get()).as("onNext calls that overlapped").isZero();
        assertThat(received).hasSize(total);
        for (int i = 0; i < total; i++) {
            assertThat(received.get(i)).isEqualTo(i + 1L);
        }
        assertThat(ids.taken()).as("nothing taken beyond the demand").isEqualTo(total);
        assertThat(ids.mostInFlight.get()).as("one batch at a time").isEqualTo(1);
        subscriber.cancel();
    }

    @Test
    void aCancelWhileBatchesAreInFlightStopsTakingAndWastesAtMostOneBatch() throws Exception {
        CountingIdService ids = new CountingIdService(completing);
        AtomicLong received = new AtomicLong();
        CountDownLatch some = new CountDownLatch(1_000);
        BaseSubscriber<Long> subscriber = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                request(100);
            }

            @Override
            protected void hookOnNext(Long id) {
                received.incrementAndGet();
                some.countDown();
                request(1);
            }
        };
        reactive(ids).ids("orders").subscribe(subscriber);
        assertThat(some.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        subscriber.cancel();
        int batchesAtCancel = ids.batches.size();
        awaitNoBatchInFlight(ids);
        // No request after the cancel may start a batch: one more round on the completing threads would show it.
        CompletableFuture.runAsync(() -> {}, completing).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        awaitNoBatchInFlight(ids);
        long receivedAtEnd = received.get();
        // A drain on a completing thread that looked for a cancel just before it came may still start one batch;
        // every drain after it sees the cancel.
        assertThat(ids.batches.size()).as("batches taken").isBetween(batchesAtCancel, batchesAtCancel + 1);
        assertThat(ids.taken() - receivedAtEnd)
                .as("IDs taken and never emitted")
                .isLessThanOrEqualTo(ids.batches.get(ids.batches.size() - 1));
    }

    @Test
    void aFailedBatchEndsTheStreamWithItsCauseAndABadNameFailsOnSubscribe() {
        CountingIdService ids = new CountingIdService(completing);
        ids.failure = new StoreUnavailableException("the store is down");
        StepVerifier.create(reactive(ids).ids("orders"))
                .expectErrorSatisfies(e -> assertThat(e)
                        .isInstanceOf(StoreUnavailableException.class)
                        .hasMessage("the store is down"))
                .verify(DEADLINE);
        StepVerifier.create(reactive(ids).ids("no spaces"))
                .expectError(InvalidArgumentException.class)
                .verify(DEADLINE);
        assertThat(ids.batches).hasSize(1);
    }

    @Test
    void aRequestOfZeroIsAnError() {
        CountingIdService ids = new CountingIdService(null);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        reactive(ids).ids("orders").subscribe(new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                subscription.request(0); // rule 3.9 of Reactive Streams: an onError, not a throw
            }

            @Override
            protected void hookOnError(Throwable error) {
                errors.add(error);
            }
        });
        assertThat(errors).singleElement().isInstanceOf(IllegalArgumentException.class);
        assertThat(ids.batches).isEmpty();
    }
}
