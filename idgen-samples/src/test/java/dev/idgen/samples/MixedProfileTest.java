package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The documented {@code mixed} profile: three generators over HTTP with no external service.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("mixed")
class MixedProfileTest {

    @Value("${local.server.port}")
    private int port;

    private HttpResponse<String> get(String path) throws Exception {
        return SampleHttp.get(port, path);
    }

    @Test
    void eachNameIsServedByItsOwnGeneratorAndDecodeSaysWhich() throws Exception {
        HttpResponse<String> invoices = get("/ids/invoice?count=3");
        assertThat(invoices.statusCode()).as(invoices.body()).isEqualTo(200);
        assertThat(invoices.body()).isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(get("/ids/invoice/decode/3").body())
                .isEqualTo("{\"strategy\":\"ticket\",\"generator\":\"invoice\",\"id\":\"3\"}");
        assertThat(get("/ids/coupon?count=2").body()).isEqualTo("[\"1\",\"2\"]");
        assertThat(get("/ids/coupon/decode/2").body())
                .isEqualTo("{\"strategy\":\"segment\",\"generator\":\"coupon\",\"id\":\"2\"}");
        String order = get("/ids/orders").body().replaceAll("[\\[\\]\"]", "");
        assertThat(Long.parseLong(order)).isGreaterThan(1L << 22);
        assertThat(get("/ids/orders/decode/" + order).body())
                .startsWith("{\"strategy\":\"snowflake\",\"generator\":\"default\",\"id\":\"" + order + "\"");
    }

    @Test
    void healthShowsOneComponentPerGenerator() throws Exception {
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body())
                .contains("\"idgen\":{\"components\":{\"coupon\":")
                .contains("\"default\":{\"details\":{\"strategy\":\"snowflake\"")
                .contains("\"invoice\":{\"details\":{\"strategy\":\"ticket\"");
    }

    @Test
    void aBadIdUnderANameIsAProblem() throws Exception {
        HttpResponse<String> bad = get("/ids/invoice/decode/x1");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(bad.body()).contains("id must be a positive 64-bit decimal number");
    }
}
