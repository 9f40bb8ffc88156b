package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code reactive} profile: every check of {@link IdServiceApplicationTest} (inherited) on WebFlux and Netty, plus
 * many concurrent requests.
 */
@ActiveProfiles("reactive")
class ReactiveProfileTest extends IdServiceApplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private ApplicationContext context;

    @Override
    Class<? extends WebServer> expectedWebServer() {
        return NettyWebServer.class;
    }

    /** WebFlux's dispatcher and the WebFlux controller, none of Spring MVC's, though Spring MVC is on the class path. */
    @Test
    void servesThroughWebFluxAlone() {
        assertThat(context.getBeanNamesForType(DispatcherHandler.class)).isNotEmpty();
        assertThat(context.getBeanNamesForType(ReactiveIdController.class)).hasSize(1);
        assertThat(context.getBeanNamesForType(DispatcherServlet.class)).isEmpty();
        assertThat(context.getBeanNamesForType(IdController.class)).isEmpty();
        assertThat(context.getBeanNamesForType(IdProblemHandler.class)).isEmpty();
        assertThat(context.getBeanNamesForType(OrderController.class)).isEmpty();
    }

    /** No orders here: the orders' JPA repository would block an event-loop thread. */
    @Test
    void offersNoOrders() throws Exception {
        HttpResponse<String> response = SampleHttp.postJson(port, "/orders", "{\"customer\":\"c\",\"amount\":1}");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    /** Many requests at once, more than the event loop has threads: every one answered, no ID twice. */
    @Test
    void concurrentRequestsGetDistinctIds() throws Exception {
        int requests = 200;
        int perRequest = 50;
        HttpClient http = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(
                            "http://127.0.0.1:" + port + "/ids/concurrent" + (i % 4) + "?count=" + perRequest))
                    .build();
            answers.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        Set<Long> ids = new HashSet<>();
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            HttpResponse<String> response = answer.get();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.size()).isEqualTo(perRequest);
            for (JsonNode id : body) {
                assertThat(id.isString()).as(response.body()).isTrue();
                assertThat(ids.add(Long.parseLong(id.asString())))
                        .as("ID %s issued twice", id.asString())
                        .isTrue();
            }
        }
        assertThat(ids).hasSize(requests * perRequest);
    }
}
