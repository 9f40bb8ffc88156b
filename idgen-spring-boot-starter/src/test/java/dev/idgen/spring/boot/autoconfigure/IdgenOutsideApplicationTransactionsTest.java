package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
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
 */
class IdgenOutsideApplicationTransactionsTest {

    private static final String SUFFIX = UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "idgen.jdbc.initialize-schema=always", "idgen.ticket.table=idgen_tx_tickets_" + SUFFIX,
                    "idgen.jdbc.table=idgen_tx_segments_" + SUFFIX, "idgen.segment.step=10",
                    "idgen.segment.max-step=10", "idgen.segment.min-step=10");

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
        runner.withPropertyValues("idgen.strategy=ticket").run(context -> assertNoIdReturnsToThePool(
                context.getBean(IdService.class), context.getBean(DataSource.class)));
    }

    @Test
    void segmentsTakenInARolledBackTransactionAreNotIssuedAgain() {
        runner.withPropertyValues("idgen.strategy=segment").run(context -> assertNoIdReturnsToThePool(
                context.getBean(IdService.class), context.getBean(DataSource.class)));
    }

    private static void assertNoIdReturnsToThePool(IdService ids, DataSource dataSource) {
        String name = "tx" + SUFFIX;
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
        assertThat(after).isGreaterThan(inside.get(inside.size() - 1));
    }
}
