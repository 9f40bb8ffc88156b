package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    private int port;

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesSegmentIdsAndReportsHealth() throws Exception {
        HttpResponse<String> ids = get("/ids/orders?count=3");
        assertThat(ids.statusCode()).isEqualTo(200);
        assertThat(ids.body()).isEqualTo("[\"1\",\"2\",\"3\"]");
        assertThat(get("/ids/decode/3").body()).isEqualTo("{\"strategy\":\"segment\",\"id\":\"3\"}");
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.body()).contains("\"idgen\":{\"details\":{\"strategy\":\"segment\"")
                .contains("\"storeAvailable\":true");
    }
}
