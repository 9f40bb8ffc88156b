package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code reactive,redis}: the redis strategy and readable IDs served on WebFlux from the real Redis, with what
 * {@link RedisProfileTest} checks on Spring MVC, and many requests at once; the database floor on an embedded H2 of
 * its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"reactive", "redis"})
class ReactiveRedisProfileTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private WebServerApplicationContext context;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        SampleRedis.register(registry);
        registry.add(
                "idgen.redis.prefix",
                () -> "reactive" + UUID.randomUUID().toString().substring(0, 8) + ":");
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:reactive-redis-profile;DB_CLOSE_DELAY=-1");
        registry.add("spring.datasource.username", () -> "sa");
    }

    @Test
    void servesRedisIdsAndReadableIdsOnNetty() throws Exception {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
        RedisProfileTest.assertServesRedisIdsAndReadableIds(port);
    }

    /** Requests at once on two names and readable IDs: every one answered, no ID twice. */
    @Test
    void concurrentRequestsGetDistinctIds() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            String path = switch (i % 3) {
                case 0 -> "/ids/busy-a?count=20";
                case 1 -> "/ids/busy-b?count=20";
                default -> "/ids/readable?biz=ORD";
            };
            answers.add(http.sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        Set<String> a = new HashSet<>();
        Set<String> b = new HashSet<>();
        Set<String> readable = new HashSet<>();
        for (int i = 0; i < answers.size(); i++) {
            HttpResponse<String> response = answers.get(i).get();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            Set<String> issued = i % 3 == 0 ? a : i % 3 == 1 ? b : readable;
            for (JsonNode id : JSON.readTree(response.body())) {
                assertThat(issued.add(id.asString()))
                        .as("ID %s issued twice", id.asString())
                        .isTrue();
            }
        }
        assertThat(a).hasSize(50 * 20);
        assertThat(b).hasSize(50 * 20);
        assertThat(readable).hasSize(50).allMatch(id -> id.matches("\\d{15}ORD\\d{3}\\d{5}"));
    }
}
