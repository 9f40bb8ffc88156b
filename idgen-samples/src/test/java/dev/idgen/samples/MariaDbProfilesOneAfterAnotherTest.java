package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The documented MariaDB profiles run one after the other on one database, as a reader trying them in the docs' order
 * would: {@code mariadb-segment}, then {@code mariadb-ticket}, then {@code mariadb-segment} again. Each takes orders
 * over real HTTP. Before each profile had its own orders table, the ticket profile's first orders (tickets 1, 2, ...)
 * hit the segment profile's (segments 1, 2, ...) and were answered 500 "Duplicate entry '1' for key 'PRIMARY'".
 */
class MariaDbProfilesOneAfterAnotherTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String DATABASE = "idgen_sample_profiles";

    @Test
    void eachProfileTakesOrdersWhateverRanBeforeIt() throws Exception {
        String url = freshDatabase();
        List<Long> segmentOrders = new ArrayList<>(placeOrders("mariadb-segment", url, 3));
        List<Long> ticketOrders = placeOrders("mariadb-ticket", url, 3);
        segmentOrders.addAll(placeOrders("mariadb-segment", url, 2));

        assertThat(ticketOrders).as("tickets of a new database count from 1").containsExactly(1L, 2L, 3L);
        assertThat(segmentOrders.subList(0, 3))
                .as("segments of a new database count from 1")
                .containsExactly(1L, 2L, 3L);
        assertThat(segmentOrders.get(3)).as("a restart takes a new block").isGreaterThan(3L);
        try (Connection connection = connect(url);
                Statement statement = connection.createStatement()) {
            assertThat(count(statement, "idgen_sample_orders")).isEqualTo(5);
            assertThat(count(statement, "idgen_sample_ticket_orders")).isEqualTo(3);
        }
    }

    /** Starts the sample with the profile on the database, places {@code count} orders over HTTP, stops it. */
    private static List<Long> placeOrders(String profile, String url, int count) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (ConfigurableApplicationContext sample = new SpringApplicationBuilder(IdServiceApplication.class)
                .profiles(profile)
                .run(
                        "--server.port=0",
                        "--spring.datasource.url=" + url,
                        "--spring.datasource.username=" + user(),
                        "--spring.datasource.password=" + password())) {
            int port = Integer.parseInt(sample.getEnvironment().getProperty("local.server.port"));
            for (int i = 0; i < count; i++) {
                HttpResponse<String> created = SampleHttp.postJson(
                        port, "/orders", "{\"customer\": \"" + profile + "-" + i + "\", \"amount\": 12.5}");
                assertThat(created.statusCode())
                        .as("%s: POST /orders answered %s", profile, created.body())
                        .isEqualTo(201);
                long id = Long.parseLong(JSON.readTree(created.body()).get("id").asString());
                HttpResponse<String> read = SampleHttp.get(port, "/orders/" + id);
                assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
                JsonNode order = JSON.readTree(read.body());
                assertThat(order.get("customer").asString()).isEqualTo(profile + "-" + i);
                ids.add(id);
            }
        }
        return ids;
    }

    /** The database {@value #DATABASE} on the test's MariaDB, dropped and created empty; its JDBC URL. */
    private static String freshDatabase() throws Exception {
        String server = serverUrl();
        try (Connection connection = connect(server);
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + DATABASE);
            statement.execute("CREATE DATABASE " + DATABASE);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(
                    "This test needs a real MariaDB at " + server + " (" + e.getMessage()
                            + "): start one (start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd)"
                            + " or set IDGEN_TEST_MARIADB_URL",
                    e);
        }
        URI uri = URI.create(server.substring("jdbc:".length()));
        return "jdbc:mariadb://" + uri.getHost() + ":" + (uri.getPort() < 0 ? 3306 : uri.getPort()) + "/" + DATABASE
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    private static int count(Statement statement, String table) throws java.sql.SQLException {
        try (var rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static Connection connect(String url) throws java.sql.SQLException {
        return DriverManager.getConnection(url, user(), password());
    }

    private static String serverUrl() {
        String url = System.getenv("IDGEN_TEST_MARIADB_URL");
        if (url == null || url.isBlank()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(
                        "This test needs a real MariaDB: set IDGEN_TEST_MARIADB_URL (.ci/run does)");
            }
            return "jdbc:mariadb://127.0.0.1:3306/test";
        }
        return url.trim();
    }

    private static String user() {
        String user = System.getenv("IDGEN_TEST_MARIADB_USER");
        return user == null ? "root" : user;
    }

    private static String password() {
        String password = System.getenv("IDGEN_TEST_MARIADB_PASSWORD");
        return password == null ? "" : password;
    }
}
