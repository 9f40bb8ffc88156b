package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.NameLimitExceededException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Segment meters and health over a store the test can take down and bring back.
 */
class SegmentMetricsAndHealthTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    IdgenAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class))
            .withUserConfiguration(StoreConfiguration.class)
            .withPropertyValues(
                    "idgen.strategy=segment", "idgen.segment.step=100", "idgen.segment.await-timeout=200ms");

    @Test
    void publishesPerNameMetersIncludingNamesFirstUsedAfterStartUp() {
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            ids.nextIds("orders", 30);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("idgen.ids.generated")
                            .tag("strategy", "segment")
                            .functionCounter()
                            .count())
                    .isEqualTo(30);
            assertThat(registry.get("idgen.segment.remaining")
                            .tag("name", "orders")
                            .tag("buffer", "current")
                            .gauge()
                            .value())
                    .isEqualTo(70);
            // 100 first; the preload at the 21st ID may already have doubled it.
            assertThat(registry.get("idgen.segment.step")
                            .tag("name", "orders")
                            .gauge()
                            .value())
                    .isIn(100.0, 200.0);
            assertThat(registry.get("idgen.segment.waits")
                            .tag("name", "orders")
                            .functionCounter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("idgen.segment.fetches")
                            .tag("name", "orders")
                            .tag("outcome", "success")
                            .functionTimer()
                            .count())
                    .isGreaterThanOrEqualTo(1);
            assertThat(registry.get("idgen.segment.fetches")
                            .tag("name", "orders")
                            .tag("outcome", "failure")
                            .functionTimer()
                            .count())
                    .isZero();
        });
    }

    @Test
    void healthIsDownWhenTheStoreIsDownFromTheStartAndUpOnceItAnswers() {
        runner.run(context -> {
            InMemorySegmentStore store = context.getBean(InMemorySegmentStore.class);
            HealthIndicator indicator = context.getBean("idgenHealthIndicator", HealthIndicator.class);
            store.setAvailable(false);
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails())
                    .containsEntry("storeAvailable", false)
                    .hasEntrySatisfying(
                            "error", error -> assertThat(error.toString()).contains("unavailable"));
            store.setAvailable(true);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void whileTheStoreIsDownANameWithIdsLeftReportsItsBufferAndGoesDownWhenItRunsOut() {
        runner.run(context -> {
            InMemorySegmentStore store = context.getBean(InMemorySegmentStore.class);
            HealthIndicator indicator = context.getBean("idgenHealthIndicator", HealthIndicator.class);
            IdService ids = context.getBean(IdService.class);
            ids.nextIds("orders", 10);
            store.setAvailable(false);
            Health holding = indicator.health();
            assertThat(holding.getStatus()).isEqualTo(Status.UP);
            assertThat(holding.getDetails()).containsEntry("storeAvailable", false);
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> names =
                    (Map<String, Map<String, Object>>) holding.getDetails().get("names");
            assertThat(names.get("orders")).containsKey("remaining");

            ids.nextIds("orders", 90);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Test
    void manyNamesKeepMetersAndHealthBoundedAndNamesPastTheLimitAreRefused() {
        runner.withPropertyValues("idgen.max-names=130").run(context -> {
            IdService ids = context.getBean(IdService.class);
            for (int i = 0; i < 130; i++) {
                ids.nextId("name" + i);
            }
            assertThatThrownBy(() -> ids.nextId("one-too-many"))
                    .isInstanceOf(NameLimitExceededException.class)
                    .hasMessageContaining("limit of 130 names");
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.find("idgen.segment.step").gauges())
                    .as("one per metered name")
                    .hasSize(SegmentMeters.METERED_NAMES);
            assertThat(registry.get("idgen.segment.waits")
                            .tag("name", SegmentMeters.OTHER_NAMES)
                            .functionCounter()
                            .count())
                    .as("each of the 30 other names waited for its first segment")
                    .isEqualTo(30);
            assertThat(registry.get("idgen.segment.fetches")
                            .tag("name", SegmentMeters.OTHER_NAMES)
                            .tag("outcome", "success")
                            .functionTimer()
                            .count())
                    .isGreaterThanOrEqualTo(30);
            Health health = context.getBean("idgenHealthIndicator", HealthIndicator.class)
                    .health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("nameCount", 130).containsEntry("maxNames", 130);
            assertThat((Map<?, ?>) health.getDetails().get("names")).hasSize(SegmentHealth.LISTED_NAMES);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class StoreConfiguration {

        @Bean
        InMemorySegmentStore inMemorySegmentStore() {
            return new InMemorySegmentStore();
        }
    }
}
