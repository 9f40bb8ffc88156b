package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented {@code redis-lease} profile: Snowflake with a worker id leased from the real Redis, over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("redis-lease")
class RedisLeaseProfileTest {

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        SampleRedis.register(registry);
        registry.add(
                "idgen.redis.prefix",
                () -> "sample" + UUID.randomUUID().toString().substring(0, 8) + ":");
    }

    @Test
    void decodeShowsTheLeasedWorkerIdAndHealthShowsTheLease() throws Exception {
        HttpResponse<String> ids = SampleHttp.get(port, "/ids/orders");
        assertThat(ids.statusCode()).isEqualTo(200);
        String id = ids.body().replaceAll("[\\[\\]\"]", "");
        assertThat(SampleHttp.get(port, "/ids/decode/" + id).body()).contains("\"workerId\":0");
        assertThat(SampleHttp.get(port, "/actuator/health").body())
                .contains("\"leaseOwner\":")
                .contains("\"leaseRemainingMillis\":")
                .contains("\"redis\":{");
    }
}
