package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.CountingExecutor;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SnowflakeIdService#nextIdAsync} and {@link SnowflakeIdService#nextIdsAsync}: an ID the generator has without
 * waiting completes the future before it is returned, on the caller's thread; only a wait goes to {@code blocking}.
 * The clock is manual, so a tick's sequence runs out exactly when the test says.
 */
class SnowflakeIdServiceAsyncTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    /** Four IDs a millisecond: the fifth of a tick would wait. */
    private static final SnowflakeLayout FOUR_A_TICK =
            SnowflakeLayout.builder().sequenceBits(2).build();

    private final ManualTimeSource time = new ManualTimeSource(START);
    private final CountingExecutor blocking = new CountingExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        blocking.close();
    }

    private SnowflakeIdService service(SnowflakeLayout layout) {
        SnowflakeGenerator generator = SnowflakeGenerator.builder()
                .timeSource(time)
                .workerId(3)
                .layout(layout)
                .build();
        // Past the start-up tick, which counts as used up.
        time.advanceMillis(1);
        return SnowflakeIdService.of(generator);
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }

    @Test
    void anIdTheGeneratorHasCompletesBeforeTheFutureIsReturnedWithoutTheExecutor() {
        SnowflakeIdService ids = service(SnowflakeLayout.standard());
        long previous = 0;
        for (int i = 0; i < 100; i++) {
            CompletableFuture<Long> future = ids.nextIdAsync("orders", blocking);
            assertThat(future).isCompleted();
            long id = future.join();
            assertThat(id).isGreaterThan(previous);
            previous = id;
        }
        CompletableFuture<long[]> batch = ids.nextIdsAsync("orders", 50, blocking);
        assertThat(batch).isCompleted();
        assertThat(batch.join()).hasSize(50).isSorted().doesNotHaveDuplicates();
        assertThat(batch.join()[0]).isGreaterThan(previous);
        assertThat(blocking.calls()).isZero();
        assertThat(ids.generatedCount()).isEqualTo(150);
    }

    @Test
    void aCallThatWouldWaitForTheNextTickGoesToTheExecutorAndCompletesThere() throws Exception {
        SnowflakeIdService ids = service(FOUR_A_TICK);
        long last = 0;
        for (int i = 0; i < 4; i++) {
            last = ids.nextIdAsync("orders", blocking).join();
        }
        assertThat(blocking.calls()).isZero();

        CompletableFuture<Long> fifth = ids.nextIdAsync("orders", blocking);
        assertThat(blocking.calls()).isEqualTo(1);
        // The manual clock does not move by itself: the call is waiting for it on the executor, not on this thread.
        assertThat(fifth).isNotDone();
        time.advanceMillis(1);
        assertThat(await(fifth)).isGreaterThan(last);
        assertThat(ids.generatedCount()).isEqualTo(5);
    }

    @Test
    void aBatchLargerThanWhatTheTickHasContinuesOnTheExecutorInOrder() throws Exception {
        SnowflakeIdService ids = service(FOUR_A_TICK);
        CompletableFuture<long[]> batch = ids.nextIdsAsync("orders", 10, blocking);
        assertThat(blocking.calls()).isEqualTo(1);
        assertThat(batch).isNotDone();
        assertThat(ids.generator().lastTimestampMillis())
                .as("four IDs taken at once, in the current tick")
                .isEqualTo(time.currentTimeMillis());
        for (int tick = 0; tick < 3 && !batch.isDone(); tick++) {
            // Each tick gives four more; the blocking call takes them as the clock moves.
            long now = time.advanceMillis(1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ids.generator().lastTimestampMillis() != now && !batch.isDone()) {
                assertThat(System.nanoTime())
                        .as("the blocking call took the new tick")
                        .isLessThan(deadline);
                Thread.onSpinWait();
            }
        }
        assertThat(await(batch)).hasSize(10).isSorted().doesNotHaveDuplicates();
        assertThat(ids.generatedCount()).isEqualTo(10);
        assertThat(blocking.calls()).isEqualTo(1);
    }

    @Test
    void aClockBehindBeyondTheToleranceFailsTheFutureAtOnceAndWithinItWaitsOnTheExecutor() throws Exception {
        SnowflakeIdService ids = service(SnowflakeLayout.standard());
        ids.nextIdAsync("orders", blocking).join();
        time.advanceMillis(-3); // within the default 5 ms
        CompletableFuture<Long> within = ids.nextIdAsync("orders", blocking);
        assertThat(blocking.calls()).isEqualTo(1);
        time.advanceMillis(4);
        assertThat(await(within)).isPositive();

        time.advanceMillis(-60_000);
        // The blocking call counts the clock it found behind only if it ran before the clock moved on.
        long eventsBefore = ids.generator().clockBackwardsEvents();
        CompletableFuture<Long> beyond = ids.nextIdAsync("orders", blocking);
        assertThat(beyond).isCompletedExceptionally();
        assertThatThrownBy(beyond::get).hasCauseInstanceOf(ClockBackwardsException.class);
        assertThat(blocking.calls()).isEqualTo(1);
        assertThat(ids.generator().clockBackwardsEvents())
                .as("the refusal counts")
                .isEqualTo(eventsBefore + 1);
    }

    @Test
    void aClosedGeneratorFailsTheFutureAtOnce() {
        SnowflakeIdService ids = service(SnowflakeLayout.standard());
        ids.close();
        CompletableFuture<Long> one = ids.nextIdAsync("orders", blocking);
        CompletableFuture<long[]> batch = ids.nextIdsAsync("orders", 3, blocking);
        assertThatThrownBy(one::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IdGenerationException.class);
        assertThatThrownBy(batch::get).hasCauseInstanceOf(IdGenerationException.class);
        assertThat(blocking.calls()).isZero();
    }

    @Test
    void argumentErrorsAreThrownAtOnce() {
        SnowflakeIdService ids = service(SnowflakeLayout.standard());
        assertThatThrownBy(() -> ids.nextIdAsync("no spaces", blocking)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> ids.nextIdsAsync("orders", 0, blocking))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("count");
        assertThat(ids.generatedCount()).isZero();
    }
}
