package dev.idgen.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class IdgenMetricsAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    IdgenAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class,
                    MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class));

    @Test
    void publishesTheCountersTaggedWithTheStrategy() {
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            ids.nextIds("orders", 5);
            ids.nextId();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("idgen.ids.generated")
                            .tag("strategy", "snowflake")
                            .functionCounter()
                            .count())
                    .isEqualTo(6);
            assertThat(registry.get("idgen.clock.backwards")
                            .tag("strategy", "snowflake")
                            .functionCounter()
                            .count())
                    .isZero();
            assertThat(registry.get("idgen.sequence.overflow.waits")
                            .functionCounter()
                            .count())
                    .as("six IDs from a tick of 4,096")
                    .isZero();
            assertThat(registry.get("idgen.layout.remaining").timeGauge().value(java.util.concurrent.TimeUnit.DAYS))
                    .isGreaterThan(365 * 60);
        });
    }

    @Test
    void countsTheWaitsForAUsedUpSequence() {
        // One sequence bit gives two IDs a millisecond, so a batch of 1,000 outruns the clock hundreds of times over.
        runner.withPropertyValues("idgen.snowflake.sequence-bits=1").run(context -> {
            context.getBean(IdService.class).nextIds("orders", 1_000);
            long waits = context.getBean(dev.idgen.core.snowflake.SnowflakeGenerator.class)
                    .sequenceOverflowWaits();
            assertThat(waits).isPositive();
            assertThat(context.getBean(MeterRegistry.class)
                            .get("idgen.sequence.overflow.waits")
                            .tag("strategy", "snowflake")
                            .functionCounter()
                            .count())
                    .isEqualTo(waits);
        });
    }

    @Test
    void registersNothingWithoutMicrometerAndTheServiceStillWorks() {
        runner.withClassLoader(
                        new FilteredClassLoader(MeterBinder.class, MeterRegistry.class, SimpleMeterRegistry.class))
                .run(context -> {
                    assertThat(context)
                            .hasNotFailed()
                            .doesNotHaveBean(IdgenMeterBinder.class)
                            .hasSingleBean(IdService.class);
                    assertThat(context.getBean(IdService.class).nextId()).isPositive();
                });
    }

    @Test
    void registersNothingWhenIdgenIsDisabled() {
        runner.withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(IdgenMeterBinder.class));
    }
}
