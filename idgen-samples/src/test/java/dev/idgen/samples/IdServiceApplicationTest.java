package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample over real HTTP on a random port, as a client would see it: Spring MVC on Tomcat here, and the same
 * checks on WebFlux and Netty in {@link ReactiveProfileTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IdServiceApplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private WebServerApplicationContext context;

    /** The web server this class's profile runs on: the default profile serves on Tomcat. */
    Class<? extends WebServer> expectedWebServer() {
        return TomcatWebServer.class;
    }

    /** Both stacks are on the class path: the checks below mean something only on the stack they are meant for. */
    @Test
    void servesOnTheExpectedWebServer() {
        assertThat(context.getWebServer()).isInstanceOf(expectedWebServer());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return SampleHttp.get(port, path);
    }

    private static List<Long> idsOf(HttpResponse<String> response) {
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.isArray()).as(response.body()).isTrue();
        List<Long> ids = new ArrayList<>();
        for (JsonNode id : body) {
            assertThat(id.isString())
                    .as("IDs travel as decimal strings: %s", response.body())
                    .isTrue();
            ids.add(Long.parseLong(id.asString()));
        }
        return ids;
    }

    @Test
    void issuesOneIdByDefault() throws Exception {
        HttpResponse<String> response = get("/ids/orders");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(idsOf(response))
                .singleElement()
                .satisfies(id -> assertThat(id).isPositive());
    }

    @Test
    void issuesCountIncreasingIds() throws Exception {
        List<Long> ids = idsOf(get("/ids/orders?count=10000"));
        assertThat(ids).hasSize(10_000).isSorted().doesNotHaveDuplicates();
        assertThat(idsOf(get("/ids/payments?count=3")).get(0)).isGreaterThan(ids.get(9_999));
    }

    @Test
    void decodesAnIssuedId() throws Exception {
        long id = idsOf(get("/ids/orders")).get(0);
        HttpResponse<String> response = get("/ids/decode/" + id);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("strategy").asString()).isEqualTo("snowflake");
        assertThat(body.get("id").isString())
                .as("the ID as a string: %s", response.body())
                .isTrue();
        assertThat(body.get("id").asString()).isEqualTo(Long.toString(id));
        assertThat(Instant.parse(body.get("timestamp").asString()))
                .isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
        assertThat(body.get("workerId").asLong()).isZero();
        assertThat(body.get("sequence").asLong())
                .as("the standard layout's low 12 bits")
                .isEqualTo(id & 0xFFF);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/ids/orders?count=0 | count | count must be between 1 and 10000, but was 0",
                "/ids/orders?count=-1 | count | count must be between 1 and 10000, but was -1",
                "/ids/orders?count=10001 | count | count must be between 1 and 10000, but was 10001",
                "/ids/orders?count=ten | count | count must be a whole number between 1 and 10000, but was 'ten'",
                "/ids/orders?count=99999999999 | count | count must be a whole number between 1 and 10000",
                "/ids/bad%20name | name | name must be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit,"
                        + " but was 'bad name'",
                "/ids/x12345678901234567890123456789012345678901234567890123456789012345 | name | name must be 1 to 64 characters",
                "/ids/decode/abc | id | id must be a positive 64-bit decimal number, but was 'abc'",
                "/ids/decode/0 | id | id must be a positive 64-bit number, but was 0",
                "/ids/decode/-5 | id | id must be a positive 64-bit number, but was -5",
                "/ids/decode/9223372036854775808 | id | id must be a positive 64-bit decimal number",
            })
    void badInputGets400ProblemJsonNamingTheParameter(String path, String parameter, String detail) throws Exception {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("parameter").asString()).isEqualTo(parameter);
        assertThat(problem.get("detail").asString()).startsWith(detail);
    }

    @Test
    void readableIdsAreOffWithoutRedisAndSaySo() throws Exception {
        HttpResponse<String> response = get("/ids/readable?biz=ORD");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("idgen.redis.buckets.enabled=true");
    }

    @Test
    void healthShowsTheIdgenComponent() throws Exception {
        HttpResponse<String> response = get("/actuator/health");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode idgen = JSON.readTree(response.body()).get("components").get("idgen");
        assertThat(idgen.get("status").asString()).isEqualTo("UP");
        assertThat(idgen.get("details").get("strategy").asString()).isEqualTo("snowflake");
        assertThat(idgen.get("details").get("workerId").asLong()).isZero();
    }

    @Test
    void metricsAndPrometheusShowTheIdgenMeters() throws Exception {
        get("/ids/orders?count=7");
        HttpResponse<String> metric = get("/actuator/metrics/idgen.ids.generated");
        assertThat(metric.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(metric.body());
        assertThat(body.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(7);
        assertThat(get("/actuator/metrics").body()).contains("idgen.clock.backwards", "idgen.sequence.overflow.waits");

        HttpResponse<String> prometheus = get("/actuator/prometheus");
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body())
                .contains("idgen_ids_generated_total{generator=\"default\",strategy=\"snowflake\"}");
    }
}
