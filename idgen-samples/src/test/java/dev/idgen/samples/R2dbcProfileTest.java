package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManagerFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code r2dbc} profile: every check of {@link OrdersTest} (inherited: the same requests and answers, bad input
 * included) on WebFlux and Netty, the orders kept through Spring Data R2DBC in an embedded H2 and their IDs filled by
 * {@code @IdgenId} through the starter's reactive callback; plus concurrent creates, each found in the table.
 */
@ActiveProfiles({"reactive", "r2dbc"})
class R2dbcProfileTest extends OrdersTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private ReactiveWebServerApplicationContext context;

    @Autowired
    private DatabaseClient database;

    /** R2DBC alone keeps the orders: no DataSource, no JPA, though both are on the class path. */
    @Test
    void servesOrdersOnNettyThroughR2dbcAlone() {
        assertThat(context.getWebServer()).isInstanceOf(NettyWebServer.class);
        assertThat(context.getBeanNamesForType(R2dbcOrderController.class)).hasSize(1);
        assertThat(context.getBeanNamesForType(R2dbcOrderRepository.class)).hasSize(1);
        assertThat(context.getBeanNamesForType(OrderController.class)).isEmpty();
        assertThat(context.getBeanNamesForType(OrderRepository.class)).isEmpty();
        assertThat(context.getBeanNamesForType(DataSource.class)).isEmpty();
        assertThat(context.getBeanNamesForType(EntityManagerFactory.class)).isEmpty();
    }

    /** Many creates at once, more than the event loop has threads: every ID distinct, every order in the table. */
    @Test
    void concurrentCreatesAreEachStoredUnderTheirOwnId() throws Exception {
        int requests = 64;
        HttpClient http = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
                    .timeout(Duration.ofMinutes(2))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"customer\":\"r2dbc-" + i + "\",\"amount\":2.5}"))
                    .build();
            answers.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        Set<Long> ids = new HashSet<>();
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            HttpResponse<String> response = answer.get();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            JsonNode order = JSON.readTree(response.body());
            assertThat(ids.add(Long.parseLong(order.get("id").asString())))
                    .as("ID issued twice: %s", response.body())
                    .isTrue();
        }
        List<Long> stored = database.sql("select id from idgen_sample_orders where customer like 'r2dbc-%'")
                .map(row -> row.get("id", Long.class))
                .all()
                .collectList()
                .block(Duration.ofMinutes(2));
        assertThat(stored).containsExactlyInAnyOrderElementsOf(ids);
    }
}
