package dev.idgen.spring.boot.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenHibernateAutoConfiguration;
import dev.idgen.spring.boot.entityids.jpa.JpaOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitializationDetector;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * idgen's database beans wait for Spring Boot's database initialisation, here the {@code spring.sql.init} scripts
 * (Flyway and Liquibase are found the same way; {@code MigrationsTest} in idgen-docs-examples runs them on MariaDB and
 * PostgreSQL): with {@code idgen.jdbc.initialize-schema=never}, the tables a script creates are there when idgen checks
 * them, even when an application bean needs the {@link IdService} first.
 */
class IdgenDatabaseInitializationDetectorTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceInitializationAutoConfiguration.class,
                    IdgenAutoConfiguration.class))
            .withUserConfiguration(NeedsIds.class)
            .withPropertyValues(
                    "spring.datasource.url=jdbc:h2:mem:idgen-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                    "spring.sql.init.mode=always",
                    "spring.sql.init.schema-locations=classpath:db/idgen/flyway/h2/R__idgen_tables.sql",
                    "idgen.jdbc.initialize-schema=never",
                    "idgen.generators.invoice.strategy=ticket",
                    "idgen.generators.coupon.strategy=segment");

    @Test
    void isRegisteredForSpringBoot() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation()
                        .load(DependsOnDatabaseInitializationDetector.class))
                .hasAtLeastOneElementOfType(IdgenDatabaseInitializationDetector.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"snowflake", "segment", "ticket"})
    void idgenStartsOnTheTablesThatSpringBootsInitializationCreates(String strategy) {
        runner.withPropertyValues(
                        "idgen.strategy=" + strategy,
                        "idgen.snowflake.worker-id-assigner=jdbc",
                        "idgen.generators.orders.strategy=snowflake",
                        "idgen.generators.orders.snowflake.worker-id-assigner=jdbc")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    String[] initializers = context.getBeanNamesForType(DataSourceScriptDatabaseInitializer.class);
                    assertThat(initializers).hasSize(1);
                    assertThat(context.getBeanFactory()
                                    .getBeanDefinition("idService")
                                    .getDependsOn())
                            .contains(initializers[0]);
                    IdService ids = context.getBean(IdService.class);
                    long first = ids.nextId("any");
                    assertThat(ids.nextId("any")).isGreaterThan(first);
                    assertThat(ids.nextId("invoice")).isEqualTo(1L);
                    assertThat(ids.nextId("coupon")).isEqualTo(1L);
                    long order = ids.nextId("orders");
                    assertThat(ids.nextId("orders")).isGreaterThan(order);
                });
    }

    /**
     * With {@code spring.jpa.defer-datasource-initialization=true}, Spring Boot counts the EntityManagerFactory itself
     * as a database initializer, and idgen's Hibernate integration makes the EntityManagerFactory depend on the
     * IdService (its {@code @IdgenId} generators need it): ordering idgen's beans after every initializer would be a
     * cycle and fail start-up ("Circular depends-on relationship"), so idgen leaves them unordered there, as before.
     */
    @Test
    void aDeferredJpaInitializationStillStartsWithEntityIdsFromIdgen() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        DataSourceInitializationAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenHibernateAutoConfiguration.class))
                .withUserConfiguration(Entities.class)
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:idgen-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        "spring.jpa.hibernate.ddl-auto=create-drop",
                        "spring.jpa.defer-datasource-initialization=true",
                        "spring.sql.init.mode=always",
                        "spring.sql.init.schema-locations=classpath:db/idgen/flyway/h2/R__idgen_tables.sql",
                        "idgen.strategy=segment")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    EntityManager entities =
                            context.getBean(EntityManagerFactory.class).createEntityManager();
                    try {
                        entities.getTransaction().begin();
                        JpaOrder order = new JpaOrder(null, "deferred");
                        entities.persist(order);
                        entities.getTransaction().commit();
                        assertThat(order.getId()).isPositive();
                    } finally {
                        entities.close();
                    }
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EntityScan(basePackageClasses = JpaOrder.class)
    static class Entities {}

    /** An application bean that takes IDs: created before any auto-configured bean. */
    @Configuration(proxyBeanMethods = false)
    static class NeedsIds {

        @Bean
        String firstId(IdService ids) {
            return Long.toString(ids.nextId("first"));
        }
    }
}
