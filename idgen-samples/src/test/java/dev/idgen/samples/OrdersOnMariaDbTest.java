package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The orders resource on the documented {@code mariadb-ticket} profile against the real MariaDB: the table is created
 * there on start, and each order's ID is the next ticket of the {@code orders} row.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        // Tables of its own: the shared idgen_ticket's numbers belong to other tests, and the sample's own
        // idgen_sample_orders to the sample run against this database (its IDs from another sequence would collide).
        properties = {"idgen.ticket.table=idgen_sample_orders_ticket", "sample.orders-table=idgen_sample_orders_test"})
@ActiveProfiles("mariadb-ticket")
class OrdersOnMariaDbTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private JdbcTemplate jdbc;

    @DynamicPropertySource
    static void mariaDb(DynamicPropertyRegistry registry) {
        SampleMariaDb.register(registry);
    }

    private long create(String customer) throws Exception {
        HttpResponse<String> response =
                SampleHttp.postJson(port, "/orders", "{\"customer\": \"" + customer + "\", \"amount\": 99.99}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        JsonNode order = JSON.readTree(response.body());
        assertThat(order.get("id").isString()).as(response.body()).isTrue();
        return Long.parseLong(order.get("id").asString());
    }

    @Test
    void ordersTakeTicketsAndLiveInMariaDb() throws Exception {
        long first = create("mariadb-first");
        long second = create("mariadb-second");
        assertThat(second).as("tickets of one row count up").isGreaterThan(first);
        assertThat(jdbc.queryForObject("SELECT id FROM idgen_sample_orders_ticket WHERE name = 'orders'", Long.class))
                .isGreaterThanOrEqualTo(second);
        assertThat(jdbc.queryForObject(
                        "SELECT customer FROM idgen_sample_orders_test WHERE id = ?", String.class, first))
                .isEqualTo("mariadb-first");
        HttpResponse<String> read = SampleHttp.get(port, "/orders/" + second);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(JSON.readTree(read.body()).get("customer").asString()).isEqualTo("mariadb-second");
    }
}
