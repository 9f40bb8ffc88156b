package dev.idgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.test.IdServiceContract;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/**
 * The {@link IdService} contract for tickets from one MariaDB server, through the plain-Java constructors, on a table
 * of the test's own. One server hands out every ID of a name from one row, so IDs increase across threads.
 */
class TicketIdServiceContractMariaDbTest extends IdServiceContract {

    private final String table =
            "idgen_ticket_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final HikariDataSource pool = TestServices.mariadb().pool(8);

    @Override
    protected IdService service() {
        return new TicketIdService(
                List.of(new TicketServer(
                        "contract",
                        pool,
                        table,
                        0,
                        1,
                        SchemaInitialization.ALWAYS,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(1),
                        TimeSource.system())),
                false);
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }

    /** Every call is a round trip that commits: fewer IDs keep the test within seconds. */
    @Override
    protected int idsPerThread() {
        return 5_000;
    }

    @AfterEach
    void dropTable() throws Exception {
        try (pool;
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
