package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.server.ServerHttp.Answer;
import dev.idgen.server.access.NanoClock;
import dev.idgen.test.services.TestServices;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP face on a real MariaDB: the default generator hands out segments from a table, the generator {@code snow}
 * is Snowflake. Clients: {@code app} (every name), {@code limited} (one name, 2 requests per second on a clock the
 * test moves), {@code snowy} (the generator {@code snow} only).
 */
@SpringBootTest(
        classes = IdgenServerApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "idgen.strategy=segment",
            "idgen.segment.step=100",
            "idgen.jdbc.table=idgen_server_test_segment",
            "idgen.jdbc.initialize-schema=always",
            "idgen.generators.snow.strategy=snowflake",
            "idgen.server.max-block-size=100000",
            "idgen.server.clients.limited.names=limited-name",
            "idgen.server.clients.limited.rate-limit=2",
            "idgen.server.clients.snowy.generators=snow",
        })
@Import({HttpApiTest.FakeClock.class, HttpApiTest.MvcHandlerCalls.class})
class HttpApiTest {

    static final String APP = "app-token";

    static final String LIMITED = "limited-token";

    static final String SNOWY = "snowy-token";

    /** The rate limits' clock: moved by the test, never by time passing. */
    static final AtomicLong NANOS = new AtomicLong(1_000_000_000_000L);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        registry.add("spring.datasource.url", mariadb::url);
        registry.add("spring.datasource.username", mariadb::username);
        registry.add("spring.datasource.password", mariadb::password);
        // The tokens' hashes computed here, so that the test's tokens and the configured hashes cannot drift apart.
        registry.add("idgen.server.clients.app.token-hash", () -> ServerHttp.tokenHash(APP));
        registry.add("idgen.server.clients.limited.token-hash", () -> ServerHttp.tokenHash(LIMITED));
        registry.add("idgen.server.clients.snowy.token-hash", () -> ServerHttp.tokenHash(SNOWY));
    }

    @TestConfiguration
    static class FakeClock {

        @Bean
        NanoClock testNanoClock() {
            return NANOS::get;
        }
    }

    /** Counts the requests Spring MVC dispatched to a handler method, to tell them from those answered before MVC. */
    @TestConfiguration
    static class MvcHandlerCalls implements WebMvcConfigurer {

        static final AtomicLong CALLS = new AtomicLong();

        @Override
        public void addInterceptors(InterceptorRegistry registry) {
            registry.addInterceptor(new HandlerInterceptor() {
                @Override
                public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
                    CALLS.incrementAndGet();
                    return true;
                }
            });
        }
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    MeterRegistry meters;

    ServerHttp http;

    /** A name of this run's own: the table outlives the test. */
    final String name = "orders-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void setUp() {
        http = new ServerHttp("http://127.0.0.1:" + port);
    }

    @Test
    void idsAreDecimalStringsAndDecodeByTheirGenerator() {
        Answer ids = http.get("/ids/" + name + "?count=5", APP);
        assertThat(ids.status()).as(ids.toString()).isEqualTo(200);
        // No cache between caller and server may keep IDs to hand to the next caller.
        assertThat(ids.header("Cache-Control")).isEqualTo("no-store");
        List<Long> numbers = new ArrayList<>();
        for (JsonNode id : ids.json()) {
            assertThat(id.isString()).as(ids.toString()).isTrue();
            numbers.add(Long.parseLong(id.stringValue()));
        }
        assertThat(numbers).hasSize(5).isSorted().doesNotHaveDuplicates();
        assertThat(http.get("/ids/" + name, APP).json()).hasSize(1);

        Answer decoded = http.get("/ids/" + name + "/decode/" + numbers.get(0), APP);
        assertThat(decoded.status()).as(decoded.toString()).isEqualTo(200);
        assertThat(decoded.json().get("id").stringValue())
                .isEqualTo(numbers.get(0).toString());
        assertThat(decoded.json().get("strategy").stringValue()).isEqualTo("segment");

        String snowId = http.get("/ids/snow?count=2", APP).json().get(0).stringValue();
        JsonNode snow = http.get("/ids/snow/decode/" + snowId, APP).json();
        assertThat(snow.get("generator").stringValue()).isEqualTo("snow");
        assertThat(snow.get("strategy").stringValue()).isEqualTo("snowflake");
        assertThat(snow.get("id").stringValue()).isEqualTo(snowId);
        assertThat(snow.get("timestamp").isString()).as(snow.toString()).isTrue();

        Answer byDefault = http.get("/ids/decode/" + numbers.get(1), APP);
        assertThat(byDefault.status()).as(byDefault.toString()).isEqualTo(200);
        assertThat(byDefault.json().get("generator").stringValue()).isEqualTo("default");
    }

    @Test
    void blocksAreStringsAboveTheFloorAndCounted() {
        Answer block = http.post("/blocks/" + name + "?size=1000", APP);
        assertThat(block.status()).as(block.toString()).isEqualTo(200);
        JsonNode json = block.json();
        assertThat(json.get("name").stringValue()).isEqualTo(name);
        assertThat(json.get("first").isString()).isTrue();
        assertThat(json.get("last").isString()).isTrue();
        long first = Long.parseLong(json.get("first").stringValue());
        long last = Long.parseLong(json.get("last").stringValue());
        assertThat(last - first + 1).isEqualTo(1000);
        assertThat(json.get("size").asLong()).isEqualTo(1000);

        Answer above = http.post("/blocks/" + name + "?size=10&above=5000000000", APP);
        assertThat(above.status()).as(above.toString()).isEqualTo(200);
        assertThat(Long.parseLong(above.json().get("first").stringValue())).isGreaterThan(5_000_000_000L);

        // The server's own IDs of the name come from the same row: after the floor, above it too.
        long next = Long.parseLong(http.get("/ids/" + name, APP).json().get(0).stringValue());
        assertThat(next).isGreaterThan(Long.parseLong(above.json().get("last").stringValue()));

        Counter counted = meters.find("idgen.server.block.ids")
                .tags("client", "app", "name", name)
                .counter();
        assertThat(counted).isNotNull();
        assertThat(counted.count()).isEqualTo(1010);
    }

    @Test
    void aFloorAboveARowThatWentBackIsServedAndOneNoClientCanHoldIsRefused() throws Exception {
        Answer block = http.post("/blocks/" + name + "?size=100", APP);
        long served = Long.parseLong(block.json().get("last").stringValue());
        // What a failover to a lagging replica leaves: the row behind IDs a client already served.
        try (Connection connection = TestServices.mariadb().connect();
                PreparedStatement back =
                        connection.prepareStatement("UPDATE idgen_server_test_segment SET max_id = 1 WHERE name = ?")) {
            back.setString(1, name);
            assertThat(back.executeUpdate()).isEqualTo(1);
        }
        Answer above = http.post("/blocks/" + name + "?size=10&above=" + served, APP);
        assertThat(above.status()).as(above.toString()).isEqualTo(200);
        assertThat(Long.parseLong(above.json().get("first").stringValue())).isGreaterThan(served);

        // Far past what any client can hold (the IDs issued, the failover jump, one largest block): refused, and the
        // name goes on for everyone.
        assertProblem(http.post("/blocks/" + name + "?size=10&above=10000000000000", APP), 400, "above");
        assertProblem(http.post("/blocks/" + name + "?size=1&above=9223372032559808510", APP), 400, "above");
        Answer ids = http.get("/ids/" + name + "?count=3", APP);
        assertThat(ids.status()).as(ids.toString()).isEqualTo(200);
        assertThat(Long.parseLong(ids.json().get(0).stringValue())).isLessThan(1_000_000_000_000L);
    }

    @Test
    void blocksOfASnowflakeNameAreNotFound() {
        Answer answer = http.post("/blocks/snow?size=10", APP);
        assertProblem(answer, 404, null);
        assertThat(answer.json().get("detail").stringValue())
                .contains("segment generator")
                .contains("'snow'")
                .contains("snowflake");
    }

    @Test
    void blockAccessSaysWhatTheClientMayUse() {
        JsonNode app = http.get("/blocks", APP).json();
        assertThat(app.get("client").stringValue()).isEqualTo("app");
        assertThat(app.get("names").toString()).isEqualTo("[\"*\"]");
        assertThat(app.get("generators").toString()).isEqualTo("[\"default\"]");

        JsonNode limited = http.get("/blocks", LIMITED).json();
        assertThat(limited.get("names").toString()).isEqualTo("[\"limited-name\"]");
        assertThat(limited.get("generators").toString()).isEqualTo("[\"default\"]");

        JsonNode snowy = http.get("/blocks", SNOWY).json();
        assertThat(snowy.get("names").toString()).isEqualTo("[]");
        assertThat(snowy.get("generators").toString()).isEqualTo("[]");
        assertProblem(http.get("/blocks", null), 401, null);
    }

    @Test
    void withoutAValidBearerTokenTheAnswerIs401() {
        for (String token : new String[] {null, "wrong-token", "Basic YXBwOmFwcA=="}) {
            Answer answer = http.get("/ids/" + name, token);
            assertProblem(answer, 401, null);
            assertThat(answer.header("WWW-Authenticate")).as(answer.toString()).isEqualTo("Bearer");
            assertThat(answer.json().get("detail").stringValue()).isNotBlank();
        }
        assertProblem(http.post("/blocks/" + name + "?size=1", "wrong-token"), 401, null);
    }

    @Test
    void aNameTheClientMayNotUseIs403() {
        Answer answer = http.get("/ids/" + name, LIMITED);
        assertProblem(answer, 403, null);
        assertThat(answer.json().get("detail").stringValue()).contains(name).contains("limited");
        // The generator 'snow' serves only the name snow: the client of that generator may use it and no other.
        assertThat(http.get("/ids/snow", SNOWY).status()).isEqualTo(200);
        assertProblem(http.get("/ids/" + name, SNOWY), 403, null);
        assertThat(meters.find("idgen.server.requests")
                        .tags("client", "snowy", "name", "other", "outcome", "forbidden")
                        .timer())
                .isNotNull();
    }

    @Test
    void overTheRateLimitTheAnswerIs429UntilTheBucketRefills() {
        NANOS.addAndGet(TimeUnit.SECONDS.toNanos(10)); // a full bucket, whatever ran before
        assertThat(http.get("/ids/limited-name", LIMITED).status()).isEqualTo(200);
        assertThat(http.get("/ids/limited-name", LIMITED).status()).isEqualTo(200);
        Answer limited = http.get("/ids/limited-name", LIMITED);
        assertProblem(limited, 429, null);
        assertThat(limited.header("Retry-After")).isEqualTo("1");
        // Other clients have buckets of their own.
        assertThat(http.get("/ids/" + name, APP).status()).isEqualTo(200);

        NANOS.addAndGet(TimeUnit.MILLISECONDS.toNanos(500)); // one request's worth
        assertThat(http.get("/ids/limited-name", LIMITED).status()).isEqualTo(200);
        assertProblem(http.get("/ids/limited-name", LIMITED), 429, null);

        Timer refused = meters.find("idgen.server.requests")
                .tags("client", "limited", "name", "limited-name", "operation", "ids", "transport", "http")
                .tag("outcome", "rate_limited")
                .timer();
        assertThat(refused).isNotNull();
        assertThat(refused.count()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void badArgumentsAre400NamingTheParameter() {
        assertProblem(http.get("/ids/" + name + "?count=0", APP), 400, "count");
        assertProblem(http.get("/ids/" + name + "?count=abc", APP), 400, "count");
        assertProblem(http.get("/ids/" + name + "?count=", APP), 400, "count");
        assertProblem(http.get("/ids/" + name + "?count=1001", APP), 400, "count");
        assertProblem(http.get("/ids/_bad", APP), 400, "name");
        assertProblem(http.get("/ids/" + name + "/decode/abc", APP), 400, "id");
        assertProblem(http.get("/ids/" + name + "/decode/-5", APP), 400, "id");
        assertProblem(http.get("/ids/" + name + "?shardKey=k", APP), 400, "shardKey");
        assertProblem(http.post("/blocks/" + name, APP), 400, "size");
        assertProblem(http.post("/blocks/" + name + "?size=0", APP), 400, "size");
        assertProblem(http.post("/blocks/" + name + "?size=100001", APP), 400, "size");
        assertProblem(http.post("/blocks/" + name + "?size=ten", APP), 400, "size");
        assertProblem(http.post("/blocks/" + name + "?size=10&above=-1", APP), 400, "above");
        assertProblem(http.post("/blocks/" + name + "?size=10&above=x", APP), 400, "above");
        assertProblem(http.post("/blocks/_bad?size=10", APP), 400, "name");

        Timer invalid = meters.find("idgen.server.requests")
                .tags("client", "app", "name", "invalid", "operation", "block", "outcome", "bad_argument")
                .timer();
        assertThat(invalid).isNotNull();
    }

    @Test
    void springsOwnErrorsAreProblemJsonToo() {
        assertProblem(http.get("/no/such/path", APP), 404, null);
        assertProblem(http.get("/blocks/" + name, APP), 405, null);
        assertProblem(http.send(http.request("/ids/" + name, APP).DELETE()), 405, null);
    }

    @Test
    void requestsAreTimedByClientNameOperationTransportAndOutcome() {
        http.get("/ids/" + name + "?count=3", APP);
        http.get("/ids/" + name + "/decode/1", APP);
        http.post("/blocks/" + name + "?size=5", APP);
        for (String operation : new String[] {"ids", "decode", "block"}) {
            Timer timer = meters.find("idgen.server.requests")
                    .tags("client", "app", "name", name, "operation", operation, "transport", "http")
                    .tag("outcome", "ok")
                    .timer();
            assertThat(timer).as(operation).isNotNull();
            assertThat(timer.count()).as(operation).isEqualTo(1);
        }
        // The actuator is on a port of its own (loopback by default), where it needs no token.
        ServerHttp management = new ServerHttp("http://127.0.0.1:" + managementPort);
        Answer prometheus = management.get("/actuator/prometheus", null);
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.response().body())
                .contains("idgen_server_requests_seconds_count{")
                .contains("name=\"" + name + "\"")
                .contains("idgen_server_block_ids_total{")
                .contains("idgen_server_name_remaining_ids{name=\"" + name + "\"");
        assertThat(management.get("/actuator/health", null).status()).isEqualTo(200);
    }

    @Test
    void theApiPortServesNoActuatorAndHealthShowsNoStoreMessages() {
        for (String path : new String[] {
            "/actuator/idgen", "/actuator/idgen/default/decode/1", "/actuator/health", "/actuator/prometheus"
        }) {
            Answer answer = http.get(path, null);
            assertThat(answer.status()).as(path).isEqualTo(404);
            assertThat(answer.contentType()).as(path).startsWith("application/problem+json");
            assertThat(answer.response().body()).as(path).doesNotContain("segment", "generators");
        }
        Answer health = new ServerHttp("http://127.0.0.1:" + managementPort).get("/actuator/health", null);
        assertThat(health.status()).isEqualTo(200);
        // Each component's status, no details: those carry the stores' messages (hosts, users, SQL states).
        assertThat(health.json().get("components").get("idgen").get("status").stringValue())
                .isEqualTo("UP");
        assertThat(health.response().body()).doesNotContain("details", "jdbc:", "Exception");
    }

    @Test
    void plainIdRequestsAreAnsweredBeforeMvcInTheBytesMvcWrites() {
        long before = MvcHandlerCalls.CALLS.get();
        Answer one = http.get("/ids/" + name, APP);
        Answer three = http.get("/ids/" + name + "?count=3", APP);
        assertThat(MvcHandlerCalls.CALLS.get()).as("requests MVC dispatched").isEqualTo(before);
        // A parameter MVC ignores sends the same request through the controller.
        Answer throughMvc = http.get("/ids/" + name + "?count=3&via=mvc", APP);
        assertThat(MvcHandlerCalls.CALLS.get()).as("requests MVC dispatched").isEqualTo(before + 1);
        for (Answer answer : List.of(one, three, throughMvc)) {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            assertThat(answer.contentType()).isEqualTo(throughMvc.contentType()).isEqualTo("application/json");
            assertThat(answer.header("Cache-Control")).isEqualTo("no-store");
            assertThat(answer.response().body()).matches("\\[\"[0-9]+\"(,\"[0-9]+\")*]");
        }
        assertThat(one.json()).hasSize(1);
        assertThat(three.json()).hasSize(3);
        assertThat(Long.parseLong(three.json().get(0).stringValue()))
                .isGreaterThan(Long.parseLong(one.json().get(0).stringValue()));
        assertThat(Long.parseLong(throughMvc.json().get(0).stringValue()))
                .isGreaterThan(Long.parseLong(three.json().get(2).stringValue()));

        // Refusals: the same problem, the same headers, counted once, whichever way the request went.
        Timer forbidden = meters.timer(
                "idgen.server.requests",
                "client",
                "snowy",
                "name",
                "other",
                "operation",
                "ids",
                "transport",
                "http",
                "outcome",
                "forbidden");
        long forbiddenBefore = forbidden.count();
        String[][] refused = {
            {"", null}, {"", "wrong-token"}, {"?count=x", APP}, {"?count=0", APP}, {"?count=1001", APP}, {"", SNOWY}
        };
        for (String[] request : refused) {
            String path = "/ids/" + name + request[0];
            Answer fast = http.get(path, request[1]);
            Answer mvc = http.get(path + (request[0].isEmpty() ? "?" : "&") + "via=mvc", request[1]);
            assertThat(fast.status())
                    .as(fast.toString())
                    .isEqualTo(mvc.status())
                    .isBetween(400, 499);
            assertThat(fast.response().body()).isEqualTo(mvc.response().body());
            for (String header : new String[] {"Content-Type", "Cache-Control", "WWW-Authenticate", "Retry-After"}) {
                assertThat(fast.header(header)).as(header).isEqualTo(mvc.header(header));
            }
        }
        assertThat(forbidden.count() - forbiddenBefore)
                .as("forbidden requests counted")
                .isEqualTo(2);

        // Refused before a name is known (a token, a malformed count): MVC answers, and Spring's request metric
        // counts it, as before the filter.
        long unauthenticatedBefore = httpServerRequests("401");
        long callsBefore = MvcHandlerCalls.CALLS.get();
        assertProblem(http.get("/ids/" + name, "wrong-token"), 401, null);
        assertProblem(http.get("/ids/" + name + "?count=x", APP), 400, "count");
        assertThat(MvcHandlerCalls.CALLS.get() - callsBefore).isEqualTo(2);
        // Spring records the observation once the answer is out: waited for, not raced.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (httpServerRequests("401") == unauthenticatedBefore && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(httpServerRequests("401") - unauthenticatedBefore).isEqualTo(1);

        // Two Authorization headers are no client's token, as MVC reads them (joined), whichever is valid.
        Answer twoTokens = http.send(http.request("/ids/" + name, APP).header("Authorization", "Bearer nobody"));
        assertProblem(twoTokens, 401, null);
        // Two Accept headers are MVC's to weigh.
        Answer twoAccepts = http.send(http.request("/ids/" + name + "?count=2", APP)
                .header("Accept", "*/*")
                .header("Accept", "application/vnd.x+json"));
        Answer twoAcceptsMvc = http.send(http.request("/ids/" + name + "?count=2&via=mvc", APP)
                .header("Accept", "*/*")
                .header("Accept", "application/vnd.x+json"));
        assertThat(twoAccepts.status()).isEqualTo(twoAcceptsMvc.status());
        assertThat(twoAccepts.contentType()).isEqualTo(twoAcceptsMvc.contentType());

        // An Accept that MVC cannot answer with JSON is MVC's to refuse, as before.
        Answer text = http.send(http.request("/ids/" + name, APP).header("Accept", "text/plain"));
        assertThat(text.status()).as(text.toString()).isEqualTo(406);
    }

    private long httpServerRequests(String status) {
        return meters.find("http.server.requests").tag("status", status).timers().stream()
                .mapToLong(Timer::count)
                .sum();
    }

    @Test
    void tomcatsOwnRefusalsAreProblemJsonToo() throws Exception {
        // Refused by Tomcat before Spring sees them: its error page used to be HTML.
        String[] requests = {
            "GET /ids/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + "t".repeat(9_000) + "\r\n\r\n",
            "GET /ids/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
        };
        for (String request : requests) {
            String answer = rawExchange(request);
            String shown = answer.substring(0, Math.min(300, answer.length()));
            assertThat(answer).as(shown).startsWith("HTTP/1.1 4");
            assertThat(answer.toLowerCase(Locale.ROOT))
                    .as(shown)
                    .contains("content-type: application/problem+json")
                    .doesNotContain("<html");
            assertThat(answer).as(shown).contains("\"status\":4");
        }
    }

    /** @return everything the server answers to {@code request}, sent as it is over a plain socket */
    private String rawExchange(String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            // The server closes the connection after such an error, or the body ends with the closing brace.
            for (int read; (read = socket.getInputStream().read(buffer)) > 0; ) {
                answer.write(buffer, 0, read);
                String text = answer.toString(StandardCharsets.ISO_8859_1);
                if (text.contains("\r\n\r\n") && text.trim().endsWith("}")) {
                    break;
                }
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }

    static void assertProblem(Answer answer, int status, String parameter) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.contentType()).as(answer.toString()).startsWith("application/problem+json");
        JsonNode problem = answer.json();
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("type").stringValue()).isNotBlank();
        assertThat(problem.get("title").stringValue()).isNotBlank();
        assertThat(problem.get("detail").stringValue()).isNotBlank();
        if (parameter != null) {
            assertThat(problem.get("parameter").stringValue())
                    .as(answer.toString())
                    .isEqualTo(parameter);
            assertThat(problem.get("detail").stringValue())
                    .as(answer.toString())
                    .contains(parameter);
        }
    }
}
