package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.ManualTimeSource;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A clock that jumps back beyond the tolerance: requests get 503 problem+json with Retry-After, health goes DOWN, and
 * both recover once the clock has caught up.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ClockBackwardsResponseTest {

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private ManualTimeSource time;

    private HttpResponse<String> get(String path) throws Exception {
        return SampleHttp.get(port, path);
    }

    @Test
    void refusesWith503AndHealthDownUntilTheClockCatchesUp() throws Exception {
        time.advanceMillis(1);
        assertThat(get("/ids/orders").statusCode()).isEqualTo(200);

        time.advanceMillis(-30_000);
        HttpResponse<String> refused = get("/ids/orders");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");
        assertThat(refused.body()).contains("clock-backwards", "30000 ms behind");
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(503);
        assertThat(health.body()).contains("\"idgen\":{\"details\"").contains("\"status\":\"DOWN\"");

        time.advanceMillis(30_000);
        assertThat(get("/ids/orders").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ManualClock {

        @Bean
        ManualTimeSource manualTimeSource() {
            return new ManualTimeSource(Instant.parse("2026-06-01T00:00:00Z"));
        }
    }
}
