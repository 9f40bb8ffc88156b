package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.TimeSource;
import dev.idgen.test.services.TestServices;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Ticket servers on MariaDB. */
class TicketServerMariaDbTest extends TicketServerContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.mariadb();
    }

    @Override
    protected String ddlResource() {
        return "META-INF/idgen/ticket-mysql.sql";
    }

    @Test
    void aDriverThatWillNotReportTheUpdatesValueIsServedWithSelectLastInsertId() throws Exception {
        String table =
                "idgen_ticket_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (HikariDataSource pool = endpoint().pool(2);
                TicketServer server = new TicketServer(
                        "no-keys",
                        new WithoutGeneratedKeys(pool),
                        table,
                        0,
                        1,
                        SchemaInitialization.ALWAYS,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5),
                        TimeSource.system())) {
            for (long expected = 1; expected <= 20; expected++) {
                assertThat(server.nextId("orders")).isEqualTo(expected);
            }
            assertThat(server.take("orders", 5)).isEqualTo(25);
            assertThat(server.statementsPerRoundTrip())
                    .as("UPDATE, then SELECT LAST_INSERT_ID()")
                    .isEqualTo(2);
            assertThat(server.isOpen()).isFalse();
        } finally {
            try (Connection connection = endpoint().connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /**
     * A pool whose connections prepare statements without {@code RETURN_GENERATED_KEYS}, as a wrapper that drops the
     * flag would: the driver then throws from {@code getGeneratedKeys()} rather than report no key.
     */
    private static final class WithoutGeneratedKeys extends ForwardingDataSource {

        WithoutGeneratedKeys(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = target.getConnection();
            return (Connection) Proxy.newProxyInstance(
                    getClass().getClassLoader(),
                    new Class<?>[] {Connection.class},
                    (proxy, method, args) -> method.getName().equals("prepareStatement")
                                    && args.length == 2
                                    && args[1] instanceof Integer
                            ? connection.prepareStatement((String) args[0])
                            : invoke(connection, method, args));
        }
    }
}
