package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The orders resource over real HTTP on the default profile (Snowflake IDs, orders in an embedded H2).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrdersTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    private HttpResponse<String> post(String body) throws Exception {
        return SampleHttp.postJson(port, "/orders", body);
    }

    /** The 201's order, checked for what every created order has: an ID as a string, its Location, a fresh time. */
    private JsonNode created(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        JsonNode order = JSON.readTree(response.body());
        assertThat(order.get("id").isString())
                .as("the ID as a JSON string: %s", response.body())
                .isTrue();
        long id = Long.parseLong(order.get("id").asString());
        assertThat(id).isPositive();
        assertThat(response.headers().firstValue("Location"))
                .hasValueSatisfying(
                        location -> assertThat(URI.create(location).getPath()).isEqualTo("/orders/" + id));
        assertThat(Instant.parse(order.get("createdAt").asString()))
                .isBetween(
                        Instant.now().minus(Duration.ofMinutes(5)),
                        Instant.now().plusSeconds(1));
        return order;
    }

    @Test
    void createsAnOrderAndReadsItBack() throws Exception {
        HttpResponse<String> response = post("{\"customer\": \"  Ada Lovelace \", \"amount\": 12.5}");
        JsonNode order = created(response);
        assertThat(order.get("customer").asString()).isEqualTo("Ada Lovelace");
        assertThat(response.body()).as("two decimal places, as stored").contains("\"amount\":12.50,");
        assertThat(order.propertyNames()).containsExactly("id", "customer", "amount", "createdAt");

        HttpResponse<String> read =
                SampleHttp.get(port, "/orders/" + order.get("id").asString());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(JSON.readTree(read.body())).isEqualTo(order);
    }

    @Test
    void anAmountMayComeAsAString() throws Exception {
        assertThat(created(post("{\"customer\": \"Grace\", \"amount\": \"0.01\"}"))
                        .get("amount")
                        .decimalValue())
                .isEqualByComparingTo(new BigDecimal("0.01"));
    }

    @Test
    void anUnknownOrderIs404ProblemJson() throws Exception {
        HttpResponse<String> response = SampleHttp.get(port, "/orders/" + Long.MAX_VALUE);
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(404);
        assertThat(problem.get("title").asString()).isEqualTo("Not Found");
        assertThat(problem.get("detail").asString()).isEqualTo("No order has id " + Long.MAX_VALUE);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/orders/abc | id must be a positive 64-bit decimal number, but was 'abc'",
                "/orders/12x | id must be a positive 64-bit decimal number, but was '12x'",
                "/orders/0 | id must be a positive 64-bit number, but was 0",
                "/orders/-5 | id must be a positive 64-bit number, but was -5",
                "/orders/9223372036854775808 | id must be a positive 64-bit decimal number",
            })
    void aBadIdIs400NamingTheParameter(String path, String detail) throws Exception {
        assertProblem(SampleHttp.get(port, path), "id", detail);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{\"amount\": 1} | customer | customer is required and must not be blank",
                "{\"customer\": null, \"amount\": 1} | customer | customer is required and must not be blank",
                "{\"customer\": \" \\t \", \"amount\": 1} | customer | customer is required and must not be blank",
                "{\"customer\": {\"name\": \"x\"}, \"amount\": 1} | customer | customer has the wrong type or form",
                "{\"customer\": \"Ada\"} | amount | amount is required",
                "{\"customer\": \"Ada\", \"amount\": 0} | amount | amount must be positive, but was 0",
                "{\"customer\": \"Ada\", \"amount\": -3.5} | amount | amount must be positive, but was -3.5",
                "{\"customer\": \"Ada\", \"amount\": 1.005} | amount | amount must have at most 2 decimal places, but was 1.005",
                "{\"customer\": \"Ada\", \"amount\": 1e-400} | amount | amount must have at most 2 decimal places, but was 1E-400",
                "{\"customer\": \"Ada\", \"amount\": 1e10} | amount | amount must be below 10000000000, but was 10000000000",
                "{\"customer\": \"Ada\", \"amount\": \"ten\"} | amount | amount has the wrong type or form",
                "{\"customer\": \"Ada\", \"amount\": [1]} | amount | amount has the wrong type or form",
                "{\"customer\": \"Ada\", \"amount\": 1, \"id\": \"42\"} | id | id is assigned by the server",
                "{\"customer\": \"Ada\", \"amount\": 1, \"id\": 42} | id | id is assigned by the server",
                "{\"customer\": \"Ada\", \"amount\": 1, \"createdAt\": \"2020-01-01T00:00:00Z\"} | createdAt | createdAt is set by the server",
                "{\"customer\": \"Ada\", \"amount\": | body | The request body is not valid JSON",
                "not json | body | The request body is not valid JSON",
                "[] | body | The request body must be a JSON object",
                "`` | body | The request needs a JSON body",
            })
    void aBadBodyIs400NamingTheField(String body, String field, String detail) throws Exception {
        assertProblem(post(body), field, detail);
    }

    @Test
    void aCustomerLongerThan100CharactersIs400() throws Exception {
        assertProblem(
                post("{\"customer\": \"" + "x".repeat(101) + "\", \"amount\": 1}"),
                "customer",
                "customer must be at most 100 characters, but had 101");
        created(post("{\"customer\": \"" + "x".repeat(100) + "\", \"amount\": 1}"));
    }

    @Test
    void concurrentCreatesGetDistinctIdsAndEachReadsBack() throws Exception {
        int threads = 4;
        int perThread = 50;
        Map<Long, String> customers = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        String customer = "concurrent-" + thread + "-" + i;
                        JsonNode order = created(post("{\"customer\": \"" + customer + "\", \"amount\": 1.25}"));
                        long id = Long.parseLong(order.get("id").asString());
                        ids.add(id);
                        customers.put(id, customer);
                    }
                    return ids;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> result : results) {
                all.addAll(result.get(5, TimeUnit.MINUTES));
            }
            assertThat(all).hasSize(threads * perThread).doesNotHaveDuplicates();
            assertThat(customers).hasSize(threads * perThread);
        } finally {
            pool.shutdownNow();
        }
        Set<String> readBack = new HashSet<>();
        for (Map.Entry<Long, String> order : customers.entrySet()) {
            HttpResponse<String> read = SampleHttp.get(port, "/orders/" + order.getKey());
            assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
            JsonNode body = JSON.readTree(read.body());
            assertThat(body.get("id").asString()).isEqualTo(Long.toString(order.getKey()));
            assertThat(body.get("customer").asString()).isEqualTo(order.getValue());
            readBack.add(body.get("customer").asString());
        }
        assertThat(readBack).hasSize(threads * perThread);
    }

    private static void assertProblem(HttpResponse<String> response, String parameter, String detail) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("type").asString()).isEqualTo("https://idgen.dev/problems/invalid-parameter");
        assertThat(problem.get("parameter").asString()).as(response.body()).isEqualTo(parameter);
        assertThat(problem.get("detail").asString()).as(response.body()).startsWith(detail);
    }
}
