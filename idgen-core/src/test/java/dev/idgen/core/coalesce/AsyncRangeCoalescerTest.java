package dev.idgen.core.coalesce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AsyncRangeCoalescerTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /**
     * A counter in a "store" whose round trips complete on an I/O thread of its own, in the order they were sent;
     * records each {@code n} and how many round trips were in flight at once.
     */
    private static final class Store implements AsyncRangeCoalescer.AsyncRangeSource {
        final AtomicLong value = new AtomicLong();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        final BlockingQueue<Runnable> requests = new LinkedBlockingQueue<>();
        volatile boolean answering = true;
        volatile RuntimeException failure;
        final Thread io;

        Store() {
            io = new Thread(
                    () -> {
                        try {
                            while (true) {
                                requests.take().run();
                            }
                        } catch (InterruptedException e) {
                            // stopped
                        }
                    },
                    "store-io");
            io.setDaemon(true);
            io.start();
        }

        @Override
        public CompletableFuture<Long> take(int n) {
            sizes.add(n);
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Long> answer = new CompletableFuture<>();
            requests.add(() -> {
                while (!answering) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                inFlight.decrementAndGet();
                RuntimeException fail = failure;
                if (fail != null) {
                    answer.completeExceptionally(fail);
                } else {
                    answer.complete(value.addAndGet(n));
                }
            });
            return answer;
        }

        void stop() {
            io.interrupt();
        }
    }

    private static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.sleep(1);
        }
    }

    @Test
    void blockingAndAsyncCallersShareRoundTripsWithEveryValueOnceAndOneRoundTripInFlight() throws Exception {
        Store store = new Store();
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(store, 64, Duration.ofSeconds(30), "the test store");
        int threads = 8;
        int perThread = 5_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            boolean blocking = t % 2 == 0;
            results.add(executor.submit(() -> {
                start.await();
                long[] values = new long[perThread];
                for (int i = 0; i < perThread; i++) {
                    values[i] = blocking
                            ? coalescer.nextBlocking()
                            : coalescer.next().get(30, TimeUnit.SECONDS);
                }
                return values;
            }));
        }
        start.countDown();
        List<Long> all = new ArrayList<>();
        for (Future<long[]> result : results) {
            long previous = 0;
            for (long value : result.get(2, TimeUnit.MINUTES)) {
                // One thread's calls follow one another: each started after the one before returned.
                assertThat(value).as("a later call of one thread").isGreaterThan(previous);
                previous = value;
                all.add(value);
            }
        }
        assertThat(all).doesNotHaveDuplicates().hasSize(threads * perThread);
        assertThat(store.value.get()).as("values taken from the store").isEqualTo((long) threads * perThread);
        assertThat(store.mostInFlight.get()).as("round trips in flight at once").isEqualTo(1);
        assertThat(store.sizes).allSatisfy(n -> assertThat(n).isBetween(1, 64));
        assertThat(coalescer.roundTrips()).as("round trips").isLessThan((long) threads * perThread);
        store.stop();
    }

    @Test
    void theOldestCallerGetsTheLowestValueAndALaterCallALargerOne() throws Exception {
        Store store = new Store();
        store.answering = false;
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(store, 1024, Duration.ofSeconds(30), "the test store");
        CompletableFuture<Long> first = coalescer.next();
        until(() -> store.sizes.size() == 1, "the first round trip");
        List<CompletableFuture<Long>> queued = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queued.add(coalescer.next());
        }
        assertThat(coalescer.queued()).isEqualTo(10);
        store.answering = true;
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        for (int i = 0; i < queued.size(); i++) {
            assertThat(queued.get(i).get(30, TimeUnit.SECONDS))
                    .as("queued caller %d", i)
                    .isEqualTo(2 + i);
        }
        assertThat(store.sizes).containsExactly(1, 10);
        assertThat(coalescer.next().get(30, TimeUnit.SECONDS)).isEqualTo(12);
        store.stop();
    }

    @Test
    void aBlockingCallerStillQueuedGivesUpAfterTheMaximumWaitAndTakesNoValue() throws Exception {
        Store store = new Store();
        store.answering = false;
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(store, 1024, Duration.ofMillis(200), "the test store");
        CompletableFuture<Long> inFlight = coalescer.next();
        until(() -> store.sizes.size() == 1, "the first round trip");
        long started = System.nanoTime();
        assertThatThrownBy(coalescer::nextBlocking)
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("No round trip to the test store took this call within PT0.2S");
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        store.answering = true;
        assertThat(inFlight.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        // The caller that gave up was in no round trip: the next call takes the next value.
        assertThat(coalescer.next().get(30, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(store.sizes).containsExactly(1, 1);
        store.stop();
    }

    @Test
    void aFailedRoundTripFailsItsCallersAndTheQueueBehindItIsServedByTheNext() throws Exception {
        Store store = new Store();
        store.answering = false;
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(store, 1024, Duration.ofSeconds(30), "the test store");
        CompletableFuture<Long> failing = coalescer.next();
        until(() -> store.sizes.size() == 1, "the first round trip");
        store.failure = new IllegalStateException("store down");
        CompletableFuture<Long> behind = coalescer.next();
        until(() -> coalescer.queued() == 1, "a caller queued behind it");
        store.answering = true;
        assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        // The next round trip was sent for the queued caller as the first completed; it fails the same way.
        assertThatThrownBy(() -> behind.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        store.failure = null;
        assertThat(coalescer.nextBlocking()).isEqualTo(1);
        store.stop();
    }

    @Test
    void anInterruptedBlockingCallerGivesUpWithAnIdGenerationException() throws Exception {
        Store store = new Store();
        store.answering = false;
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(store, 1024, Duration.ofSeconds(60), "the test store");
        AtomicLong thrownAfter = new AtomicLong();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread caller = new Thread(() -> {
            long started = System.nanoTime();
            try {
                coalescer.nextBlocking();
            } catch (IdGenerationException e) {
                interruptKept.set(Thread.currentThread().isInterrupted());
                thrownAfter.set(System.nanoTime() - started);
            }
        });
        caller.start();
        until(() -> store.sizes.size() == 1, "the caller's round trip");
        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(thrownAfter.get()).as("the interrupted caller returned").isPositive();
        assertThat(interruptKept.get()).as("its interrupt kept").isTrue();
        store.answering = true;
        // Its value was taken and is a gap; the counter goes on.
        assertThat(coalescer.next().get(30, TimeUnit.SECONDS)).isEqualTo(2);
        store.stop();
    }

    @Test
    void roundTripsThatFailAtOnceAreSentInALoopNotARecursionAndTheCoalescerWorksOnAfterwards() throws Exception {
        // After a first round trip that the test completes, the source fails before it sends anything, 300,000 times,
        // as a client does while disconnected; eight callers call again from their failure handlers (a retry), on the
        // thread that hands the failure out. Sent by recursion, each failed round trip would nest one call deeper
        // until the stack overflows, leaving the callers unanswered and the flag taken.
        CompletableFuture<Long> firstAnswer = new CompletableFuture<>();
        AtomicInteger calls = new AtomicInteger();
        AtomicLong value = new AtomicLong();
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(
                n -> {
                    int call = calls.incrementAndGet();
                    if (call == 1) {
                        return firstAnswer;
                    }
                    return call <= 300_001
                            ? CompletableFuture.failedFuture(new IllegalStateException("not connected"))
                            : CompletableFuture.completedFuture(value.addAndGet(n));
                },
                1024,
                Duration.ofSeconds(30),
                "the test store");
        CompletableFuture<Long> first = coalescer.next();
        List<CompletableFuture<Long>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            CompletableFuture<Long> result = new CompletableFuture<>();
            retryUntilServed(coalescer, result);
            results.add(result);
        }
        firstAnswer.complete(value.addAndGet(1));
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        List<Long> got = new ArrayList<>();
        for (CompletableFuture<Long> result : results) {
            got.add(result.get(60, TimeUnit.SECONDS));
        }
        assertThat(got).containsExactlyInAnyOrder(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(coalescer.roundTrips()).isGreaterThan(300_001);
        assertThat(coalescer.nextBlocking()).isEqualTo(10);
    }

    /** Calls until served, calling again from the failure handler, as a reactive retry does. */
    private static void retryUntilServed(AsyncRangeCoalescer coalescer, CompletableFuture<Long> result) {
        coalescer.next().whenComplete((id, failure) -> {
            if (failure == null) {
                result.complete(id);
            } else if (!(failure instanceof IllegalStateException)) {
                result.completeExceptionally(failure);
            } else {
                retryUntilServed(coalescer, result);
            }
        });
    }

    @Test
    void anAsyncCallerStillQueuedAfterTheMaximumWaitFailsWhenTheNextRoundTripIsSentAndTakesNoValue() throws Exception {
        Store store = new Store();
        store.answering = false;
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(store, 1024, Duration.ofMillis(200), "the test store");
        CompletableFuture<Long> inFlight = coalescer.next();
        until(() -> store.sizes.size() == 1, "the first round trip");
        CompletableFuture<Long> queued = coalescer.next();
        long queuedAt = System.nanoTime();
        until(() -> System.nanoTime() - queuedAt > TimeUnit.MILLISECONDS.toNanos(300), "the maximum wait to pass");
        store.answering = true;
        assertThat(inFlight.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThatThrownBy(() -> queued.get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("No round trip to the test store took this call within PT0.2S");
        // It took no value, and no round trip was sent for it alone.
        assertThat(coalescer.next().get(30, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(store.sizes).containsExactly(1, 1);
        store.stop();
    }

    @Test
    void withSeveralRoundTripsInFlightOverAStoreThatRunsThemInOrderEveryValueIsHandedOutOnceAndInOrder()
            throws Exception {
        Store store = new Store();
        AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(
                store, 64, 3, Duration.ofSeconds(30), Duration.ofSeconds(120), "the test store");
        int threads = 8;
        int perThread = 4_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            boolean blocking = t % 2 == 0;
            results.add(executor.submit(() -> {
                start.await();
                long[] values = new long[perThread];
                for (int i = 0; i < perThread; i++) {
                    values[i] = blocking
                            ? coalescer.nextBlocking()
                            : coalescer.next().get(30, TimeUnit.SECONDS);
                }
                return values;
            }));
        }
        start.countDown();
        List<Long> all = new ArrayList<>();
        for (Future<long[]> result : results) {
            long previous = 0;
            for (long value : result.get(2, TimeUnit.MINUTES)) {
                assertThat(value).as("a later call of one thread").isGreaterThan(previous);
                previous = value;
                all.add(value);
            }
        }
        assertThat(all).doesNotHaveDuplicates().hasSize(threads * perThread);
        assertThat(store.value.get()).as("values taken from the store").isEqualTo((long) threads * perThread);
        assertThat(store.mostInFlight.get()).as("round trips in flight at once").isBetween(2, 3);
        store.stop();
    }
}
