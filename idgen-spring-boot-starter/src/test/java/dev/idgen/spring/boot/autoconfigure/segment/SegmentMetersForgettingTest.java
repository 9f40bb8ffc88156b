package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SegmentMetersForgettingTest {

    @Test
    void aForgottenNameTakesItsMetersAlongAndFreesItsPlaceWhileTheGeneratedCountStays() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (SegmentIdService segments =
                SegmentIdService.builder(new InMemorySegmentStore()).build()) {
            new SegmentMeters().bind(registry, segments, Tags.of("generator", "invoice"));
            for (int i = 0; i < SegmentMeters.METERED_NAMES; i++) {
                segments.nextId("n" + i + ":20261123");
            }
            assertThat(registry.find("idgen.segment.step")
                            .tag("name", "n0:20261123")
                            .gauge())
                    .isNotNull();

            assertThat(segments.forgetNames(name -> name.endsWith(":20261123"))).isEqualTo(SegmentMeters.METERED_NAMES);
            assertThat(registry.find("idgen.segment.step")
                            .tag("name", "n0:20261123")
                            .gauge())
                    .isNull();
            assertThat(registry.find("idgen.segment.remaining")
                            .tag("name", "n0:20261123")
                            .gauges())
                    .isEmpty();
            assertThat(registry.get("idgen.ids.generated").functionCounter().count())
                    .isEqualTo(SegmentMeters.METERED_NAMES);

            // The places are free again: a new day's name gets meters of its own, not the "(other)" sum.
            segments.nextId("n0:20261124");
            assertThat(registry.find("idgen.segment.step")
                            .tag("name", "n0:20261124")
                            .gauge())
                    .isNotNull();
            assertThat(registry.find("idgen.segment.waits")
                            .tag("name", SegmentMeters.OTHER_NAMES)
                            .functionCounter())
                    .isNull();
        }
    }
}
