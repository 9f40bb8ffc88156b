package dev.idgen.core.period;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.CountingExecutor;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PeriodicIdService}'s async calls add no hop of their own: over segments with IDs in memory the future is
 * complete when returned; a period's first call (a new name to the segments, which must load) goes to
 * {@code blocking}, as the delegate decides.
 */
class PeriodicIdServiceAsyncTest {

    private final ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-23T10:00:00Z"));
    private final CountingExecutor blocking = new CountingExecutor();
    private final SegmentIdService segments = SegmentIdService.builder(new InMemorySegmentStore())
            .settings(SegmentSettings.builder().step(1000).maxStep(1000).build())
            .build();
    private final PeriodicIdService ids = PeriodicIdService.builder()
            .delegate(segments)
            .period(Period.DAILY)
            .zone(ZoneOffset.UTC)
            .timeSource(clock)
            .build();

    @AfterEach
    void close() throws InterruptedException {
        ids.close();
        blocking.close();
    }

    @Test
    void aPeriodsFirstCallLoadsOnTheExecutorAndLaterCallsCompleteAtOnce() throws Exception {
        CompletableFuture<Long> first = ids.nextIdAsync("invoice", blocking);
        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(2026112300000001L);
        assertThat(blocking.calls()).isEqualTo(1);

        CompletableFuture<Long> second = ids.nextIdAsync("invoice", blocking);
        assertThat(second).isCompletedWithValue(2026112300000002L);
        CompletableFuture<long[]> batch = ids.nextIdsAsync("invoice", 3, blocking);
        assertThat(batch).isCompleted();
        assertThat(batch.join()).containsExactly(2026112300000003L, 2026112300000004L, 2026112300000005L);
        assertThat(blocking.calls()).isEqualTo(1);

        clock.advanceMillis(24 * 3600 * 1000L);
        CompletableFuture<Long> nextDay = ids.nextIdAsync("invoice", blocking);
        assertThat(nextDay.get(30, TimeUnit.SECONDS)).isEqualTo(2026112400000001L);
        assertThat(blocking.calls()).isEqualTo(2);
    }

    @Test
    void argumentErrorsAreThrownAtOnce() {
        assertThatThrownBy(() -> ids.nextIdAsync("n".repeat(56), blocking))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at most 55");
        assertThatThrownBy(() -> ids.nextIdsAsync("invoice", 0, blocking)).isInstanceOf(InvalidArgumentException.class);
        assertThat(blocking.calls()).isZero();
    }
}
