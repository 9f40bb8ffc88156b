package dev.idgen.spring.boot.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class IdgenHealthContributorAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenHealthContributorAutoConfiguration.class));

    @Test
    void reportsUpWithWorkerIdLastTimestampAndRemainingLifetime() {
        runner.withPropertyValues("idgen.snowflake.worker-id=12").run(context -> {
            assertThat(context).hasBean("idgenHealthIndicator");
            Health health = context.getBean("idgenHealthIndicator", HealthIndicator.class)
                    .health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails())
                    .containsEntry("strategy", "snowflake")
                    .containsEntry("workerId", 12L)
                    .containsEntry("layoutExhaustsAt", "2094-09-07T15:47:35.552Z")
                    .containsKeys("lastTimestamp", "remainingLifetimeDays");
        });
    }

    @Test
    void reportsDownWhileTheClockIsBehindBeyondTheTolerance() {
        runner.withUserConfiguration(ManualClockConfiguration.class).run(context -> {
            ManualTimeSource time = context.getBean(ManualTimeSource.class);
            HealthIndicator indicator = context.getBean("idgenHealthIndicator", HealthIndicator.class);
            time.advanceMillis(1);
            context.getBean(IdService.class).nextId();

            time.advanceMillis(-60_000);
            Health down = indicator.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails())
                    .containsEntry("clockBehindMillis", 60_000L)
                    .hasEntrySatisfying(
                            "error", error -> assertThat(error.toString()).contains("tolerance of 5 ms"));

            time.advanceMillis(60_000);
            assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void reportsDownOnceTheGeneratorIsClosed() {
        runner.run(context -> {
            HealthIndicator indicator = context.getBean("idgenHealthIndicator", HealthIndicator.class);
            context.getBean(dev.idgen.core.snowflake.SnowflakeGenerator.class).close();
            Health health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("error", "The Snowflake generator is closed");
        });
    }

    @Test
    void theCheckThreadStopsWithTheContext() {
        HealthIndicator[] kept = new HealthIndicator[1];
        runner.run(context -> {
            kept[0] = context.getBean("idgenHealthIndicator", HealthIndicator.class);
            assertThat(kept[0].health().getStatus()).isEqualTo(Status.UP);
        });
        // Closing the context closed the indicator (an AutoCloseable bean): its thread is gone, not leaked.
        Health afterClose = kept[0].health();
        assertThat(afterClose.getStatus()).isEqualTo(Status.DOWN);
        assertThat(afterClose.getDetails()).containsEntry("error", "The idgen health indicator is closed");
    }

    @Test
    void canBeTurnedOff() {
        runner.withPropertyValues("management.health.idgen.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("idgenHealthIndicator"));
    }

    @Test
    void registersNothingWithoutTheHealthApiAndTheServiceStillWorks() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
            assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean("idgenHealthIndicator")
                    .hasSingleBean(IdService.class);
            assertThat(context.getBean(IdService.class).nextId()).isPositive();
        });
    }

    @Test
    void registersNothingWhenIdgenIsDisabled() {
        runner.withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("idgenHealthIndicator"));
    }

    @Configuration(proxyBeanMethods = false)
    static class ManualClockConfiguration {

        @Bean
        ManualTimeSource manualTimeSource() {
            return new ManualTimeSource(Instant.parse("2026-06-01T00:00:00Z"));
        }
    }
}
