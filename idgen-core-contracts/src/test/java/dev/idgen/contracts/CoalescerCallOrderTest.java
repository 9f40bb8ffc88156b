package dev.idgen.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.coalesce.AsyncRangeCoalescer;
import dev.idgen.core.coalesce.BatchCoalescer;
import dev.idgen.core.coalesce.RangeCoalescer;
import dev.idgen.test.CallOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coalescers keep idgen's order guarantee, checked by {@link CallOrder} on recorded calls: sixteen threads share
 * round trips, every value goes to one call, and a call that started after another returned gets a larger value.
 * Here, not in idgen-core's own tests, because {@link CallOrder} lives in idgen-test, which depends on idgen-core;
 * these tests use the coalescers' public API only. idgen-core's {@code BatchCoalescerTest} and
 * {@code RangeCoalescerTest} cover the rest (batch limits, failures, giving up, interrupts, deadlines).
 */
class CoalescerCallOrderTest {

    private static final int THREADS = 16;

    private static final int PER_THREAD = 2_000;

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** A counter in a "store": takes {@code n} values per round trip, returning the first; records each n. */
    private static final class Counter {
        final AtomicLong value = new AtomicLong();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();

        long take(int n) {
            sizes.add(n);
            // A round trip takes a little while, so callers pile up behind it.
            LockSupport.parkNanos(20_000);
            return value.getAndAdd(n) + 1;
        }
    }

    /** What one round trip of a batch coalescer took: {@code n} labels from {@code first}, to show the shape is free. */
    private record Labels(long first, int n) {
        String label(int index) {
            assertThat(index).isBetween(0, n - 1);
            return "L" + (first + index);
        }
    }

    @Test
    void concurrentCallersOfABatchCoalescerEachGetAShareOfTheirOwnAndALaterCallGetsALaterOne() throws Exception {
        Counter counter = new Counter();
        BatchCoalescer<Labels> coalescer = new BatchCoalescer<>(
                n -> new Labels(counter.take(n), n), 1024, Duration.ofSeconds(60), "the test store");
        List<CallOrder.Call> calls = sixteenThreads(
                () -> Long.parseLong(coalescer.next(Labels::label).substring(1)));
        assertThat(calls.stream().mapToLong(CallOrder.Call::id).sorted().toArray())
                .as("every share handed out once")
                .containsExactly(LongStream.rangeClosed(1, total()).toArray());
        assertThat(coalescer.roundTrips()).as("round trips").isLessThan(total()).isEqualTo(counter.sizes.size());
        assertInOrder(calls);
    }

    @Test
    void concurrentCallersOfARangeCoalescerShareRoundTripsAndALaterCallGetsALargerValue() throws Exception {
        Counter counter = new Counter();
        RangeCoalescer coalescer =
                new RangeCoalescer(n -> counter.take(n) + n - 1, 1024, 1, Duration.ofSeconds(60), "the test counter");
        List<CallOrder.Call> calls = sixteenThreads(coalescer::next);
        assertRangeServed(calls, counter, coalescer.roundTrips());
    }

    @Test
    void concurrentCallersOfAnAsyncRangeCoalescerShareRoundTripsCompletedElsewhereAndALaterCallGetsALargerValue()
            throws Exception {
        Counter counter = new Counter();
        // Round trips run and complete on a thread of the "store client", as on Lettuce's event loop.
        ExecutorService io = Executors.newSingleThreadExecutor();
        try {
            AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(
                    n -> CompletableFuture.supplyAsync(() -> counter.take(n) + n - 1, io),
                    1024,
                    Duration.ofSeconds(60),
                    "the test counter");
            List<CallOrder.Call> calls = sixteenThreads(coalescer::nextBlocking);
            assertRangeServed(calls, counter, coalescer.roundTrips());
        } finally {
            io.shutdownNow();
        }
    }

    @Test
    void withSeveralRoundTripsInFlightNoMoreRunAtOnceAndALaterCallStillGetsALargerValue() throws Exception {
        Counter counter = new Counter();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        RangeCoalescer coalescer = new RangeCoalescer(
                (int n, long deadline) -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        return counter.take(n) + n - 1;
                    } finally {
                        running.decrementAndGet();
                    }
                },
                1024,
                4,
                1,
                Duration.ofSeconds(60),
                "the test counter");
        List<CallOrder.Call> calls = sixteenThreads(coalescer::next);
        assertRangeServed(calls, counter, coalescer.roundTrips());
        assertThat(most.get()).as("round trips in flight at once").isBetween(2, 4);
    }

    private static int total() {
        return THREADS * PER_THREAD;
    }

    private List<CallOrder.Call> sixteenThreads(LongSupplier call) throws Exception {
        List<Future<List<CallOrder.Call>>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            futures.add(executor.submit(() -> {
                List<CallOrder.Call> calls = new ArrayList<>(PER_THREAD);
                for (int i = 0; i < PER_THREAD; i++) {
                    long start = System.nanoTime();
                    long value = call.getAsLong();
                    calls.add(new CallOrder.Call(start, System.nanoTime(), value));
                }
                return calls;
            }));
        }
        List<CallOrder.Call> calls = new ArrayList<>();
        for (Future<List<CallOrder.Call>> future : futures) {
            calls.addAll(future.get(120, TimeUnit.SECONDS));
        }
        return calls;
    }

    private static void assertRangeServed(List<CallOrder.Call> calls, Counter counter, long roundTrips) {
        assertThat(calls.stream().mapToLong(CallOrder.Call::id).sorted().toArray())
                .as("every value from 1 to the counter's end, once")
                .containsExactly(LongStream.rangeClosed(1, total()).toArray());
        assertThat(counter.value.get())
                .as("nothing taken that was not handed out")
                .isEqualTo(total());
        assertThat(roundTrips).as("round trips").isLessThan(total()).isEqualTo(counter.sizes.size());
        assertInOrder(calls);
    }

    /**
     * Order: for every call, each call that returned before it started got a smaller value. Each thread calls one
     * after another, so every call but a thread's first starts after a call returned: with fewer checked, the order
     * check would have passed on calls it never compared.
     */
    private static void assertInOrder(List<CallOrder.Call> calls) {
        int checked = CallOrder.assertLaterCallsGetLargerIds(calls);
        assertThat(checked)
                .as("calls that started after another had returned")
                .isGreaterThanOrEqualTo(total() - THREADS);
    }
}
