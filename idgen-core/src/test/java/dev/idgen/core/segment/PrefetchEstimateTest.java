package dev.idgen.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PrefetchEstimateTest {

    private static final long MS = 1_000_000L;

    private static final long SECOND = 1_000 * MS;

    private final PrefetchEstimate estimate = new PrefetchEstimate();

    @Test
    void withoutARateOneBlockIsEnough() {
        estimate.blockStarted(0);
        assertThat(estimate.loadReady(0, 50 * MS, 1000)).isEqualTo(1);
    }

    @Test
    void theDepthHoldsSafetyTimesTheIdsServedDuringOneLoad() {
        estimate.blockStarted(0);
        estimate.blockUsedUp(1000, MS); // a million IDs per second
        assertThat(estimate.servingRate()).isCloseTo(1e6, within(1.0));
        // 10 ms per load: 10,000 IDs, three times that in blocks of 1,000.
        assertThat(estimate.loadReady(MS, 11 * MS, 1000)).isEqualTo(30);
        assertThat(estimate.loadLatencyNanos()).isEqualTo(10 * MS);
    }

    @Test
    void theDepthIsCappedAtMaxDepth() {
        estimate.blockStarted(0);
        estimate.blockUsedUp(1000, MS);
        assertThat(estimate.loadReady(MS, 101 * MS, 1000)).isEqualTo(PrefetchEstimate.MAX_DEPTH);
    }

    @Test
    void aSpikeCountsAtOnceAndIsForgottenByHalfEveryHalfLife() {
        estimate.blockStarted(0);
        estimate.blockUsedUp(1000, MS); // 1e6 per second
        long later = MS + PrefetchEstimate.HALF_LIFE_NANOS;
        estimate.blockUsedUp(1, later); // next to nothing: the maximum, halved, stands
        assertThat(estimate.servingRate()).isCloseTo(5e5, within(1.0));

        // 5e5 per second for a 10 ms load: 5,000 IDs, three times that in blocks of 1,000.
        assertThat(estimate.loadReady(later, later + 10 * MS, 1000)).isEqualTo(15);
        // Two half-lives after that load, a 1 ms load: the 10 ms, twice halved, stands.
        long calm = later + 10 * MS + 2 * PrefetchEstimate.HALF_LIFE_NANOS - MS;
        estimate.loadReady(calm, calm + MS, 1000);
        assertThat(estimate.loadLatencyNanos()).isEqualTo(10 * MS / 4);
    }

    @Test
    void aBlockUsedUpWithoutTimePassingIsNoSample() {
        estimate.blockStarted(5 * MS);
        estimate.blockUsedUp(1000, 5 * MS);
        assertThat(estimate.servingRate()).isZero();
        // Nor before it started (nanoTime compared by a clock that jumped in a test).
        estimate.blockUsedUp(1000, 4 * MS);
        assertThat(estimate.servingRate()).isZero();
    }
}
