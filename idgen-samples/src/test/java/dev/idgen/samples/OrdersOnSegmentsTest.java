package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The orders resource on the {@code h2-segment} profile: the {@code orders} name is one more segment row, so the
 * orders of a fresh database are numbered from 1 by idgen, not by the database.
 */
// A database of its own: H2SegmentProfileTest expects its own 'orders' segment to start at 1.
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.datasource.url=jdbc:h2:mem:orders-segment;DB_CLOSE_DELAY=-1")
@ActiveProfiles("h2-segment")
class OrdersOnSegmentsTest {

    @Value("${local.server.port}")
    private int port;

    @Test
    void ordersAreNumberedByTheirSegment() throws Exception {
        HttpResponse<String> first = SampleHttp.postJson(port, "/orders", "{\"customer\": \"a\", \"amount\": 1}");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(first.body()).startsWith("{\"id\":\"1\",\"customer\":\"a\",\"amount\":1.00,\"createdAt\":\"");
        assertThat(first.headers().firstValue("Location")).hasValue("http://127.0.0.1:" + port + "/orders/1");
        HttpResponse<String> second = SampleHttp.postJson(port, "/orders", "{\"customer\": \"b\", \"amount\": 2}");
        assertThat(second.body()).startsWith("{\"id\":\"2\",");
        assertThat(SampleHttp.get(port, "/orders/1").body()).isEqualTo(first.body());
        assertThat(SampleHttp.get(port, "/ids/decode/2").body()).isEqualTo("{\"strategy\":\"segment\",\"id\":\"2\"}");
    }
}
