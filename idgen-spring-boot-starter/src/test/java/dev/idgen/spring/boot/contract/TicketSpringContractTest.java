package dev.idgen.spring.boot.contract;

import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;

/**
 * The contract on {@code idgen.strategy=ticket}, on the real MariaDB.
 */
class TicketSpringContractTest extends SpringIdServiceContract {

    private static final String TABLE = "idgen_contract_ticket_"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    @Override
    protected List<String> properties() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return List.of(
                "idgen.strategy=ticket",
                "idgen.ticket.table=" + TABLE,
                "idgen.jdbc.initialize-schema=always",
                "spring.datasource.url=" + mariadb.url(),
                "spring.datasource.username=" + mariadb.username(),
                "spring.datasource.password=" + mariadb.password());
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }

    @Override
    protected int idsPerThread() {
        // One committed round trip per ID.
        return 2_000;
    }

    @AfterAll
    static void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }
}
