package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The statements of one ticket round trip on a real MariaDB, run directly on a connection: no breaker, no executor, no
 * combining of callers. A name's row is created at the server's offset and advanced by {@code count * increment} from
 * at least the floor; a row written for another number of servers is refused; a reset starts the name over; a missing
 * table is reported with its DDL.
 */
class TicketTableMariaDbTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String table =
            "idgen_tt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final HikariDataSource pool = TestServices.mariadb().pool(2);

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            pool.close();
        }
    }

    private TicketTable ticketTable(int offset, int increment, SchemaInitialization initialization) {
        return new TicketTable("t" + offset, pool, table, offset, increment, initialization, TIMEOUT, 0);
    }

    private static long take(TicketTable ticketTable, String name, long floor, int count) {
        return ticketTable
                .statements()
                .execute("take", (connection, sql) -> ticketTable.takeOnce(connection, sql, name, floor, count, true));
    }

    @Test
    void aNewRowStartsAtTheOffsetAndAdvancesByCountTimesIncrementFromAtLeastTheFloor() {
        TicketTable ticketTable = ticketTable(1, 3, SchemaInitialization.ALWAYS);

        assertThat(take(ticketTable, "orders", 0, 2)).isEqualTo(1 + 2 * 3);
        assertThat(take(ticketTable, "orders", 0, 1)).isEqualTo(1 + 3 * 3);
        assertThat(take(ticketTable, "orders", 100, 1)).isEqualTo(100 + 3);
        assertThat(take(ticketTable, "refunds", 0, 1)).isEqualTo(1 + 3);
    }

    @Test
    void aRowWrittenForAnotherNumberOfServersIsRefused() {
        take(ticketTable(1, 3, SchemaInitialization.ALWAYS), "orders", 0, 1);

        assertThatThrownBy(() -> take(ticketTable(0, 2, SchemaInitialization.ALWAYS), "orders", 0, 1))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("The ticket row for 'orders' on server t0 was written for 3 servers, but 2 are configured"
                        + " now; its IDs would collide with another server's. Migrate the rows before changing the"
                        + " number of servers");
    }

    @Test
    void aResetStartsTheNameOverAtTheOffset() {
        TicketTable ticketTable = ticketTable(2, 5, SchemaInitialization.ALWAYS);
        take(ticketTable, "orders", 0, 4);

        int reset = ticketTable
                .statements()
                .execute("reset", (connection, sql) -> ticketTable.reset(connection, sql, "orders"));

        assertThat(reset).isEqualTo(1);
        assertThat(take(ticketTable, "orders", 0, 1)).isEqualTo(2 + 5);
    }

    @Test
    void aMissingTableIsReportedWithItsDdl() {
        TicketTable ticketTable = ticketTable(0, 1, SchemaInitialization.NEVER);

        assertThatThrownBy(() -> ticketTable.statements().execute("check", (connection, sql) -> {
                    ticketTable.probe(connection, sql.dialect());
                    return null;
                }))
                .isInstanceOfSatisfying(TicketTableMissingException.class, e -> {
                    assertThat(e.server()).isEqualTo("t0");
                    assertThat(e.getMessage()).contains(table).contains("META-INF/idgen/ticket-mysql.sql");
                });
    }
}
