package dev.idgen.spring.boot.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.endpoint.IdgenEndpoint;
import dev.idgen.spring.boot.autoconfigure.endpoint.IdgenEndpointAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.TestServices;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The failover settings and reports of the JDBC stores, on the machine's MariaDB: {@code idgen.jdbc.failover-jump}
 * and {@code idgen.ticket.failover-jump} reach the stores and are checked at start-up, and health and meters show
 * the failover detection, the jumps made and the database's replication.
 */
class IdgenJdbcFailoverAutoConfigurationTest {

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private static final String SEGMENTS = "idgen_fo_seg_" + SUFFIX;
    private static final String TICKETS = "idgen_fo_tkt_" + SUFFIX;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class,
                    MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class))
            .withUserConfiguration(MariaDb.class)
            .withPropertyValues(
                    "idgen.jdbc.table=" + SEGMENTS,
                    "idgen.ticket.table=" + TICKETS,
                    "idgen.jdbc.initialize-schema=always");

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + SEGMENTS);
            statement.execute("DROP TABLE IF EXISTS " + TICKETS);
        }
    }

    @Test
    void segmentHealthAndMetersShowTheDetectionTheJumpAndTheReplication() {
        runner.withPropertyValues("idgen.strategy=segment", "idgen.jdbc.failover-jump=5000000")
                .run(context -> {
                    context.getBean(IdService.class).nextId("orders");
                    Health health = context.getBean("idgenHealthIndicator", HealthIndicator.class)
                            .health();
                    assertThat(health.getDetails())
                            .containsEntry("failoverDetection", "on")
                            .containsEntry("failoverJump", 5_000_000L)
                            .containsEntry("failovers", 0L)
                            .containsKey("replication")
                            .containsKey("lossless");
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("idgen.jdbc.failovers")
                                    .tag("strategy", "segment")
                                    .functionCounter()
                                    .count())
                            .isZero();
                });
    }

    @Test
    void ticketsTakeTheirOwnJumpRoundedToTheServersAndShowIt() {
        runner.withPropertyValues("idgen.strategy=ticket", "idgen.ticket.failover-jump=1000")
                .run(context -> {
                    context.getBean(IdService.class).nextId("invoice");
                    Health health = context.getBean("idgenHealthIndicator", HealthIndicator.class)
                            .health();
                    assertThat(health.getDetails().get("servers").toString())
                            .contains("failoverJump=1000")
                            .contains("failoverDetection=on")
                            .contains("replication=");
                    assertThat(context.getBean(MeterRegistry.class)
                                    .get("idgen.jdbc.failovers")
                                    .functionCounter()
                                    .count())
                            .isZero();
                });
    }

    @Test
    void aGeneratorCountingPerPeriodJumpsAtMostOnePercentOfAPeriodsNumbers() {
        // Daily numbers have 8 digits by default: a jump of 10^11 would use up the day after one failover.
        runner.withConfiguration(AutoConfigurations.of(
                        IdgenEndpointAutoConfiguration.class,
                        org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration.class))
                .withPropertyValues(
                        "idgen.strategy=segment",
                        "idgen.period=daily",
                        "management.endpoints.web.exposure.include=idgen")
                .run(context -> {
                    context.getBean(IdService.class).nextId("invoice");
                    assertThat(context.getBean(IdgenEndpoint.class)
                                    .generator("default")
                                    .get("failover")
                                    .toString())
                            .contains("failoverJump=1000000,");
                });
    }

    @Test
    void aNegativeJumpFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("idgen.strategy=segment", "idgen.jdbc.failover-jump=-1")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                            .hasMessageContaining("idgen.jdbc.failover-jump");
                });
        runner.withPropertyValues("idgen.strategy=ticket", "idgen.ticket.failover-jump=-5")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                            .hasMessageContaining("idgen.ticket.failover-jump");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class MariaDb {
        @Bean(destroyMethod = "close")
        HikariDataSource dataSource() {
            return TestServices.mariadb().pool(4);
        }
    }
}
