package dev.idgen.spring.boot.entityids.jdbc;

import static dev.idgen.spring.boot.entityids.EntityIdDatabase.ROWS;
import static dev.idgen.spring.boot.entityids.EntityIdDatabase.THREADS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.spring.IdgenIdBeforeConvertCallback;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenDataJdbcAutoConfiguration;
import dev.idgen.spring.boot.entityids.EntityIdDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code @IdgenId} on Spring Data JDBC aggregates, on real MariaDB and PostgreSQL: 10,000 rows saved from 4 threads
 * ({@code saveAll} and {@code insertAll}), an ID set before {@code insert} kept, a record's {@code String} ID and a
 * primitive {@code long} ID.
 */
class IdgenDataJdbcEntityIdsTest {

    private static final String[] TABLES = {"idgen_ejdbc_order", "idgen_ejdbc_ticket", "idgen_ejdbc_line"};

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    JdbcTemplateAutoConfiguration.class,
                    DataJdbcRepositoriesAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenDataJdbcAutoConfiguration.class))
            .withUserConfiguration(Aggregates.class)
            .withPropertyValues(
                    "spring.datasource.hikari.maximum-pool-size=" + (THREADS + 1),
                    "idgen.generators.ticketno.form=uuid-v7");

    @AfterAll
    static void dropTables() throws Exception {
        for (EntityIdDatabase database : EntityIdDatabase.values()) {
            dropTables(database);
        }
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void tenThousandAggregatesFromFourThreadsGetDistinctIds(EntityIdDatabase database) throws Exception {
        createTables(database);
        runner.withPropertyValues(database.dataSourceProperties()).run(context -> {
            assertThat(context).hasSingleBean(IdgenIdBeforeConvertCallback.class);
            JdbcAggregateTemplate aggregates = context.getBean(JdbcAggregateTemplate.class);
            TransactionTemplate transaction =
                    new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
            EntityIdDatabase.onFourThreads(thread -> {
                List<JdbcOrder> orders = new ArrayList<>();
                for (int i = 0; i < ROWS / THREADS; i++) {
                    orders.add(new JdbcOrder(null, "item " + thread + "/" + i));
                }
                // Both batch paths: saveAll decides insert per aggregate (an unset ID is new), insertAll always
                // inserts.
                List<JdbcOrder> saved = transaction.execute(
                        status -> thread % 2 == 0 ? aggregates.saveAll(orders) : aggregates.insertAll(orders));
                assertThat(saved)
                        .hasSize(ROWS / THREADS)
                        .allSatisfy(order -> assertThat(order.getId()).isPositive());
            });
            database.assertTenThousandDistinctIds("idgen_ejdbc_order");
        });
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void anIdSetBeforeInsertIsKeptAndStringAndPrimitiveIdsAreFilledIn(EntityIdDatabase database) throws Exception {
        createTables(database);
        runner.withPropertyValues(database.dataSourceProperties()).run(context -> {
            JdbcAggregateTemplate aggregates = context.getBean(JdbcAggregateTemplate.class);
            JdbcOrder preset = aggregates.insert(new JdbcOrder(4242L, "preset"));
            JdbcOrder fresh = aggregates.save(new JdbcOrder(null, "fresh"));
            JdbcTicket ticket = aggregates.save(new JdbcTicket(null, "string id"));
            JdbcTicket presetTicket = aggregates.insert(new JdbcTicket("T-1", "preset string id"));
            JdbcLine line = aggregates.save(new JdbcLine(0, 3));
            JdbcLine presetLine = aggregates.insert(new JdbcLine(77, 4));
            assertThat(preset.getId()).isEqualTo(4242L);
            assertThat(fresh.getId()).isPositive().isNotEqualTo(4242L);
            assertThat(ticket.id()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            assertThat(presetTicket.id()).isEqualTo("T-1");
            assertThat(line.getId()).isPositive();
            assertThat(presetLine.getId()).isEqualTo(77L);
            assertThat(database.ids("idgen_ejdbc_order")).containsExactlyInAnyOrder(4242L, fresh.getId());
            assertThat(database.ids("idgen_ejdbc_ticket")).containsExactlyInAnyOrder(ticket.id(), "T-1");
            assertThat(database.ids("idgen_ejdbc_line")).containsExactlyInAnyOrder(line.getId(), 77L);
        });
    }

    @Test
    void aUuidIdFailsTheSaveNamingTheFieldAndTheAllowedTypes() {
        runner.withPropertyValues(EntityIdDatabase.POSTGRESQL.dataSourceProperties())
                .run(context -> assertThatThrownBy(() ->
                                context.getBean(JdbcAggregateTemplate.class).save(new JdbcUuidThing()))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage("@IdgenId on " + JdbcUuidThing.class.getName() + ".id: its type java.util.UUID"
                                + " is not supported; idgen fills in long, Long or String"));
    }

    @Test
    void idgenDisabledLeavesSpringDataJdbcAlone() {
        runner.withPropertyValues(EntityIdDatabase.POSTGRESQL.dataSourceProperties())
                .withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(JdbcAggregateTemplate.class)
                        .doesNotHaveBean(IdgenIdBeforeConvertCallback.class));
    }

    /** Where Spring Data JDBC looks for aggregates and repositories, as an application's main class would say. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = JdbcOrder.class)
    static class Aggregates {}

    private static void createTables(EntityIdDatabase database) throws Exception {
        dropTables(database);
        database.execute(
                "CREATE TABLE idgen_ejdbc_order (id BIGINT PRIMARY KEY, item VARCHAR(64))",
                "CREATE TABLE idgen_ejdbc_ticket (id VARCHAR(64) PRIMARY KEY, title VARCHAR(64))",
                "CREATE TABLE idgen_ejdbc_line (id BIGINT PRIMARY KEY, quantity INT)");
    }

    private static void dropTables(EntityIdDatabase database) throws Exception {
        for (String table : TABLES) {
            database.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
