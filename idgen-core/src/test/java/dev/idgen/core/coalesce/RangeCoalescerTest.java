package dev.idgen.core.coalesce;

import static dev.idgen.core.coalesce.GatedRoundTrips.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RangeCoalescerTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** A counter in a "store": INCRBY n x stride, returning the new value. */
    private static final class Counter extends GatedRoundTrips implements RangeCoalescer.RangeSource {
        final AtomicLong value = new AtomicLong();
        final long stride;

        Counter(long stride) {
            this.stride = stride;
        }

        @Override
        public long take(int n) {
            roundTrip(n);
            return value.addAndGet(n * stride);
        }
    }

    private static RangeCoalescer coalescer(Counter counter, int maxBatch, Duration maxWait) {
        return new RangeCoalescer(counter, maxBatch, counter.stride, maxWait, "the test counter");
    }

    @Test
    void aLoneCallerMakesOneRoundTripOfOnePerCall() {
        Counter counter = new Counter(1);
        RangeCoalescer coalescer = coalescer(counter, 1024, Duration.ofSeconds(10));
        long[] values = new long[100];
        for (int i = 0; i < values.length; i++) {
            values[i] = coalescer.next();
        }
        assertThat(values).startsWith(1, 2, 3).endsWith(100).isSorted();
        assertThat(counter.sizes).hasSize(100).containsOnly(1);
        assertThat(coalescer.roundTrips()).isEqualTo(100);
    }

    @Test
    void aRangeOfAStridedCounterGoesOutStrideApart() throws Exception {
        Counter counter = new Counter(3);
        RangeCoalescer coalescer = coalescer(counter, 1024, Duration.ofSeconds(60));
        counter.value.set(1);
        List<Future<Long>> values = new ArrayList<>();
        counter.gate = new CountDownLatch(1);
        values.add(executor.submit(coalescer::next));
        until(() -> counter.sizes.size() == 1, "the first round trip");
        for (int i = 0; i < 5; i++) {
            values.add(executor.submit(coalescer::next));
        }
        until(() -> coalescer.queued() == 5, "five callers queued");
        counter.gate.countDown();
        List<Long> got = new ArrayList<>();
        for (Future<Long> value : values) {
            got.add(value.get(60, TimeUnit.SECONDS));
        }
        assertThat(got).containsExactlyInAnyOrder(4L, 7L, 10L, 13L, 16L, 19L);
        assertThat(counter.sizes).containsExactly(1, 5);
    }

    @Test
    void noRoundTripServesMoreCallersThanTheBatchLimit() throws Exception {
        Counter counter = new Counter(1);
        RangeCoalescer coalescer = coalescer(counter, 4, Duration.ofSeconds(60));
        counter.gate = new CountDownLatch(1);
        List<Future<Long>> values = new ArrayList<>();
        values.add(executor.submit(coalescer::next));
        until(() -> counter.sizes.size() == 1, "the first round trip");
        for (int i = 0; i < 9; i++) {
            values.add(executor.submit(coalescer::next));
        }
        until(() -> coalescer.queued() == 9, "nine callers queued");
        counter.gate.countDown();
        List<Long> got = new ArrayList<>();
        for (Future<Long> value : values) {
            got.add(value.get(60, TimeUnit.SECONDS));
        }
        assertThat(got).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(counter.sizes).containsExactly(1, 4, 4, 1);
    }

    @Test
    void aFailedRoundTripFailsTheCallersItWasForAndTheQueueBehindItIsServed() throws Exception {
        Counter counter = new Counter(1);
        RangeCoalescer coalescer = coalescer(counter, 1024, Duration.ofSeconds(60));
        counter.gate = new CountDownLatch(1);
        Future<Long> first = executor.submit(coalescer::next);
        until(() -> counter.sizes.size() == 1, "the first round trip");
        List<Future<Long>> failing = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            failing.add(executor.submit(coalescer::next));
        }
        until(() -> coalescer.queued() == 3, "three callers queued");
        IllegalStateException broken = new IllegalStateException("store went away");
        counter.failAt = 2;
        counter.failure = broken;
        counter.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS))
                .as("the round trip before the failure")
                .isEqualTo(1);
        for (Future<Long> f : failing) {
            assertThatThrownBy(() -> f.get(60, TimeUnit.SECONDS)).hasCause(broken);
        }
        assertThat(counter.sizes).containsExactly(1, 3);
        assertThat(coalescer.next()).as("the next caller, after the failure").isEqualTo(2);
    }

    @Test
    void aCallerThatWaitsTooLongInTheQueueGivesUpAndTakesNoValue() throws Exception {
        Counter counter = new Counter(1);
        RangeCoalescer coalescer = coalescer(counter, 1024, Duration.ofMillis(200));
        counter.gate = new CountDownLatch(1);
        Future<Long> first = executor.submit(coalescer::next);
        until(() -> counter.sizes.size() == 1, "the first round trip");
        CompletableFuture<Long> queued = CompletableFuture.supplyAsync(coalescer::next, executor);
        assertThatThrownBy(() -> queued.get(60, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("No round trip to the test counter took this call within 200 ms");
        assertThat(coalescer.queued()).isZero();
        counter.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        counter.gate = null;
        assertThat(coalescer.next())
                .as("no value was taken for the caller that gave up")
                .isEqualTo(2);
    }

    @Test
    void anInterruptedQueuedCallerLeavesTheQueueWithItsInterruptKept() throws Exception {
        Counter counter = new Counter(1);
        RangeCoalescer coalescer = coalescer(counter, 1024, Duration.ofSeconds(60));
        counter.gate = new CountDownLatch(1);
        Future<Long> first = executor.submit(coalescer::next);
        until(() -> counter.sizes.size() == 1, "the first round trip");
        AtomicInteger interruptKept = new AtomicInteger(-1);
        Thread caller = new Thread(() -> {
            try {
                coalescer.next();
            } catch (dev.idgen.core.IdGenerationException e) {
                interruptKept.set(Thread.currentThread().isInterrupted() ? 1 : 0);
            }
        });
        caller.start();
        until(() -> coalescer.queued() == 1, "the caller queued");
        caller.interrupt();
        caller.join(60_000);
        assertThat(interruptKept).hasValue(1);
        counter.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        counter.gate = null;
        assertThat(coalescer.next()).isEqualTo(2);
    }

    @Test
    void aTimedSourceIsGivenTheDeadlineOfItsRoundTripsOldestCaller() throws Exception {
        Duration maxWait = Duration.ofSeconds(30);
        long maxWaitNanos = maxWait.toNanos();
        AtomicLong value = new AtomicLong();
        List<long[]> trips = new CopyOnWriteArrayList<>(); // {n, deadline}
        CountDownLatch gate = new CountDownLatch(1);
        RangeCoalescer coalescer = new RangeCoalescer(
                (int n, long deadline) -> {
                    trips.add(new long[] {n, deadline});
                    if (trips.size() == 1) {
                        try {
                            gate.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return value.addAndGet(n);
                },
                1024,
                1,
                maxWait,
                "the timed counter");

        long firstStart = System.nanoTime();
        Future<Long> first = executor.submit(coalescer::next);
        until(() -> trips.size() == 1, "the first round trip");
        long firstDeadline = trips.get(0)[1];
        assertThat(firstDeadline - firstStart)
                .as("a lone caller's own deadline")
                .isBetween(maxWaitNanos, maxWaitNanos + (System.nanoTime() - firstStart));

        // Three callers queue one after another; the oldest leads the next round trip, with its own deadline.
        long[] starts = new long[3];
        List<Future<Long>> queued = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int index = i;
            starts[i] = System.nanoTime();
            queued.add(executor.submit(coalescer::next));
            until(() -> coalescer.queued() == index + 1, "caller " + index + " queued");
        }
        long queuedAll = System.nanoTime();
        gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        for (Future<Long> f : queued) {
            assertThat(f.get(60, TimeUnit.SECONDS)).isBetween(2L, 4L);
        }
        assertThat(trips).hasSize(2);
        assertThat(trips.get(1)[0]).isEqualTo(3);
        long deadline = trips.get(1)[1];
        assertThat(deadline)
                .as("the oldest queued caller's deadline")
                .isBetween(starts[0] + maxWaitNanos, starts[1] + maxWaitNanos);
        assertThat(deadline)
                .as("no later than any caller's of the round trip")
                .isLessThanOrEqualTo(queuedAll + maxWaitNanos);
    }

    @Test
    void anInterruptedLeaderFailsAloneAndTheCallersOfItsRoundTripAreServedByTheNext() throws Exception {
        Counter counter = new Counter(1);
        RangeCoalescer coalescer = coalescer(counter, 1024, Duration.ofSeconds(60));
        CountDownLatch firstGate = new CountDownLatch(1);
        counter.gate = firstGate;
        Future<Long> first = executor.submit(coalescer::next);
        until(() -> counter.sizes.size() == 1, "the first round trip");
        AtomicInteger leaderOutcome = new AtomicInteger(-1);
        Thread leader = new Thread(() -> {
            try {
                coalescer.next();
                leaderOutcome.set(0);
            } catch (dev.idgen.core.IdGenerationException e) {
                leaderOutcome.set(Thread.currentThread().isInterrupted() ? 1 : 2);
            }
        });
        leader.start();
        until(() -> coalescer.queued() == 1, "the next leader queued");
        List<Future<Long>> others = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            others.add(executor.submit(coalescer::next));
            int queued = i + 2;
            until(() -> coalescer.queued() == queued, queued + " callers queued");
        }
        counter.gate = new CountDownLatch(1); // the second round trip hangs until its leader is interrupted
        firstGate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo(1);
        until(() -> counter.sizes.size() == 2, "the second round trip, for three callers");
        counter.gate = null;
        leader.interrupt();
        leader.join(60_000);
        assertThat(leaderOutcome).as("the leader failed, its interrupt kept").hasValue(1);
        List<Long> got = new ArrayList<>();
        for (Future<Long> other : others) {
            got.add(other.get(60, TimeUnit.SECONDS));
        }
        assertThat(got).as("the others, served by the next round trip").containsExactlyInAnyOrder(2L, 3L);
        assertThat(counter.sizes).containsExactly(1, 3, 2);
    }

    @Test
    void badSettingsAreRefusedNamingTheArgument() {
        Counter counter = new Counter(1);
        assertThatThrownBy(() -> new RangeCoalescer(counter, 0, 1, Duration.ofSeconds(1), "x"))
                .hasMessageContaining("maxBatch must be at least 1");
        assertThatThrownBy(() -> new RangeCoalescer(counter, 1, 0, Duration.ofSeconds(1), "x"))
                .hasMessageContaining("stride must be at least 1");
        assertThatThrownBy(() -> new RangeCoalescer(counter, 1, 1, Duration.ZERO, "x"))
                .hasMessageContaining("maxWait must be positive");
        assertThatThrownBy(() -> new RangeCoalescer((int n, long deadline) -> n, 1, 0, 1, Duration.ofSeconds(1), "x"))
                .hasMessageContaining("maxInFlight must be at least 1");
    }
}
