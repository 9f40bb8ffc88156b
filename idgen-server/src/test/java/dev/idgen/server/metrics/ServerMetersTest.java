package dev.idgen.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerMetersTest {

    @Test
    void namesPastTheLimitShareOneTagSoACallerCannotMintMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ServerMeters meters = new ServerMeters(registry);
        for (int i = 0; i < ServerMeters.MAX_NAME_TAGS + 50; i++) {
            meters.request("svc", "name-" + i, "ids", "http", "ok", 1_000);
        }
        // A name tagged before the limit keeps its own meter.
        meters.request("svc", "name-0", "ids", "http", "ok", 1_000);

        assertThat(registry.find(ServerMeters.REQUESTS).timers()).hasSize(ServerMeters.MAX_NAME_TAGS + 1);
        assertThat(registry.get(ServerMeters.REQUESTS)
                        .tag("name", ServerMeters.OTHER_NAMES)
                        .timer()
                        .count())
                .isEqualTo(50);
        assertThat(registry.get(ServerMeters.REQUESTS)
                        .tag("name", "name-0")
                        .timer()
                        .count())
                .isEqualTo(2);
    }

    @Test
    void aNameWithLessThanOnePercentOfItsIdsLeftIsRunningOutInHealthAndItsGauge() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ServerMeters meters = new ServerMeters(registry);
        NamesRunningOutHealth health = new NamesRunningOutHealth(meters, 1_000_000);
        meters.remaining("orders", 500_000);
        assertThat(health.health().getStatus().getCode()).isEqualTo("UP");

        meters.remaining("payments", 9_999);
        assertThat(health.health().getStatus().getCode()).isEqualTo(NamesRunningOutHealth.RUNNING_OUT);
        assertThat(health.health().getDetails()).containsEntry("remaining", Map.of("payments", 9_999L));
        assertThat(registry.get(ServerMeters.NAME_REMAINING)
                        .tag("name", "payments")
                        .gauge()
                        .value())
                .isEqualTo(9_999);
    }
}
