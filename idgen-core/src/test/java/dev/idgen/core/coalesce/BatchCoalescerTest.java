package dev.idgen.core.coalesce;

import static dev.idgen.core.coalesce.GatedRoundTrips.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BatchCoalescerTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** What one round trip took: {@code n} labels from {@code first}, written as strings to show the shape is free. */
    private record Labels(long first, int n) {
        String label(int index) {
            assertThat(index).isBetween(0, n - 1);
            return "L" + (first + index);
        }
    }

    /** A counter in a "store" handing out labels. */
    private static final class Store extends GatedRoundTrips implements BatchCoalescer.BatchSource<Labels> {
        final AtomicLong value = new AtomicLong();

        @Override
        public Labels take(int n) {
            roundTrip(n);
            return new Labels(value.getAndAdd(n) + 1, n);
        }
    }

    private static BatchCoalescer<Labels> coalescer(Store store, int maxBatch, Duration maxWait) {
        return new BatchCoalescer<>(store, maxBatch, maxWait, "the test store");
    }

    private static String next(BatchCoalescer<Labels> coalescer) {
        return coalescer.next(Labels::label);
    }

    private static long number(String label) {
        return Long.parseLong(label.substring(1));
    }

    @Test
    void aLoneCallerMakesOneRoundTripOfOnePerCall() {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 1024, Duration.ofSeconds(10));
        for (int i = 1; i <= 50; i++) {
            assertThat(next(coalescer)).isEqualTo("L" + i);
        }
        assertThat(store.sizes).hasSize(50).containsOnly(1);
        assertThat(coalescer.roundTrips()).isEqualTo(50);
    }

    @Test
    void noRoundTripServesMoreCallersThanTheBatchLimitAndTheOldestGetsTheFirstShare() throws Exception {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 4, Duration.ofSeconds(60));
        store.gate = new CountDownLatch(1);
        List<Future<String>> values = new ArrayList<>();
        values.add(executor.submit(() -> next(coalescer)));
        until(() -> store.sizes.size() == 1, "the first round trip");
        for (int i = 0; i < 9; i++) {
            values.add(executor.submit(() -> next(coalescer)));
            int queued = i + 1;
            until(() -> coalescer.queued() == queued, queued + " callers queued");
        }
        store.gate.countDown();
        List<String> got = new ArrayList<>();
        for (Future<String> value : values) {
            got.add(value.get(60, TimeUnit.SECONDS));
        }
        assertThat(got)
                .as("in the order the callers queued")
                .containsExactly("L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10");
        assertThat(store.sizes).containsExactly(1, 4, 4, 1);
    }

    @Test
    void aFailedRoundTripFailsTheCallersItWasForAndTheQueueBehindItIsServed() throws Exception {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 1024, Duration.ofSeconds(60));
        store.gate = new CountDownLatch(1);
        Future<String> first = executor.submit(() -> next(coalescer));
        until(() -> store.sizes.size() == 1, "the first round trip");
        List<Future<String>> failing = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            failing.add(executor.submit(() -> next(coalescer)));
        }
        until(() -> coalescer.queued() == 3, "three callers queued");
        IllegalStateException broken = new IllegalStateException("store went away");
        store.failAt = 2;
        store.failure = broken;
        store.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo("L1");
        for (Future<String> f : failing) {
            assertThatThrownBy(() -> f.get(60, TimeUnit.SECONDS)).hasCause(broken);
        }
        assertThat(store.sizes).containsExactly(1, 3);
        assertThat(next(coalescer)).as("the next caller, after the failure").isEqualTo("L2");
    }

    @Test
    void aCallerThatWaitsTooLongInTheQueueGivesUpAndTakesNoShare() throws Exception {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 1024, Duration.ofMillis(200));
        store.gate = new CountDownLatch(1);
        Future<String> first = executor.submit(() -> next(coalescer));
        until(() -> store.sizes.size() == 1, "the first round trip");
        CompletableFuture<String> queued = CompletableFuture.supplyAsync(() -> next(coalescer), executor);
        assertThatThrownBy(() -> queued.get(60, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("No round trip to the test store took this call within 200 ms");
        assertThat(coalescer.queued()).isZero();
        store.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo("L1");
        store.gate = null;
        assertThat(next(coalescer))
                .as("no share was taken for the caller that gave up")
                .isEqualTo("L2");
        assertThat(store.sizes).containsExactly(1, 1);
    }

    @Test
    void anInterruptedQueuedCallerLeavesTheQueueWithItsInterruptKept() throws Exception {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 1024, Duration.ofSeconds(60));
        store.gate = new CountDownLatch(1);
        Future<String> first = executor.submit(() -> next(coalescer));
        until(() -> store.sizes.size() == 1, "the first round trip");
        AtomicInteger interruptKept = new AtomicInteger(-1);
        Thread caller = new Thread(() -> {
            try {
                next(coalescer);
            } catch (IdGenerationException e) {
                interruptKept.set(Thread.currentThread().isInterrupted() ? 1 : 0);
            }
        });
        caller.start();
        until(() -> coalescer.queued() == 1, "the caller queued");
        caller.interrupt();
        caller.join(60_000);
        assertThat(interruptKept).hasValue(1);
        store.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo("L1");
        store.gate = null;
        assertThat(next(coalescer)).isEqualTo("L2");
    }

    @Test
    void anInterruptedLeaderFailsAloneAndTheCallersOfItsRoundTripAreServedByTheNext() throws Exception {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 1024, Duration.ofSeconds(60));
        CountDownLatch firstGate = new CountDownLatch(1);
        store.gate = firstGate;
        Future<String> first = executor.submit(() -> next(coalescer));
        until(() -> store.sizes.size() == 1, "the first round trip");
        AtomicInteger leaderOutcome = new AtomicInteger(-1);
        Thread leader = new Thread(() -> {
            try {
                next(coalescer);
                leaderOutcome.set(0);
            } catch (IdGenerationException e) {
                leaderOutcome.set(Thread.currentThread().isInterrupted() ? 1 : 2);
            }
        });
        leader.start();
        until(() -> coalescer.queued() == 1, "the next leader queued");
        List<Future<String>> others = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            others.add(executor.submit(() -> next(coalescer)));
            int queued = i + 2;
            until(() -> coalescer.queued() == queued, queued + " callers queued");
        }
        store.gate = new CountDownLatch(1); // the second round trip hangs until its leader is interrupted
        firstGate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo("L1");
        until(() -> store.sizes.size() == 2, "the second round trip, for three callers");
        store.gate = null;
        leader.interrupt();
        leader.join(60_000);
        assertThat(leaderOutcome).as("the leader failed, its interrupt kept").hasValue(1);
        List<String> got = new ArrayList<>();
        for (Future<String> other : others) {
            got.add(other.get(60, TimeUnit.SECONDS));
        }
        assertThat(got)
                .as("the others, served by the next round trip, in their order")
                .containsExactly("L2", "L3");
        assertThat(store.sizes).containsExactly(1, 3, 2);
    }

    @Test
    void aFailingShareFailsOnlyItsCaller() throws Exception {
        Store store = new Store();
        BatchCoalescer<Labels> coalescer = coalescer(store, 1024, Duration.ofSeconds(60));
        store.gate = new CountDownLatch(1);
        Future<String> first = executor.submit(() -> next(coalescer));
        until(() -> store.sizes.size() == 1, "the first round trip");
        Future<String> failing = executor.submit(() -> coalescer.<String>next((labels, index) -> {
            throw new IllegalArgumentException("cannot format " + labels.label(index));
        }));
        until(() -> coalescer.queued() == 1, "one caller queued");
        Future<String> other = executor.submit(() -> next(coalescer));
        until(() -> coalescer.queued() == 2, "two callers queued");
        store.gate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo("L1");
        assertThatThrownBy(() -> failing.get(60, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot format L2");
        assertThat(other.get(60, TimeUnit.SECONDS)).isEqualTo("L3");
    }

    @Test
    void badSettingsAreRefusedNamingTheArgument() {
        Store store = new Store();
        assertThatThrownBy(() -> new BatchCoalescer<>(store, 0, Duration.ofSeconds(1), "x"))
                .hasMessageContaining("maxBatch must be at least 1");
        assertThatThrownBy(() -> new BatchCoalescer<>(store, 1, Duration.ZERO, "x"))
                .hasMessageContaining("maxWait must be positive");
    }

    /** A clock that a thread may see ahead of the others: a caller woken long after it was handed the lead. */
    private static final class SkewedClock implements dev.idgen.core.TimeSource {
        final java.util.Map<Thread, Long> ahead = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public long currentTimeMillis() {
            return 0;
        }

        @Override
        public long nanoTime() {
            return ahead.getOrDefault(Thread.currentThread(), 0L);
        }
    }

    @Test
    void aLeaderWokenAfterItsDeadlineFailsAloneAndTheCallersOfItsBatchWhoStillHaveTimeAreServed() throws Exception {
        SkewedClock clock = new SkewedClock();
        Store store = new Store();
        long second = TimeUnit.SECONDS.toNanos(1);
        // Like the ticket server: a round trip whose deadline passed before it was sent fails.
        BatchCoalescer<Labels> coalescer = new BatchCoalescer<>(
                (n, deadline) -> {
                    if (deadline - clock.nanoTime() <= 0) {
                        throw new StoreUnavailableException("did not answer within the timeout");
                    }
                    return store.take(n);
                },
                1024,
                1,
                Duration.ofSeconds(60),
                "the test store",
                clock);
        CountDownLatch firstGate = new CountDownLatch(1);
        store.gate = firstGate;
        Future<String> first = executor.submit(() -> next(coalescer));
        until(() -> store.sizes.size() == 1, "the first round trip");
        // The next leader: queued at 0 s, its wait runs out at 60 s.
        AtomicInteger leaderOutcome = new AtomicInteger(-1);
        Thread late = new Thread(() -> {
            try {
                next(coalescer);
                leaderOutcome.set(0);
            } catch (StoreUnavailableException e) {
                leaderOutcome.set(1);
            }
        });
        late.start();
        until(() -> coalescer.queued() == 1, "the next leader queued");
        // A caller queued behind it at 30 s: its wait runs out at 90 s.
        Future<String> later = executor.submit(() -> {
            clock.ahead.put(Thread.currentThread(), 30 * second);
            return next(coalescer);
        });
        until(() -> coalescer.queued() == 2, "a later caller queued");
        // The first round trip returns at 0 s and hands the lead over in time, but its new leader wakes at 61 s.
        clock.ahead.put(late, 61 * second);
        store.gate = null;
        firstGate.countDown();
        assertThat(first.get(60, TimeUnit.SECONDS)).isEqualTo("L1");
        late.join(60_000);
        assertThat(leaderOutcome).as("the late leader failed").hasValue(1);
        assertThat(later.get(60, TimeUnit.SECONDS))
                .as("the caller who still had time")
                .isEqualTo("L2");
        assertThat(store.sizes).containsExactly(1, 1);
    }
}
