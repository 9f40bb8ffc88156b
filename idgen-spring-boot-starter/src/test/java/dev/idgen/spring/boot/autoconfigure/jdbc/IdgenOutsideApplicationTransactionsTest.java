package dev.idgen.spring.boot.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * idgen's statements never join the application's transaction: IDs taken inside a Spring transaction that rolls back
 * stay taken, on the real MariaDB, for the ticket strategy (a statement per ID) and for segments (a statement per
 * block, small blocks so that the transaction spans several).
 *
 * <p>The pool lends connections with auto-commit off, as many applications configure it, so a statement of idgen's
 * that did not commit at once would be rolled back when its connection goes back to the pool. The instance that took
 * the IDs still remembers them in memory, so the guarantee is checked where it matters: in the table, and by a second
 * instance started after the rollback.
 */
class IdgenOutsideApplicationTransactionsTest {

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.ticket.table=idgen_tx_tickets_" + SUFFIX,
                    "idgen.jdbc.table=idgen_tx_segments_" + SUFFIX,
                    "idgen.segment.step=10",
                    "idgen.segment.max-step=10",
                    "idgen.segment.min-step=10",
                    "spring.datasource.hikari.auto-commit=false");

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS idgen_tx_tickets_" + SUFFIX);
            statement.execute("DROP TABLE IF EXISTS idgen_tx_segments_" + SUFFIX);
        }
    }

    @Test
    void ticketsTakenInARolledBackTransactionAreNotIssuedAgain() {
        runner.withPropertyValues("idgen.strategy=ticket")
                .run(context -> assertNoIdReturnsToThePool(
                        "ticket",
                        context.getBean(IdService.class),
                        context.getBean(DataSource.class),
                        "SELECT id FROM idgen_tx_tickets_" + SUFFIX + " WHERE name = ?"));
    }

    @Test
    void segmentsTakenInARolledBackTransactionAreNotIssuedAgain() {
        runner.withPropertyValues("idgen.strategy=segment")
                .run(context -> assertNoIdReturnsToThePool(
                        "segment",
                        context.getBean(IdService.class),
                        context.getBean(DataSource.class),
                        "SELECT max_id FROM idgen_tx_segments_" + SUFFIX + " WHERE name = ?"));
    }

    private void assertNoIdReturnsToThePool(
            String strategy, IdService ids, DataSource dataSource, String highestInTable) throws Exception {
        String name = strategy + SUFFIX;
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        List<Long> inside = new ArrayList<>();
        transaction.executeWithoutResult(status -> {
            for (int i = 0; i < 25; i++) {
                inside.add(ids.nextId(name));
            }
            status.setRollbackOnly();
        });
        long after = ids.nextId(name);
        assertThat(inside).hasSize(25).doesNotHaveDuplicates();
        long highestInside = inside.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(after).isGreaterThan(highestInside);
        try (Connection connection = TestServices.mariadb().connect();
                PreparedStatement read = connection.prepareStatement(highestInTable)) {
            read.setString(1, name);
            try (ResultSet row = read.executeQuery()) {
                assertThat(row.next()).as("the %s row for %s", strategy, name).isTrue();
                assertThat(row.getLong(1))
                        .as("what the table records as taken after the rollback")
                        .isGreaterThanOrEqualTo(highestInside);
            }
        }
        runner.withPropertyValues("idgen.strategy=" + strategy)
                .run(second -> assertThat(second.getBean(IdService.class).nextId(name))
                        .as("an ID from an instance started after the rollback")
                        .isGreaterThan(highestInside));
    }
}
