package dev.idgen.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.CircuitBreaker.State;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {

    private static final Duration OPEN = Duration.ofSeconds(5);

    private final ManualTimeSource time = new ManualTimeSource(Instant.parse("2026-01-01T00:00:00Z"));

    private final CircuitBreaker breaker = new CircuitBreaker(OPEN, time);

    @Test
    void aClosedBreakerLetsEveryCallThrough() {
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.tryAcquire()).isTrue();
            breaker.onSuccess();
        }
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.isOpen()).isFalse();
    }

    @Test
    void aFailureOpensItForTheOpenDurationThenExactlyOneCallerProbes() {
        breaker.onFailure();
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.isOpen()).isTrue();
        time.advance(OPEN.minusNanos(1_000_000));
        assertThat(breaker.tryAcquire()).as("1 ms before the open time is up").isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquire()).as("the probe").isTrue();
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.isOpen()).isTrue();
        assertThat(breaker.tryAcquire())
                .as("a second caller while the probe runs")
                .isFalse();
        breaker.onSuccess();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void aFailedProbeOpensItForAFreshOpenDuration() {
        breaker.onFailure();
        time.advance(OPEN.plusSeconds(60));
        assertThat(breaker.tryAcquire()).isTrue();
        time.advance(Duration.ofSeconds(1));
        breaker.onFailure();
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        time.advance(OPEN.minusNanos(1_000_000));
        assertThat(breaker.tryAcquire())
                .as("counted from the probe's failure, not the first one")
                .isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void furtherFailuresWhileOpenDoNotExtendIt() {
        breaker.onFailure();
        time.advance(Duration.ofSeconds(4));
        breaker.onFailure(); // a call admitted before the breaker opened, failing late
        time.advance(Duration.ofSeconds(1));
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void aLateSuccessDoesNotCloseAnOpenBreaker() {
        assertThat(breaker.tryAcquire()).isTrue(); // admitted while closed
        breaker.onFailure(); // another call fails meanwhile
        breaker.onSuccess(); // the first one answers
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void aProbeThatNeverReportsIsPresumedLostAfterTheOpenDuration() {
        breaker.onFailure();
        time.advance(OPEN);
        assertThat(breaker.tryAcquire())
                .as("the probe, whose caller then vanishes")
                .isTrue();
        time.advance(OPEN.minusNanos(1_000_000));
        assertThat(breaker.tryAcquire()).isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(breaker.tryAcquire()).as("a new probe").isTrue();
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void anAbandonedProbeLetsTheNextCallerProbeAtOnce() {
        breaker.onFailure();
        time.advance(OPEN);
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.onAbandoned();
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        assertThat(breaker.tryAcquire()).isTrue();
        assertThat(breaker.tryAcquire()).isFalse();
    }

    @Test
    void abandoningLeavesAClosedOrOpenBreakerAlone() {
        breaker.onAbandoned();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        breaker.onFailure();
        breaker.onAbandoned();
        assertThat(breaker.tryAcquire()).as("still open for its full time").isFalse();
    }

    @Test
    void tryProbeIsTrueForTheProbeOnlyNeverForAClosedBreaker() {
        assertThat(breaker.tryProbe())
                .as("closed: an ordinary call, not a probe")
                .isFalse();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(breaker.tryAcquire()).isTrue();

        breaker.onFailure();
        time.advance(OPEN.minusNanos(1_000_000));
        assertThat(breaker.tryProbe()).as("1 ms before the open time is up").isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(breaker.tryProbe()).as("the probe").isTrue();
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryProbe())
                .as("a second caller while the probe runs")
                .isFalse();
        assertThat(breaker.tryAcquire()).isFalse();

        time.advance(OPEN);
        assertThat(breaker.tryProbe()).as("the first probe presumed lost").isTrue();
        breaker.onSuccess();
        assertThat(breaker.tryProbe()).isFalse();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void reportsSayWhetherTheyMovedTheBreaker() {
        assertThat(breaker.onSuccess()).as("closed already").isFalse();
        assertThat(breaker.onFailure()).as("closed to open").isTrue();
        assertThat(breaker.onFailure()).as("open already").isFalse();
        assertThat(breaker.onSuccess()).as("a late success leaves it open").isFalse();
        assertThat(breaker.state()).isEqualTo(State.OPEN);

        time.advance(OPEN);
        assertThat(breaker.tryProbe()).isTrue();
        assertThat(breaker.onFailure())
                .as("the probe failed: half-open to open")
                .isTrue();
        assertThat(breaker.state()).isEqualTo(State.OPEN);

        time.advance(OPEN);
        assertThat(breaker.tryProbe()).isTrue();
        assertThat(breaker.onSuccess())
                .as("the probe answered: half-open to closed")
                .isTrue();
        assertThat(breaker.onSuccess()).as("a second answer finds it closed").isFalse();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
    }

    @Test
    void theWallClockMovingBackwardsDoesNotKeepItOpen() {
        breaker.onFailure();
        time.advance(Duration.ofHours(-1));
        assertThat(breaker.tryAcquire()).isFalse();
        time.advance(OPEN);
        // The wall clock is 55 minutes behind the failure; only elapsed time counts.
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void theWallClockJumpingForwardsDoesNotCloseItEarly() {
        AtomicLong nanos = new AtomicLong();
        TimeSource steppedWall = new TimeSource() {
            @Override
            public long currentTimeMillis() {
                return Duration.ofDays(365).toMillis() + nanos.get() / 1_000_000;
            }

            @Override
            public long nanoTime() {
                return nanos.get();
            }
        };
        CircuitBreaker jumping = new CircuitBreaker(OPEN, steppedWall);
        jumping.onFailure();
        assertThat(jumping.tryAcquire())
                .as("a year on the wall clock, no time elapsed")
                .isFalse();
        nanos.addAndGet(OPEN.toNanos());
        assertThat(jumping.tryAcquire()).isTrue();
    }

    @Test
    void theMonotonicClockWrappingPastLongMaxValueIsHarmless() {
        AtomicLong nanos = new AtomicLong(Long.MAX_VALUE - OPEN.toNanos() / 2);
        CircuitBreaker breaker = new CircuitBreaker(OPEN, new TimeSource() {
            @Override
            public long currentTimeMillis() {
                return 0;
            }

            @Override
            public long nanoTime() {
                return nanos.get();
            }
        });
        breaker.onFailure(); // open until a time past the wrap
        nanos.addAndGet(OPEN.toNanos() - 1); // now past Long.MAX_VALUE, i.e. negative, 1 ns short
        assertThat(nanos.get()).isNegative();
        assertThat(breaker.tryAcquire()).isFalse();
        nanos.incrementAndGet();
        assertThat(breaker.tryAcquire()).isTrue();
    }

    @Test
    void aZeroOpenDurationLetsTheNextCallerProbeAtOnce() {
        CircuitBreaker immediate = new CircuitBreaker(Duration.ZERO, time);
        immediate.onFailure();
        assertThat(immediate.isOpen()).isTrue();
        assertThat(immediate.tryAcquire()).isTrue();
        immediate.onSuccess();
        assertThat(immediate.isOpen()).isFalse();
    }

    @Test
    void badOpenDurationsFailNamingTheArgument() {
        for (Duration bad :
                new Duration[] {null, Duration.ofNanos(-1), CircuitBreaker.MAX_OPEN_DURATION.plusNanos(1)}) {
            assertThatThrownBy(() -> new CircuitBreaker(bad, time))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("openDuration")
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo("openDuration"));
        }
        assertThatThrownBy(() -> new CircuitBreaker(OPEN, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("timeSource");
    }

    @Test
    void badFailureThresholdsFailNamingTheArgument() {
        for (int bad : new int[] {0, -1, CircuitBreaker.MAX_FAILURE_THRESHOLD + 1}) {
            assertThatThrownBy(() -> new CircuitBreaker(OPEN, bad, time))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("failureThreshold must be between 1 and 1000, but was " + bad)
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo("failureThreshold"));
        }
        assertThat(new CircuitBreaker(OPEN, time).failureThreshold()).isEqualTo(1);
    }

    @Test
    void aThresholdOpensItOnlyAfterThatManyFailuresInARow() {
        CircuitBreaker counting = new CircuitBreaker(OPEN, 3, time);
        assertThat(counting.onFailure()).isFalse();
        assertThat(counting.onFailure()).isFalse();
        assertThat(counting.state()).isEqualTo(State.CLOSED);
        assertThat(counting.isOpen()).isFalse();
        assertThat(counting.tryAcquire()).isTrue();
        assertThat(counting.onSuccess()).as("forgets the two, closes nothing").isFalse();
        assertThat(counting.onFailure()).isFalse();
        assertThat(counting.onFailure()).isFalse();
        assertThat(counting.tryAcquire()).as("two in a row since the success").isTrue();
        assertThat(counting.onFailure()).as("the third in a row opens it").isTrue();
        assertThat(counting.state()).isEqualTo(State.OPEN);
        assertThat(counting.tryAcquire()).isFalse();
        assertThat(counting.probeAllowedAt()).isEqualTo(time.nanoTime() + OPEN.toNanos());

        time.advance(OPEN);
        assertThat(counting.tryAcquire()).as("the probe").isTrue();
        assertThat(counting.onFailure())
                .as("a failed probe reopens it at once, whatever the threshold")
                .isTrue();
        time.advance(OPEN);
        assertThat(counting.tryAcquire()).isTrue();
        assertThat(counting.onSuccess()).isTrue();
        assertThat(counting.onFailure())
                .as("closing forgot every failure: one is again one of three")
                .isFalse();
        assertThat(counting.onFailure()).isFalse();
        assertThat(counting.isOpen()).isFalse();
    }

    @Test
    void countedFailuresFromManyThreadsOpenItExactlyOnce() throws Exception {
        CircuitBreaker counting = new CircuitBreaker(OPEN, 5, time);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CyclicBarrier start = new CyclicBarrier(4);
            List<Future<Integer>> opened = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                opened.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    int mine = 0;
                    for (int i = 0; i < 1000; i++) {
                        mine += counting.onFailure() ? 1 : 0;
                    }
                    return mine;
                }));
            }
            int total = 0;
            for (Future<Integer> f : opened) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).as("one report opens it; the rest find it open").isEqualTo(1);
            assertThat(counting.state()).isEqualTo(State.OPEN);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aForcedProbeGoesThroughAnOpenBreakerAndTakesOverFromAProbeInFlight() throws Exception {
        breaker.onFailure();
        assertThat(breaker.tryAcquire()).as("open, its time not up").isFalse();
        assertThat(breaker.forceProbe()).isTrue();
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.onSuccess())
                .as("the forced probe's answer closes it")
                .isTrue();
        assertThat(breaker.forceProbe()).as("closed: an ordinary call").isTrue();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);

        breaker.onFailure();
        time.advance(OPEN);
        // The first probe stays alive, so that its own late answer is the one tested.
        CountDownLatch replaced = new CountDownLatch(1);
        AtomicInteger won = new AtomicInteger();
        AtomicInteger closedByIt = new AtomicInteger();
        CountDownLatch probing = new CountDownLatch(1);
        Thread firstProbe = new Thread(() -> {
            won.set(breaker.tryAcquire() ? 1 : 0);
            probing.countDown();
            try {
                if (replaced.await(60, TimeUnit.SECONDS)) {
                    closedByIt.set(breaker.onSuccess() ? 1 : 0);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        firstProbe.start();
        assertThat(probing.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(won).as("the other thread is the probe").hasValue(1);
        assertThat(breaker.forceProbe()).isTrue();
        replaced.countDown();
        firstProbe.join(60_000);
        assertThat(firstProbe.isAlive()).isFalse();
        assertThat(closedByIt)
                .as("the replaced probe's own answer moves nothing")
                .hasValue(0);
        assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
        assertThat(breaker.onFailure()).as("this thread is the probe now").isTrue();
        assertThat(breaker.state()).isEqualTo(State.OPEN);
    }

    @Test
    void aSuccessRacingACountedFailureIsNeverLost() throws Exception {
        // One failure of three counted, then a success and a failure from two threads at once, many times. Either
        // order leaves at most one failure counted (the failure, then the success forgetting it; or the success,
        // then the failure): the next failure never opens the breaker. A success lost to the failure's count (two
        // counted) would.
        for (int round = 0; round < 2000; round++) {
            CircuitBreaker counting = new CircuitBreaker(OPEN, 3, time);
            counting.onFailure();
            CyclicBarrier both = new CyclicBarrier(2);
            Thread success = new Thread(() -> {
                await(both);
                counting.onSuccess();
            });
            success.start();
            await(both);
            assertThat(counting.onFailure()).isFalse();
            success.join(60_000);
            assertThat(counting.onFailure())
                    .as("round %d: at most one counted before this one", round)
                    .isFalse();
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void manyThreadsRacingForTheProbeProduceExactlyOneWinner() throws Exception {
        int threads = 16;
        int rounds = 500;
        // A clock that takes a while to read widens the window between a caller's read of the open state and its
        // compare-and-set, so that many callers see the same open state at once.
        TimeSource slowClock = new TimeSource() {
            @Override
            public long currentTimeMillis() {
                return time.currentTimeMillis();
            }

            @Override
            public long nanoTime() {
                long spinUntil = System.nanoTime() + 20_000;
                while (System.nanoTime() - spinUntil < 0) {
                    Thread.onSpinWait();
                }
                return time.nanoTime();
            }
        };
        CircuitBreaker breaker = new CircuitBreaker(OPEN, slowClock);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads, () -> {
                // Runs once per round, before any thread races: open the breaker and let its time run out.
                breaker.onFailure();
                time.advance(OPEN);
            });
            CyclicBarrier end = new CyclicBarrier(threads);
            AtomicInteger[] winners = new AtomicInteger[rounds];
            for (int r = 0; r < rounds; r++) {
                winners[r] = new AtomicInteger();
            }
            List<Future<?>> racers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int racer = t;
                racers.add(pool.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        start.await(30, TimeUnit.SECONDS);
                        boolean won = false;
                        // Each thread asks several times, so losers retry while the winner's probe is in flight, and
                        // both ways of asking share the one probe.
                        for (int k = 0; k < 4; k++) {
                            if ((k + racer) % 2 == 0 ? breaker.tryAcquire() : breaker.tryProbe()) {
                                winners[r].incrementAndGet();
                                won = true;
                            }
                        }
                        end.await(30, TimeUnit.SECONDS);
                        if (won) {
                            // Reported after every thread has stopped asking, so the probe was in flight throughout.
                            breaker.onFailure();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> racer : racers) {
                racer.get(2, TimeUnit.MINUTES);
            }
            for (int r = 0; r < rounds; r++) {
                assertThat(winners[r].get()).as("probe winners in round %d", r).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs {@code report} on another thread: a call admitted before the breaker opened, reporting late. */
    private static void fromAnotherCall(Runnable report) throws InterruptedException {
        Thread other = new Thread(report);
        other.start();
        other.join(60_000);
        assertThat(other.isAlive()).isFalse();
    }

    @Test
    void onlyTheProbeMovesAHalfOpenBreakerSoNoSecondProbeRunsAlongsideIt() throws Exception {
        breaker.onFailure();
        time.advance(OPEN);
        assertThat(breaker.tryAcquire()).as("this thread probes").isTrue();

        fromAnotherCall(breaker::onAbandoned);
        assertThat(breaker.state()).as("another call abandoned").isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire()).as("no second probe").isFalse();
        fromAnotherCall(breaker::onSuccess);
        assertThat(breaker.state()).as("another call answered").isEqualTo(State.HALF_OPEN);
        fromAnotherCall(breaker::onFailure);
        assertThat(breaker.state()).as("another call failed").isEqualTo(State.HALF_OPEN);
        assertThat(breaker.tryAcquire()).isFalse();

        assertThat(breaker.onSuccess()).as("the probe's own answer").isTrue();
        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        fromAnotherCall(breaker::onFailure);
        assertThat(breaker.state())
                .as("any call's failure opens a closed breaker")
                .isEqualTo(State.OPEN);
    }
}
