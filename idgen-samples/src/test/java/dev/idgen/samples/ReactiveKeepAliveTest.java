package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * The {@code reactive,mixed} sample on one HTTP/1.1 keep-alive connection: many requests in turn, answered now on the
 * event loop (Snowflake), now from the blocking executor (tickets, segment loads), and every one is answered. With
 * Reactor Netty 1.3.7, Boot 4.1.1's, a request that arrived while the previous exchange was still finishing could
 * leave the connection unread for good (reactor/reactor-netty#4361): the client waited forever, which the suite saw
 * as sample tests hanging at random. The build pins 1.3.8; with 1.3.7 this loop (and the one it came from) stalled
 * within the first 500 requests in each of six runs under {@code stress-ng --cpu 4}. A database of its own, so the
 * other tests' ticket numbers stay theirs.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"reactive", "mixed"})
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:idgen-reactive-keep-alive;DB_CLOSE_DELAY=-1")
class ReactiveKeepAliveTest {

    private static final int REQUESTS_IN_A_ROW = 2_000;

    /** Generous for a loaded machine: the failure this test is for never answers at all. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(60);

    @Value("${local.server.port}")
    private int port;

    @Test
    void oneKeepAliveConnectionAnswersEveryRequestInTurn() throws Exception {
        // One client, HTTP/1.1: its pool keeps reusing the one connection while requests go one after another.
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String[] paths = {"/ids/invoice", "/ids/coupon?count=600", "/ids/orders"};
        for (int i = 0; i < REQUESTS_IN_A_ROW; i++) {
            String path = paths[i % paths.length];
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(ANSWER_WITHIN)
                    .build();
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (HttpTimeoutException e) {
                throw new AssertionError(
                        "Request " + (i + 1) + " of " + REQUESTS_IN_A_ROW + " in a row (" + path + ") got no answer"
                                + " within " + ANSWER_WITHIN.toSeconds() + " s",
                        e);
            }
            assertThat(response.statusCode())
                    .as(path + " -> " + response.body())
                    .isEqualTo(200);
        }
    }
}
