package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.spi.WorkerIdLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SnowflakeGeneratorTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ManualTimeSource time = new ManualTimeSource(START);

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    private SnowflakeGenerator.Builder generator() {
        return SnowflakeGenerator.builder().timeSource(time).workerId(5);
    }

    /** A generator past its start-up tick, so that the next call issues at once. */
    private SnowflakeGenerator started(SnowflakeGenerator.Builder builder) {
        SnowflakeGenerator generator = builder.build();
        time.advanceMillis(generator.layout().tickUnit().millis());
        return generator;
    }

    /** {@code count} IDs from successive calls, in the order they were issued. */
    private static long[] nextIds(SnowflakeGenerator generator, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = generator.nextId();
        }
        return ids;
    }

    private Future<Long> nextIdInBackground(SnowflakeGenerator generator) {
        return executor.submit(generator::nextId);
    }

    private static void assertStaysBlocked(Future<?> future) throws InterruptedException {
        Thread.sleep(100);
        assertThat(future).as("caller should still be waiting").isNotDone();
    }

    @Test
    void issuesIncreasingIdsCarryingTimestampWorkerAndSequence() {
        SnowflakeGenerator generator = started(generator());
        long first = generator.nextId();
        long second = generator.nextId();
        assertThat(second).isGreaterThan(first);
        SnowflakeDecodedId decoded = generator.decode(second);
        assertThat(decoded.timestamp()).isEqualTo(START.plusMillis(1));
        assertThat(decoded.workerId()).isEqualTo(5);
        assertThat(decoded.sequence()).isEqualTo(generator.decode(first).sequence() + 1);
    }

    @Test
    void firstIdWaitsForTheTickAfterStartUpBecauseAPredecessorMayHaveUsedIt() throws Exception {
        SnowflakeGenerator generator = generator().build();
        Future<Long> first = nextIdInBackground(generator);
        assertStaysBlocked(first);
        time.advanceMillis(1);
        assertThat(generator.decode(first.get(5, TimeUnit.SECONDS)).timestamp()).isEqualTo(START.plusMillis(1));
        assertThat(generator.sequenceOverflowWaits())
                .as("waiting out the start-up tick is no sequence overflow")
                .isZero();
    }

    @Test
    void sequenceOverflowWaitsForTheNextTickAndCountsTheWait() throws Exception {
        SnowflakeGenerator generator = started(
                generator().layout(SnowflakeLayout.builder().sequenceBits(2).build()));
        long[] ids = nextIds(generator, 4);
        assertThat(Arrays.stream(ids).map(id -> generator.decode(id).sequence()))
                .containsExactly(0L, 1L, 2L, 3L);

        Future<Long> fifth = nextIdInBackground(generator);
        assertStaysBlocked(fifth);
        time.advanceMillis(1);
        SnowflakeDecodedId decoded = generator.decode(fifth.get(5, TimeUnit.SECONDS));
        assertThat(decoded.timestamp()).isEqualTo(START.plusMillis(2));
        assertThat(decoded.sequence()).isZero();
        assertThat(generator.sequenceOverflowWaits())
                .as("the fifth call's one wait")
                .isEqualTo(1);
    }

    @Test
    void firstSequenceOfATickIsSpreadSoIdModuloShardsStaysEvenAtLowTraffic() {
        SnowflakeGenerator generator = started(generator());
        int shards = 16;
        int[] perShard = new int[shards];
        for (int i = 0; i < 256 * 4; i++) {
            perShard[(int) (generator.nextId() % shards)]++;
            time.advanceMillis(1);
        }
        assertThat(perShard).containsOnly(64);
    }

    @Test
    void aSaturatedTickHandsFullCapacityToTheNext() {
        SnowflakeGenerator generator = started(generator());
        long[] ids = nextIds(generator, 4096);
        time.advanceMillis(1);
        long next = generator.nextId();
        assertThat(generator.decode(next).sequence()).isZero();
        assertThat(generator.decode(ids[4095]).sequence()).isEqualTo(4095);
    }

    @Test
    void aSmallBackwardsStepIsWaitedOutAndNoEarlierTimestampIsIssued() throws Exception {
        SnowflakeGenerator generator = started(generator());
        long before = generator.nextId();
        time.advanceMillis(-3);

        Future<Long> during = nextIdInBackground(generator);
        assertStaysBlocked(during);
        time.advanceMillis(3);
        long after = during.get(5, TimeUnit.SECONDS);
        assertThat(after).isGreaterThan(before);
        assertThat(generator.decode(after).timestamp())
                .isAfterOrEqualTo(generator.decode(before).timestamp());
        assertThat(generator.clockBackwardsEvents())
                .as("the one call that met the clock behind")
                .isEqualTo(1);
    }

    @Test
    void aLargeBackwardsStepThrowsAndReportsTheClockUnhealthyUntilItCatchesUp() {
        SnowflakeGenerator generator = started(generator().clockBackwardsTolerance(Duration.ofMillis(5)));
        long before = generator.nextId();
        time.advanceMillis(-1000);

        assertThatThrownBy(generator::nextId)
                .isInstanceOfSatisfying(
                        ClockBackwardsException.class,
                        e -> assertThat(e.behindMillis()).isEqualTo(1000))
                .hasMessageContaining("1000 ms behind")
                .hasMessageContaining("tolerance of 5 ms");
        assertThat(generator.isClockHealthy()).isFalse();
        assertThat(generator.clockBehindMillis()).isEqualTo(1000);
        assertThat(generator.clockBackwardsEvents()).isEqualTo(1);

        time.advanceMillis(1001);
        assertThat(generator.isClockHealthy()).isTrue();
        assertThat(generator.nextId()).isGreaterThan(before);
    }

    @Test
    void borrowingRunsAheadOfTheClockByAtMostMaxBorrowTicks() throws Exception {
        SnowflakeGenerator generator = started(generator()
                .maxBorrow(2)
                .layout(SnowflakeLayout.builder().sequenceBits(2).build()));
        // The start-up tick is START + maxBorrow and the clock is at START + 1, so one more tick may be borrowed.
        long nowMillis = time.currentTimeMillis();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(generator.nextId());
        }
        for (long id : ids) {
            assertThat(generator.decode(id).timestamp().toEpochMilli()).isLessThanOrEqualTo(nowMillis + 2);
        }
        Future<Long> blocked = nextIdInBackground(generator);
        assertStaysBlocked(blocked);
        time.advanceMillis(1);
        long next = blocked.get(5, TimeUnit.SECONDS);
        assertThat(next).isGreaterThan(ids.get(3));
        assertThat(generator.decode(next).timestamp().toEpochMilli()).isLessThanOrEqualTo(nowMillis + 1 + 2);
    }

    @Test
    void borrowingIssuesPastASaturatedTickWithoutWaiting() {
        SnowflakeGenerator generator = started(generator()
                .maxBorrow(3)
                .layout(SnowflakeLayout.builder().sequenceBits(2).build()));
        // Past the start-up tick (now + maxBorrow), so that all three borrowable ticks are free.
        long nowMillis = time.advanceMillis(3);
        long[] ids = nextIds(generator, 16);
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        assertThat(generator.decode(ids[0]).timestamp().toEpochMilli()).isEqualTo(nowMillis);
        assertThat(generator.decode(ids[15]).timestamp().toEpochMilli()).isEqualTo(nowMillis + 3);
        assertThat(generator.sequenceOverflowWaits()).isZero();
    }

    @Test
    void aRestartAfterTheClockMovedBackRefusesWhenThePredecessorsTimestampIsAhead() {
        long predecessor = time.currentTimeMillis() + 60_000;
        SnowflakeGenerator generator = started(generator().workerIdAssigner(max -> new RecordingLease(3, predecessor)));
        assertThatThrownBy(generator::nextId)
                .isInstanceOf(ClockBackwardsException.class)
                .hasMessageContaining("worker 3");
        assertThat(generator.isClockHealthy()).isFalse();
    }

    @Test
    void aRestartWithinTheToleranceWaitsForThePredecessorsTimestamp() throws Exception {
        long predecessor = time.currentTimeMillis() + 3;
        SnowflakeGenerator generator = generator()
                .workerIdAssigner(max -> new RecordingLease(3, predecessor))
                .build();
        Future<Long> first = nextIdInBackground(generator);
        assertStaysBlocked(first);
        time.advanceMillis(4);
        assertThat(generator.decode(first.get(5, TimeUnit.SECONDS)).timestamp().toEpochMilli())
                .isGreaterThan(predecessor);
    }

    @Test
    void closeRecordsTheNewestTimestampOnTheLeaseAndStopsIssuing() {
        RecordingLease lease = new RecordingLease(1, -1);
        SnowflakeGenerator generator = started(generator().workerIdAssigner(max -> lease));
        long id = generator.nextId();
        generator.close();
        generator.close();
        assertThat(lease.closed).isEqualTo(1);
        assertThat(lease.recorded.get())
                .isGreaterThanOrEqualTo(generator.decode(id).timestamp().toEpochMilli());
        assertThatThrownBy(generator::nextId)
                .isInstanceOf(IdGenerationException.class)
                .hasMessageContaining("closed");

        // The next holder of the same worker id starts after everything the first one issued.
        SnowflakeGenerator successor =
                started(generator().workerIdAssigner(max -> new RecordingLease(1, lease.recorded.get())));
        assertThat(successor.nextId()).isGreaterThan(id);
    }

    @Test
    void aCallerWaitingWhenTheGeneratorClosesGetsNoId() throws Exception {
        RecordingLease lease = new RecordingLease(1, -1);
        SnowflakeGenerator generator = started(generator().workerIdAssigner(max -> lease));
        long issued = generator.nextId();
        time.advanceMillis(-3);
        Future<Long> waiting = nextIdInBackground(generator);
        assertStaysBlocked(waiting);
        generator.close();
        assertThat(generator.isClosed()).isTrue();
        time.advanceMillis(10);
        assertThat(waiting)
                .failsWithin(Duration.ofSeconds(5))
                .withThrowableThat()
                .havingRootCause()
                .isInstanceOf(IdGenerationException.class)
                .withMessageContaining("closed");
        assertThat(lease.recorded.get())
                .isGreaterThanOrEqualTo(generator.decode(issued).timestamp().toEpochMilli());
        assertThat(generator.lastTimestampMillis())
                .isEqualTo(generator.decode(issued).timestamp().toEpochMilli());
    }

    @Test
    void aCallerPausedBetweenReadingStateAndClockIsNotTakenForABackwardsClock() throws Exception {
        // While the first caller reads the clock, another caller issues in the next tick. With no tolerance at all,
        // the first caller must simply retry, not report a clock that moved backwards.
        ManualTimeSource base = new ManualTimeSource(START);
        AtomicLong reads = new AtomicLong();
        SnowflakeGenerator[] holder = new SnowflakeGenerator[1];
        SnowflakeGenerator generator = SnowflakeGenerator.builder()
                .workerId(5)
                .clockBackwardsTolerance(Duration.ZERO)
                .timeSource(() -> {
                    long now = base.currentTimeMillis();
                    if (reads.incrementAndGet() == 2) {
                        base.advanceMillis(1);
                        CompletableFuture.supplyAsync(holder[0]::nextId, executor)
                                .join();
                    }
                    return now;
                })
                .build();
        holder[0] = generator;
        base.advanceMillis(1);
        long first = generator.nextId();
        assertThat(generator.clockBackwardsEvents()).isZero();
        assertThat(generator.decode(first).timestamp()).isEqualTo(START.plusMillis(2));
    }

    @Test
    void refusesAWorkerIdOutsideTheLayout() {
        assertThatThrownBy(() -> generator().workerId(1024).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("workerId"))
                .hasMessage("workerId must be between 0 and 1023 for this layout's worker bits, but was 1024");
        assertThatThrownBy(() -> generator().workerId(-1).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("workerId must be at least 0, but was -1");
        RecordingLease lease = new RecordingLease(64, -1);
        assertThatThrownBy(() -> generator()
                        .layout(SnowflakeLayout.javascriptSafe())
                        .workerIdAssigner(max -> lease)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("between 0 and 63");
        assertThat(lease.closed).as("a lease that does not fit is given back").isEqualTo(1);
    }

    @Test
    void refusesAnEpochInTheFuture() {
        assertThatThrownBy(() -> generator()
                        .layout(SnowflakeLayout.builder()
                                .epoch(START.plusSeconds(1))
                                .build())
                        .build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("epoch"))
                .hasMessageStartingWith("epoch must not be in the future");
    }

    @Test
    void refusesALayoutWhoseTimestampBitsAreUsedUp() {
        // Baidu uid-generator's defaults: 28 bits of seconds from 2016-05-20 ran out on 2024-11-20.
        SnowflakeLayout baidu = SnowflakeLayout.builder()
                .epoch(Instant.parse("2016-05-20T00:00:00Z"))
                .tickUnit(TickUnit.SECONDS)
                .timestampBits(28)
                .workerBits(22)
                .sequenceBits(13)
                .build();
        assertThat(baidu.exhaustedAt()).isEqualTo(Instant.parse("2024-11-20T21:24:16Z"));
        assertThatThrownBy(() -> generator().workerId(0).layout(baidu).build())
                .isInstanceOf(LayoutExhaustedException.class)
                .hasMessageContaining("2024-11-20T21:24:16Z");
    }

    @Test
    void throwsRatherThanOverflowWhenTheLayoutRunsOutWhileRunning() {
        SnowflakeLayout layout = SnowflakeLayout.builder()
                .epoch(START.minusSeconds(60))
                .tickUnit(TickUnit.SECONDS)
                .timestampBits(7)
                .workerBits(0)
                .sequenceBits(4)
                .build();
        SnowflakeGenerator generator = started(generator().workerId(0).layout(layout));
        assertThat(generator.nextId()).isPositive();
        time.set(layout.exhaustedAt().toEpochMilli());
        assertThatThrownBy(generator::nextId).isInstanceOf(LayoutExhaustedException.class);
    }

    @Test
    void warnsWhenFewerThanTenYearsRemain() {
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger(SnowflakeGenerator.class.getName());
        logger.addHandler(handler);
        try {
            generator().build();
            assertThat(records).isEmpty();
            SnowflakeLayout shortLived = SnowflakeLayout.builder()
                    .epoch(Instant.parse("2020-01-01T00:00:00Z"))
                    .timestampBits(38)
                    .build();
            generator().layout(shortLived).build();
            assertThat(records).singleElement().satisfies(r -> {
                assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
                assertThat(r.getMessage()).contains("runs out at 2028-09-16");
            });
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void refusesBorrowAndToleranceOutOfRange() {
        assertThatThrownBy(() -> generator().maxBorrow(-1).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("maxBorrow"))
                .hasMessage("maxBorrow must be between 0 and 1000 ticks (one second), but was -1");
        assertThatThrownBy(() -> generator().maxBorrow(1001).build()).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> generator()
                        .layout(SnowflakeLayout.javascriptSafe())
                        .maxBorrow(2)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("maxBorrow must be between 0 and 1 ticks (one second), but was 2");
        assertThatThrownBy(() -> generator()
                        .clockBackwardsTolerance(Duration.ofMillis(-1))
                        .build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("clockBackwardsTolerance"));
        assertThatThrownBy(() -> generator()
                        .clockBackwardsTolerance(Duration.ofSeconds(11))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("between 0 and 10s");
    }

    @Test
    void aWaitingCallerThatIsInterruptedGetsAnExceptionAndKeepsItsInterruptFlag() throws Exception {
        SnowflakeGenerator generator = generator().build();
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        CompletableFuture<Boolean> flag = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                generator.nextId();
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
                flag.complete(Thread.currentThread().isInterrupted());
            }
        });
        caller.start();
        // Interrupt once the caller is parked in nextId (the manual clock never reaches its tick), so that the
        // interrupt meets the wait rather than a thread still starting.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (caller.getState() != Thread.State.WAITING && caller.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime() - deadline)
                    .as("waiting for the caller to park")
                    .isNegative();
            Thread.yield();
        }
        caller.interrupt();
        assertThat(failure.get(5, TimeUnit.SECONDS))
                .isInstanceOf(IdGenerationException.class)
                .hasMessageContaining("Interrupted");
        assertThat(flag.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void manyThreadsOnTheRealClockGetUniqueIdsIncreasingOnEachThread() throws Exception {
        SnowflakeGenerator generator = SnowflakeGenerator.builder()
                .workerId(1)
                .layout(SnowflakeLayout.builder().sequenceBits(8).build())
                .build();
        int threads = 4;
        int perThread = 50_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            results.add(executor.submit(() -> {
                start.await();
                long[] ids = new long[perThread];
                for (int i = 0; i < perThread; i++) {
                    ids[i] = generator.nextId();
                }
                return ids;
            }));
        }
        start.countDown();
        long[] all = new long[threads * perThread];
        int n = 0;
        for (Future<long[]> result : results) {
            long[] ids = result.get(60, TimeUnit.SECONDS);
            assertThat(ids).isSorted();
            for (int i = 1; i < ids.length; i++) {
                assertThat(ids[i]).isGreaterThan(ids[i - 1]);
            }
            System.arraycopy(ids, 0, all, n, ids.length);
            n += ids.length;
        }
        assertThat(all).doesNotHaveDuplicates();
        // 256 per millisecond: 200,000 IDs must have overflowed many ticks.
        assertThat(generator.sequenceOverflowWaits()).isPositive();
    }

    private static final class RecordingLease implements WorkerIdLease {
        private final long workerId;
        private final long lastUsed;
        final AtomicLong recorded = new AtomicLong(-1);
        int closed;

        RecordingLease(long workerId, long lastUsed) {
            this.workerId = workerId;
            this.lastUsed = lastUsed;
        }

        @Override
        public long workerId() {
            return workerId;
        }

        @Override
        public OptionalLong lastUsedTimestamp() {
            return lastUsed < 0 ? OptionalLong.empty() : OptionalLong.of(lastUsed);
        }

        @Override
        public void recordTimestamp(long epochMillis) {
            recorded.set(epochMillis);
        }

        @Override
        public void close() {
            closed++;
        }
    }
}
