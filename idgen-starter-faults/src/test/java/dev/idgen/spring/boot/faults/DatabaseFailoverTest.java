package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.endpoint.IdgenEndpoint;
import dev.idgen.spring.boot.autoconfigure.endpoint.IdgenEndpointAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenGeneratorsHealthContributor;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.OwnMariaDbReplicaSet;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * An application at default idgen settings (segments, and a ticket generator beside them) on a MariaDB primary and
 * asynchronous replica of the test's own, through the driver's failover URL: the replica lags, the primary is killed
 * with {@code kill -9}, the replica is promoted. The application serves on without a restart, nothing repeats, and
 * what happened shows where an operator looks: the {@code idgen.jdbc.failovers} meter, health and the {@code idgen}
 * Actuator endpoint.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DatabaseFailoverTest {

    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(120);

    @Test
    void anApplicationServesOnThroughALaggingPromotionAndReportsTheJump() throws Exception {
        try (OwnMariaDbReplicaSet set = OwnMariaDbReplicaSet.start()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(set.failoverUrl());
            config.setUsername("root");
            config.setConnectionTimeout(2000);
            config.setValidationTimeout(1000);
            try (HikariDataSource pool = new HikariDataSource(config)) {
                new ApplicationContextRunner()
                        .withConfiguration(AutoConfigurations.of(
                                IdgenAutoConfiguration.class,
                                IdgenHealthContributorAutoConfiguration.class,
                                IdgenMetricsAutoConfiguration.class,
                                MetricsAutoConfiguration.class,
                                SimpleMetricsExportAutoConfiguration.class,
                                IdgenEndpointAutoConfiguration.class,
                                EndpointAutoConfiguration.class))
                        .withBean(HikariDataSource.class, () -> pool, definition -> definition.setDestroyMethodName(""))
                        .withPropertyValues(
                                "idgen.strategy=segment",
                                "idgen.jdbc.initialize-schema=always",
                                "idgen.generators.invoice.strategy=ticket",
                                "management.endpoints.web.exposure.include=idgen")
                        .run(context -> {
                            IdService ids = context.getBean(IdService.class);
                            long before = ids.nextId("orders");
                            long ticketBefore = ids.nextId("invoice");
                            set.awaitReplicaCaughtUp(java.time.Duration.ofSeconds(120));
                            set.stopReplication();
                            // Only the primary learns of these: the block's successor (taken by a batch far larger
                            // than a block) and the tickets.
                            long[] lost = ids.nextIds("orders", 5000);
                            long lastTicket = 0;
                            for (int i = 0; i < 50; i++) {
                                lastTicket = ids.nextId("invoice");
                            }
                            set.killPrimary();
                            set.promoteReplica();

                            MeterRegistry registry = context.getBean(MeterRegistry.class);
                            // Draw on until the instance has loaded a block from the promoted replica (until then it
                            // serves what it holds): every ID above the last one handed out before.
                            long highest = lost[lost.length - 1];
                            long deadline = System.nanoTime() + DEADLINE_NANOS;
                            while (registry.get("idgen.jdbc.failovers")
                                            .tag("generator", "default")
                                            .functionCounter()
                                            .count()
                                    == 0) {
                                assertThat(System.nanoTime())
                                        .as("a block loaded from the promoted replica")
                                        .isLessThan(deadline);
                                long[] batch = awaitAnswer(() -> ids.nextIds("orders", 5000));
                                assertThat(batch[0]).isGreaterThan(highest);
                                highest = batch[batch.length - 1];
                            }
                            long ticketAfter = awaitAnswer(() -> ids.nextId("invoice"));
                            assertThat(ticketAfter)
                                    .as("no ticket handed out again")
                                    .isGreaterThan(lastTicket)
                                    .isGreaterThan(ticketBefore);
                            assertThat(before).isPositive();

                            assertThat(registry.get("idgen.jdbc.failovers")
                                            .tag("generator", "default")
                                            .functionCounter()
                                            .count())
                                    .as("the segment row jumped")
                                    .isEqualTo(1);
                            assertThat(registry.get("idgen.jdbc.failovers")
                                            .tag("generator", "invoice")
                                            .functionCounter()
                                            .count())
                                    .as("the ticket row jumped")
                                    .isEqualTo(1);
                            Map<String, ? extends HealthIndicator> indicators = context.getBean(
                                            IdgenGeneratorsHealthContributor.class)
                                    .indicators();
                            assertThat(indicators.get("default").health().toString())
                                    .contains("failovers=1")
                                    .contains("lastFailover=")
                                    .contains("promoted copy");
                            assertThat(indicators.get("invoice").health().toString())
                                    .contains("failovers=1")
                                    .contains("replication=");
                            Map<String, Object> segments =
                                    context.getBean(IdgenEndpoint.class).generator("default");
                            assertThat(segments.get("failover").toString())
                                    .contains("failovers=1")
                                    .contains("failoverJump=100000000000");
                        });
            }
        }
    }

    private static <T> T awaitAnswer(Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            try {
                return call.get();
            } catch (IdGenerationException e) {
                // The refusals a failover may cause; anything else is a defect and fails the test at once.
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
