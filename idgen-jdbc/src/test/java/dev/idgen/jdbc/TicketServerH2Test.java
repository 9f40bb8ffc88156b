package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.TimeSource;
import dev.idgen.test.services.TestServices;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Ticket servers on H2, and the refusal of a database idgen has no ticket statements for. */
class TicketServerH2Test extends TicketServerContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint("jdbc:h2:mem:idgen-ticket-contract;DB_CLOSE_DELAY=-1", "sa", "");
    }

    @Override
    protected String ddlResource() {
        return "META-INF/idgen/ticket-h2.sql";
    }

    @Test
    void aDatabaseWithoutTicketStatementsIsRefusedAsUnsupported() {
        try (HikariDataSource pool = endpoint().pool(1);
                TicketServer server = new TicketServer(
                        "derby",
                        new RenamedDatabase(pool, "Apache Derby"),
                        "idgen_ticket",
                        0,
                        1,
                        SchemaInitialization.ALWAYS,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(5),
                        TimeSource.system())) {
            assertThatThrownBy(server::checkTable)
                    .isInstanceOf(UnsupportedTicketDatabaseException.class)
                    .hasMessageContaining("derby")
                    .hasMessageContaining("Apache Derby");
            assertThat(server.isOpen()).as("a set-up mistake, not an outage").isFalse();
        }
    }

    /** A real H2 whose metadata names another product, as a database idgen does not know would. */
    private static final class RenamedDatabase extends ForwardingDataSource {

        private final String productName;

        RenamedDatabase(DataSource target, String productName) {
            super(target);
            this.productName = productName;
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = target.getConnection();
            return (Connection) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        Object result = invoke(connection, method, args);
                        if (method.getName().equals("getMetaData")) {
                            DatabaseMetaData metaData = (DatabaseMetaData) result;
                            return Proxy.newProxyInstance(
                                    getClass().getClassLoader(),
                                    new Class<?>[] {DatabaseMetaData.class},
                                    (p, m, a) -> m.getName().equals("getDatabaseProductName")
                                            ? productName
                                            : invoke(metaData, m, a));
                        }
                        return result;
                    });
        }
    }
}
