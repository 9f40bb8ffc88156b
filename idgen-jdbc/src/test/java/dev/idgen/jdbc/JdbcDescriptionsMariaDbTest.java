package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the ticket and segment services print (the start-up line shows it): the table and the database, product and URL
 * without credentials, read once with the first connection; never a database call. Real MariaDB.
 */
class JdbcDescriptionsMariaDbTest {

    private final String table =
            "idgen_describe_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final TestServices.JdbcEndpoint mariadb = TestServices.mariadb();

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = mariadb.connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /**
     * The URL as the driver reports it (MariaDB's leaves out the default port: jdbc:mariadb://127.0.0.1/test),
     * without parameters: what the description shows.
     */
    private String url() {
        try (Connection connection = mariadb.connect()) {
            String url = connection.getMetaData().getURL();
            int parameters = url.indexOf('?');
            String shown = parameters < 0 ? url : url.substring(0, parameters);
            assertThat(shown).startsWith("jdbc:mariadb://").doesNotContain("@");
            return shown;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aTicketServiceNamesItsTableAndDatabaseAndKeepsItWithoutTheDatabase() {
        HikariDataSource pool = mariadb.pool(2);
        TicketServer server = new TicketServer(
                "ds",
                pool,
                table,
                0,
                1,
                SchemaInitialization.ALWAYS,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                TimeSource.system());
        try (TicketIdService service = new TicketIdService(List.of(server), false)) {
            assertThat(service).hasToString("ticket table " + table + " on a database not reached yet");
            server.checkTable();
            assertThat(service).hasToString("ticket table " + table + " on MariaDB " + url());
            pool.close();
            assertThat(service)
                    .as("read once, not from the database each time")
                    .hasToString("ticket table " + table + " on MariaDB " + url());
        } finally {
            pool.close();
        }
    }

    @Test
    void severalTicketServersAreEachNamed() {
        try (HikariDataSource pool = mariadb.pool(2);
                TicketServer first = new TicketServer(
                        "a",
                        pool,
                        table,
                        0,
                        2,
                        SchemaInitialization.ALWAYS,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5),
                        TimeSource.system());
                TicketServer second = new TicketServer(
                        "b",
                        pool,
                        table,
                        1,
                        2,
                        SchemaInitialization.ALWAYS,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5),
                        TimeSource.system())) {
            first.checkTable();
            assertThat(new TicketIdService(List.of(first, second), false))
                    .hasToString("ticket table " + table
                            + " on MariaDB " + url() + " (server a, offset 0 of 2); ticket table " + table
                            + " on a database not reached yet (server b, offset 1 of 2)");
        }
    }

    @Test
    void aSegmentServiceNamesItsTableAndDatabase() {
        HikariDataSource pool = mariadb.pool(2);
        JdbcSegmentStore store =
                new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        try (SegmentIdService service = SegmentIdService.builder(store).build()) {
            assertThat(service).hasToString("segments from table " + table + " on a database not reached yet");
            store.checkAvailable();
            assertThat(service).hasToString("segments from table " + table + " on MariaDB " + url());
            pool.close();
            assertThat(service).hasToString("segments from table " + table + " on MariaDB " + url());
        } finally {
            pool.close();
        }
    }

    @Test
    void credentialsInTheUrlAreLeftOut() {
        String url = url();
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(
                    url + "?user=" + mariadb.username() + "&password=" + mariadb.password() + "&connectTimeout=5000");
            pool.setMaximumPoolSize(1);
            JdbcSegmentStore store =
                    new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
            store.checkAvailable();
            assertThat(store).hasToString("table " + table + " on MariaDB " + url);
        }
        assertThat(JdbcUrls.withoutCredentials("jdbc:mariadb://app:s3cret@db:3306/test"))
                .isEqualTo("jdbc:mariadb://db:3306/test");
        assertThat(JdbcUrls.withoutCredentials("jdbc:oracle:thin:scott/tiger@db:1521:orcl"))
                .isEqualTo("jdbc:oracle:thin:@db:1521:orcl");
        assertThat(JdbcUrls.withoutCredentials("jdbc:h2:mem:x;USER=sa;PASSWORD=s3cret"))
                .isEqualTo("jdbc:h2:mem:x");
    }
}
