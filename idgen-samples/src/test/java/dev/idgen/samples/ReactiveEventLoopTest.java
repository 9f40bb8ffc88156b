package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code reactive,forms}: requests that wait on a store hold no event-loop thread: the daily invoice numbers (a number
 * form, through ReactiveIdService) and base32 strings over tickets (another form, which the controller runs off the
 * event loop itself), both waiting on ticket rows the test locks in the real H2. More of them wait than Netty has event-loop threads (and
 * than the bounded elastic scheduler they wait on has threads), and requests that need only the event loop (Snowflake
 * IDs, decoding) are still answered meanwhile; were the waiting calls on the event loop, those would hang.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"reactive", "forms"})
// The ticket update waits for the test's row lock for up to a minute (idgen's longest statement time) instead of
// failing after H2's default second or idgen's default three.
@TestPropertySource(
        properties = {
            "spring.datasource.url=jdbc:h2:mem:idgen-reactive-event-loop;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=120000",
            "idgen.generators.invoice-daily.jdbc.timeout=60s",
            // Base32 strings over tickets: a form whose next() waits on the store, which the controller runs itself.
            "idgen.generators.slow-b32.strategy=ticket",
            "idgen.generators.slow-b32.form=crockford32",
            "idgen.generators.slow-b32.jdbc.timeout=60s"
        })
class ReactiveEventLoopTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Far more than Reactor Netty's event-loop threads (the larger of the cores and 4), so every loop gets some. */
    private static final int WAITING = 48;

    /**
     * How long the first waiting request may take to reach the locked row: generous for a loaded machine, and well
     * inside the minute the waiting requests wait. A request on a blocked event loop would not answer before then.
     */
    private static final Duration REACH_STORE_WITHIN = Duration.ofSeconds(20);

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private DataSource dataSource;

    /** HTTP/1.1, one connection per request in flight, as most clients of a REST service call it. */
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** No timeout of its own: the waiting requests must still be waiting when the others have been answered. */
    private HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .build();
    }

    @Test
    void requestsWaitingOnAStoreHoldNoEventLoopThread() throws Exception {
        // The ticket rows exist once one ID of each was issued.
        for (String path : List.of("/ids/invoice-daily", "/ids/slow-b32")) {
            HttpResponse<String> first = http.send(request(path), HttpResponse.BodyHandlers.ofString());
            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        }
        List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (Statement statement = lock.createStatement()) {
                statement.executeQuery("SELECT * FROM idgen_ticket FOR UPDATE").close();
            }
            for (int i = 0; i < WAITING; i++) {
                String path = i % 2 == 0 ? "/ids/invoice-daily" : "/ids/slow-b32";
                waiting.add(http.sendAsync(request(path), HttpResponse.BodyHandlers.ofString()));
            }
            awaitSessionWaitingFor(lock);

            // Snowflake IDs and decoding need no thread but the event loop's. Over raw sockets, each on a connection of
            // its own: with dozens of requests pending to this server, the JDK client held new ones back in our runs.
            for (int i = 0; i < WAITING; i++) {
                RawHttp.Response other = RawHttp.send(port, "GET", "/ids/orders");
                assertThat(other.status()).as(other.body()).isEqualTo(200);
                String id = JSON.readTree(other.body()).get(0).asString();
                RawHttp.Response decoded = RawHttp.send(port, "GET", "/ids/decode/" + id);
                assertThat(decoded.status()).as(decoded.body()).isEqualTo(200);
            }
            for (CompletableFuture<HttpResponse<String>> answer : waiting) {
                assertThat(answer.isDone())
                        .as(
                                "an invoice request answered while the lock was held: %s",
                                answer.isDone() ? answer.join().body() : "")
                        .isFalse();
            }
            lock.rollback();
        }
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
        Set<String> issued = new HashSet<>();
        for (CompletableFuture<HttpResponse<String>> answer : waiting) {
            HttpResponse<String> response = answer.get();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode body = JSON.readTree(response.body());
            assertThat(issued.add(body.get(0).asString()))
                    .as("%s issued twice", body.get(0))
                    .isTrue();
        }
        assertThat(issued).hasSize(WAITING);
    }

    /** Until a database session waits for the lock {@code lock} holds: a request has reached the store. */
    private static void awaitSessionWaitingFor(Connection lock) throws Exception {
        long deadline = System.nanoTime() + REACH_STORE_WITHIN.toNanos();
        while (true) {
            try (Statement statement = lock.createStatement();
                    ResultSet blocked = statement.executeQuery(
                            "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID = SESSION_ID()")) {
                blocked.next();
                if (blocked.getInt(1) > 0) {
                    return;
                }
            }
            assertThat(System.nanoTime())
                    .as("no request waited for the ticket row's lock within %s", REACH_STORE_WITHIN)
                    .isLessThan(deadline);
            // Between looks: only keeps the loop from spinning.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }
}
