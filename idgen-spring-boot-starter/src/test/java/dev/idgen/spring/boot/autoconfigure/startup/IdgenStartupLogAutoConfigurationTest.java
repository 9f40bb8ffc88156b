package dev.idgen.spring.boot.autoconfigure.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.TimeSource;
import dev.idgen.core.lease.InMemoryWorkerIdLeaseStore;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@ExtendWith(OutputCaptureExtension.class)
class IdgenStartupLogAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenStartupLogAutoConfiguration.class));

    @Configuration(proxyBeanMethods = false)
    static class LeasedWorkerIds {

        @Bean
        WorkerIdAssigner workerIdAssigner() {
            return LeasingWorkerIdAssigner.builder(new InMemoryWorkerIdLeaseStore(TimeSource.system()))
                    .instanceId("host-a/42/test")
                    .build();
        }
    }

    @Test
    void aStaticWorkerIdIsLoggedOnceWithTheStrategyAndWhereItCameFrom(CapturedOutput output) {
        runner.withPropertyValues("idgen.snowflake.worker-id=7")
                .run(context -> assertThat(output.getAll())
                        .containsOnlyOnce(
                                "idgen ready: strategy=snowflake, workerId=7 (static: idgen.snowflake.worker-id"));
    }

    @Test
    void aLeasedWorkerIdIsLoggedWithItsOwner(CapturedOutput output) {
        runner.withUserConfiguration(LeasedWorkerIds.class)
                .run(context -> assertThat(output.getAll())
                        .contains("idgen ready: strategy=snowflake, workerId=0 (leased as 'host-a/42/test#"));
    }

    @Test
    void namedGeneratorsAreLoggedOnTheSameLineAfterTheDefaultOne(CapturedOutput output) {
        runner.withPropertyValues(
                        "idgen.snowflake.worker-id=7",
                        "idgen.generators.flake.strategy=snowflake",
                        "idgen.generators.flake.snowflake.worker-id=9")
                .run(context -> assertThat(output.getAll())
                        .containsOnlyOnce("idgen ready: generator default: strategy=snowflake, workerId=7 (static:")
                        .contains("; generator flake: strategy=snowflake, workerId=9 (static:"));
    }

    @Test
    void nothingIsLoggedWhenIdgenIsOff(CapturedOutput output) {
        runner.withPropertyValues("idgen.enabled=false").run(context -> {
            // A context that failed to start logs nothing either, so that alone would prove nothing.
            assertThat(context)
                    .hasNotFailed()
                    .doesNotHaveBean(dev.idgen.core.IdService.class)
                    .doesNotHaveBean("idgenStartupLog");
            assertThat(output.getAll()).doesNotContain("idgen ready");
        });
    }
}
