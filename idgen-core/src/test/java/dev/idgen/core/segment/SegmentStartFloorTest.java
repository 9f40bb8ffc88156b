package dev.idgen.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SegmentStartFloorTest {

    private static final SegmentSettings SETTINGS = SegmentSettings.builder()
            .step(10)
            .firstLoadTimeout(Duration.ofSeconds(5))
            .build();

    @Test
    void everyNameStartsAboveItsFloorAndTheStoreMovesPastIt() {
        InMemorySegmentStore store = new InMemorySegmentStore();
        try (SegmentIdService ids = SegmentIdService.builder(store)
                .settings(SETTINGS)
                .startFloor(name -> name.equals("orders") ? 3000 : 0)
                .build()) {
            assertThat(ids.nextId("orders")).isEqualTo(3001);
            assertThat(ids.nextId("users")).isEqualTo(1);
        }
        // The store itself moved past the floor: a later instance without one goes on from there.
        assertThat(store.allocate("orders", 1).first()).isGreaterThan(3001);
    }

    @Test
    void aFloorThatCannotBeReadIssuesNothingUntilItCanAndIsReadOnce() {
        InMemorySegmentStore store = new InMemorySegmentStore();
        AtomicBoolean readable = new AtomicBoolean(false);
        AtomicInteger reads = new AtomicInteger();
        SegmentStartFloor floor = name -> {
            if (!readable.get()) {
                throw new StoreUnavailableException("the previous store cannot be reached");
            }
            reads.incrementAndGet();
            return 500;
        };
        try (SegmentIdService ids = SegmentIdService.builder(store)
                .settings(SegmentSettings.builder()
                        .step(10)
                        .firstLoadTimeout(Duration.ofMillis(300))
                        .build())
                .startFloor(floor)
                .build()) {
            assertThatThrownBy(() -> ids.nextId("orders"))
                    .isInstanceOf(IdGenerationException.class)
                    .hasMessageContaining("previous store");
            assertThat(store.allocations()).isZero();
            readable.set(true);
            long first = awaitId(ids);
            assertThat(first).isEqualTo(501);
            for (int i = 0; i < 50; i++) {
                assertThat(ids.nextId("orders")).isGreaterThan(first + i);
            }
            assertThat(reads).hasValue(1);
        }
    }

    private static long awaitId(SegmentIdService ids) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return ids.nextId("orders");
            } catch (IdGenerationException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }
}
