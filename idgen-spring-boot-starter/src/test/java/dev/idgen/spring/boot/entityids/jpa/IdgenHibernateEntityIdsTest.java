package dev.idgen.spring.boot.entityids.jpa;

import static dev.idgen.spring.boot.entityids.EntityIdDatabase.ROWS;
import static dev.idgen.spring.boot.entityids.EntityIdDatabase.THREADS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenHibernateAutoConfiguration;
import dev.idgen.spring.boot.entityids.EntityIdDatabase;
import dev.idgen.spring.boot.entityids.jpabad.JpaIntIdEntity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.function.Consumer;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * {@code @IdgenId} on JPA entities, with Spring Boot's Hibernate on real MariaDB and PostgreSQL: 10,000 rows persisted
 * from 4 threads in JDBC batches, an ID set before {@code persist} kept, and {@code String} and primitive {@code long}
 * IDs.
 */
class IdgenHibernateEntityIdsTest {

    private static final int BATCH_SIZE = 50;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenHibernateAutoConfiguration.class))
            .withUserConfiguration(Entities.class)
            .withPropertyValues(
                    "spring.jpa.hibernate.ddl-auto=create-drop",
                    "spring.jpa.properties.hibernate.jdbc.batch_size=" + BATCH_SIZE,
                    "spring.jpa.properties.hibernate.generate_statistics=true",
                    "spring.datasource.hikari.maximum-pool-size=" + (THREADS + 1),
                    "idgen.generators.ticketno.form=uuid-v7");

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void tenThousandEntitiesFromFourThreadsGetDistinctIdsInBatches(EntityIdDatabase database) {
        runner.withPropertyValues(database.dataSourceProperties()).run(context -> {
            EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
            Statistics statistics = factory.unwrap(SessionFactory.class).getStatistics();
            statistics.clear();
            EntityIdDatabase.onFourThreads(thread -> inTransaction(factory, entities -> {
                for (int i = 0; i < ROWS / THREADS; i++) {
                    entities.persist(new JpaOrder(null, "item " + thread + "/" + i));
                    if ((i + 1) % (BATCH_SIZE * 10) == 0) {
                        entities.flush();
                        entities.clear();
                    }
                }
            }));
            database.assertTenThousandDistinctIds("idgen_ejpa_order");
            assertThat(database.ids("idgen_ejpa_order"))
                    .allSatisfy(id -> assertThat((Long) id).isPositive());
            assertThat(statistics.getEntityInsertCount()).isEqualTo(ROWS);
            // Without batching each insert is a statement of its own (10,000); batched, a statement serves a batch.
            assertThat(statistics.getPrepareStatementCount())
                    .as("JDBC statements prepared for %d inserts", ROWS)
                    .isLessThanOrEqualTo(2L * ROWS / BATCH_SIZE);
        });
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void anIdSetBeforePersistIsKeptAndStringAndPrimitiveIdsAreFilledIn(EntityIdDatabase database) {
        runner.withPropertyValues(database.dataSourceProperties()).run(context -> {
            EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
            JpaOrder preset = new JpaOrder(4242L, "preset");
            JpaOrder fresh = new JpaOrder(null, "fresh");
            JpaTicket ticket = new JpaTicket(null, "string id");
            JpaTicket presetTicket = new JpaTicket("T-1", "preset string id");
            JpaLine line = new JpaLine(0, 3);
            JpaLine presetLine = new JpaLine(77, 4);
            inTransaction(
                    factory,
                    entities -> List.of(preset, fresh, ticket, presetTicket, line, presetLine)
                            .forEach(entities::persist));
            assertThat(preset.getId()).isEqualTo(4242L);
            assertThat(fresh.getId()).isPositive().isNotEqualTo(4242L);
            assertThat(ticket.getId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            assertThat(presetTicket.getId()).isEqualTo("T-1");
            assertThat(line.getId()).isPositive();
            assertThat(presetLine.getId()).isEqualTo(77L);
            assertThat(database.ids("idgen_ejpa_order")).containsExactlyInAnyOrder(4242L, fresh.getId());
            assertThat(database.ids("idgen_ejpa_ticket")).containsExactlyInAnyOrder(ticket.getId(), "T-1");
            assertThat(database.ids("idgen_ejpa_line")).containsExactlyInAnyOrder(line.getId(), 77L);
        });
    }

    @Test
    void anIntIdFailsStartUpNamingTheFieldAndTheAllowedTypes() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenHibernateAutoConfiguration.class))
                .withUserConfiguration(BadEntities.class)
                .withPropertyValues(EntityIdDatabase.POSTGRESQL.dataSourceProperties())
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessage("@IdgenId on " + JpaIntIdEntity.class.getName()
                                + ".id: its type int is not supported;" + " idgen fills in long, Long or String"));
    }

    @Test
    void withIdgenDisabledAnIdgenIdEntityFailsStartUpSayingWhatIsMissing() {
        runner.withPropertyValues(EntityIdDatabase.POSTGRESQL.dataSourceProperties())
                .withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("needs a dev.idgen.core.IdService bean")
                        .hasMessageContaining("idgen.enabled=false"));
    }

    private static void inTransaction(EntityManagerFactory factory, Consumer<EntityManager> work) {
        EntityManager entities = factory.createEntityManager();
        try {
            entities.getTransaction().begin();
            work.accept(entities);
            entities.getTransaction().commit();
        } finally {
            if (entities.getTransaction().isActive()) {
                entities.getTransaction().rollback();
            }
            entities.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EntityScan(basePackageClasses = JpaOrder.class)
    static class Entities {}

    @Configuration(proxyBeanMethods = false)
    @EntityScan(basePackageClasses = JpaIntIdEntity.class)
    static class BadEntities {}
}
