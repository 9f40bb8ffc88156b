package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code idgen} Actuator endpoint over HTTP, exposed by the sample's application.yml, on the {@code mixed} profile
 * (Snowflake, a ticket generator and a segment generator on an embedded H2).
 */
// A database of its own: the IDs this test issues must not shift those MixedProfileTest expects.
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.datasource.url=jdbc:h2:mem:idgen-endpoint;DB_CLOSE_DELAY=-1")
@ActiveProfiles("mixed")
class IdgenEndpointTest {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    private JsonNode getJson(String path, int status) throws Exception {
        HttpResponse<String> response = SampleHttp.get(port, path);
        assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    @Test
    void listsEveryGeneratorWithItsState() throws Exception {
        assertThat(SampleHttp.get(port, "/ids/coupon?count=2").statusCode()).isEqualTo(200);
        JsonNode generators = getJson("/actuator/idgen", 200).get("generators");
        assertThat(generators.propertyNames()).containsExactly("default", "invoice", "coupon");

        JsonNode snowflake = generators.get("default");
        assertThat(snowflake.get("strategy").asString()).isEqualTo("snowflake");
        assertThat(snowflake.get("form").asString()).isEqualTo("number");
        assertThat(snowflake.get("workerId").asLong()).isZero();
        assertThat(snowflake.get("layout").get("exhaustsAt").asString()).isEqualTo("2094-09-07T15:47:35.552Z");
        assertThat(snowflake.get("layout").get("remainingLifetimeDays").asLong())
                .isGreaterThan(365L * 60);

        JsonNode invoice = generators.get("invoice");
        assertThat(invoice.get("strategy").asString()).isEqualTo("ticket");
        assertThat(invoice.get("store").asString()).isEqualTo("jdbc");
        assertThat(invoice.get("breakers").valueStream().map(JsonNode::asString).toList())
                .containsOnly("closed");

        JsonNode coupon = generators.get("coupon");
        assertThat(coupon.get("strategy").asString()).isEqualTo("segment");
        assertThat(coupon.get("store").asString()).isEqualTo("jdbc");
        JsonNode buffers = coupon.get("segments").get("names").get("coupon");
        assertThat(buffers.get("served").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(buffers.get("step").asLong()).isPositive();
        assertThat(buffers.has("waits")).isTrue();
        assertThat(Instant.parse(buffers.get("lastLoad").asString()))
                .isBetween(Instant.now().minusSeconds(3600), Instant.now().plusSeconds(60));
    }

    @Test
    void decodesAnIdOfAGenerator() throws Exception {
        String order =
                JSON.readTree(SampleHttp.get(port, "/ids/orders").body()).get(0).asString();
        JsonNode decoded = getJson("/actuator/idgen/default/decode/" + order, 200);
        assertThat(decoded.get("generator").asString()).isEqualTo("default");
        assertThat(decoded.get("form").asString()).isEqualTo("number");
        assertThat(decoded.get("strategy").asString()).isEqualTo("snowflake");
        assertThat(decoded.get("id").isString()).as(decoded.toString()).isTrue();
        assertThat(decoded.get("id").asString()).isEqualTo(order);
        assertThat(decoded.get("workerId").asLong()).isZero();
        assertThat(Instant.parse(decoded.get("timestamp").asString()))
                .isBetween(Instant.now().minusSeconds(3600), Instant.now().plusSeconds(60));

        JsonNode invoice = getJson("/actuator/idgen/invoice/decode/7", 200);
        assertThat(invoice.get("strategy").asString()).isEqualTo("ticket");
        assertThat(invoice.get("id").asString()).isEqualTo("7");
    }

    @Test
    void anUnknownGeneratorOrABadIdIsABadRequestSayingWhy() throws Exception {
        assertThat(getJson("/actuator/idgen/nope/decode/1", 400).get("detail").asString())
                .isEqualTo("Unknown generator 'nope': the generators are [default, invoice, coupon]");
        assertThat(getJson("/actuator/idgen/default/decode/abc", 400)
                        .get("detail")
                        .asString())
                .contains("abc");
        assertThat(getJson("/actuator/idgen/nope", 400).get("detail").asString())
                .startsWith("Unknown generator 'nope'");
    }
}
