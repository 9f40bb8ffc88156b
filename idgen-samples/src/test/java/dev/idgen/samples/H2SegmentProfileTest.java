package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The documented {@code h2-segment} profile: segments from an embedded H2, over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("h2-segment")
class H2SegmentProfileTest {

    @Value("${local.server.port}")
    private int port;

    private HttpResponse<String> get(String path) throws Exception {
        return SampleHttp.get(port, path);
    }

    @Test
    void servesSegmentIdsAndReportsHealth() throws Exception {
        HttpResponse<String> ids = get("/ids/orders?count=3");
        assertThat(ids.statusCode()).as(ids.body()).isEqualTo(200);
        assertThat(ids.body()).isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(get("/ids/decode/3").body()).isEqualTo("{\"strategy\":\"segment\",\"id\":\"3\"}");
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.body())
                .contains("\"idgen\":{\"details\":{\"strategy\":\"segment\"")
                .contains("\"storeAvailable\":true");
    }
}
