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
 * The documented {@code redis} profile on the real Redis, over HTTP; its database floor on an embedded H2 here
 * instead of MariaDB.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("redis")
class RedisProfileTest {

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        SampleRedis.register(registry);
        registry.add(
                "idgen.redis.prefix",
                () -> "sample" + UUID.randomUUID().toString().substring(0, 8) + ":");
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:redis-profile;DB_CLOSE_DELAY=-1");
        registry.add("spring.datasource.username", () -> "sa");
    }

    @Test
    void servesRedisIdsAndReadableIds() throws Exception {
        assertServesRedisIdsAndReadableIds(port);
    }

    /** What the redis profile serves, on a fresh prefix: also run on WebFlux by {@link ReactiveRedisProfileTest}. */
    static void assertServesRedisIdsAndReadableIds(int port) throws Exception {
        assertThat(SampleHttp.get(port, "/ids/orders?count=3").body()).isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(SampleHttp.get(port, "/ids/decode/3").body()).isEqualTo("{\"strategy\":\"redis\",\"id\":\"3\"}");
        HttpResponse<String> readable = SampleHttp.get(port, "/ids/readable?biz=ORD");
        assertThat(readable.statusCode()).isEqualTo(200);
        String id = readable.body().replaceAll("[\\[\\]\"]", "");
        assertThat(id).matches("\\d{15}ORD\\d{3}\\d{5}");
        assertThat(SampleHttp.get(port, "/ids/readable/decode/" + id).body())
                .contains("\"bizCode\":\"ORD\"")
                .contains("\"timestamp\":\"20");
        assertThat(SampleHttp.get(port, "/ids/readable?biz=TOOLONG").statusCode())
                .isEqualTo(400);
        assertThat(SampleHttp.get(port, "/actuator/health").body())
                .contains("\"strategy\":\"redis\"")
                .contains("\"readableIdBucketsOpen\":0");
    }
}
