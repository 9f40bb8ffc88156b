package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.OwnRedis;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The redis profile on both web stacks while its Redis is down: a Redis of the test's own is killed, requests get 503
 * {@code application/problem+json} (the store may come back, so retrying later can succeed), and once Redis is back
 * the service serves again, above every ID it issued before.
 */
class RedisOutageResponseTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Generous: on a loaded machine a first call after Redis returns may take seconds. */
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"redis", "reactive,redis"})
    void aRedisThatIsDownIs503ProblemJsonUntilItIsBack(String profiles) throws Exception {
        try (OwnRedis redis = OwnRedis.start();
                // Reactive: on Netty loops of its own (SeparateNettyLoopsInTests), so closing it leaves the other
                // test contexts' servers running.
                ConfigurableApplicationContext app = new SpringApplicationBuilder(IdServiceApplication.class)
                        .run(
                                "--spring.profiles.active=" + profiles,
                                "--server.port=0",
                                "--spring.data.redis.host=127.0.0.1",
                                "--spring.data.redis.port=" + redis.port(),
                                "--idgen.redis.prefix=outage:",
                                "--spring.datasource.url=jdbc:h2:mem:outage-" + UUID.randomUUID()
                                        + ";DB_CLOSE_DELAY=-1",
                                "--spring.datasource.username=sa")) {
            WebServer server = ((WebServerApplicationContext) app).getWebServer();
            assertThat(server)
                    .isInstanceOf(profiles.startsWith("reactive") ? NettyWebServer.class : TomcatWebServer.class);
            int port = server.getPort();
            List<Long> before = ids(SampleHttp.get(port, "/ids/orders?count=5"));

            redis.kill();
            HttpResponse<String> refused = awaitStatus(port, "/ids/orders?count=5", 503);
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            JsonNode problem = JSON.readTree(refused.body());
            assertThat(problem.get("status").asInt()).isEqualTo(503);
            assertThat(problem.get("type").asString()).isEqualTo("https://idgen.dev/problems/generation-failed");
            assertThat(problem.get("title").asString()).isEqualTo("No ID could be issued safely");
            HttpResponse<String> readable = awaitStatus(port, "/ids/readable?biz=ORD", 503);
            assertThat(readable.headers().firstValue("Content-Type")).hasValue("application/problem+json");

            redis.startServer();
            List<Long> after = ids(awaitStatus(port, "/ids/orders?count=5", 200));
            assertThat(after.get(0)).isGreaterThan(before.get(before.size() - 1));
        }
    }

    /** Asks until the answer has {@code status}; any answer but that one or 200 and 503 fails at once. */
    private static HttpResponse<String> awaitStatus(int port, String path, int status) throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            HttpResponse<String> response = SampleHttp.get(port, path);
            if (response.statusCode() == status) {
                return response;
            }
            assertThat(response.statusCode()).as(response.body()).isIn(200, 503);
            assertThat(System.nanoTime())
                    .as("%s still answers %s after %s: %s", path, response.statusCode(), DEADLINE, response.body())
                    .isLessThan(deadline);
            // Between tries: the store's own timeouts bound each call; this only keeps the loop from spinning.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static List<Long> ids(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<Long> ids = new ArrayList<>();
        JSON.readTree(response.body()).forEach(id -> ids.add(Long.parseLong(id.asString())));
        assertThat(ids).isNotEmpty().isSorted();
        return ids;
    }
}
