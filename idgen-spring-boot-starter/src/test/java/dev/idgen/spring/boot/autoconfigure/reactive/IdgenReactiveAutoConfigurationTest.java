package dev.idgen.spring.boot.autoconfigure.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ReadableIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.reactive.BoundedBlockingExecutor;
import dev.idgen.spring.reactive.ReactiveIdService;
import dev.idgen.spring.reactive.ReactiveReadableIdService;
import dev.idgen.test.services.TestServices;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * When the reactive face is configured, over which service, and how its settings are checked.
 */
class IdgenReactiveAutoConfigurationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenReactiveAutoConfiguration.class));

    @Test
    void servesTheIdServiceOfTheContextReactively() {
        runner.run(context -> {
            ReactiveIdService reactive = context.getBean(ReactiveIdService.class);
            IdService ids = context.getBean(IdService.class);
            assertThat(reactive.blocking()).isSameAs(ids);
            long id = reactive.nextId().block(DEADLINE);
            assertThat(id).isPositive();
            assertThat(ids.nextId()).isGreaterThan(id);
            StepVerifier.create(reactive.nextIds("orders", 3))
                    .assertNext(batch -> assertThat(batch).hasSize(3).isSorted().doesNotHaveDuplicates())
                    .expectComplete()
                    .verify(DEADLINE);
            assertThat(reactive.ids("orders").take(5).collectList().block(DEADLINE))
                    .hasSize(5)
                    .doesNotHaveDuplicates()
                    .isSorted();
            assertThat(context).doesNotHaveBean(ReactiveReadableIdService.class);
        });
    }

    @Test
    void readableIdsGetAReactiveServiceOverTheReadableIdServiceOnRealRedis() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenReactiveAutoConfiguration.class))
                .withPropertyValues(
                        "spring.data.redis.host=" + TestServices.redis().host(),
                        "spring.data.redis.port=" + TestServices.redis().port(),
                        "idgen.redis.prefix=rxa" + UUID.randomUUID().toString().substring(0, 8) + ":",
                        "idgen.redis.buckets.enabled=true")
                .run(context -> {
                    ReactiveReadableIdService reactive = context.getBean(ReactiveReadableIdService.class);
                    assertThat(reactive.blocking()).isSameAs(context.getBean(ReadableIdService.class));
                    StepVerifier.create(reactive.nextReadableId("ORD"))
                            .assertNext(id -> assertThat(reactive.blocking()
                                            .decodeReadable(id)
                                            .toMap())
                                    .containsEntry("bizCode", "ORD"))
                            .expectComplete()
                            .verify(DEADLINE);
                    StepVerifier.create(reactive.nextReadableId("TOOLONG"))
                            .expectErrorSatisfies(e -> assertThat(e)
                                    .isInstanceOf(InvalidArgumentException.class)
                                    .hasMessageContaining("bizCode"))
                            .verify(DEADLINE);
                });
    }

    @Test
    void badArgumentsArriveAsErrorsNotThrows() {
        runner.run(context -> {
            ReactiveIdService reactive = context.getBean(ReactiveIdService.class);
            Mono<Long> badName = reactive.nextId("no spaces");
            StepVerifier.create(badName)
                    .expectErrorSatisfies(e -> assertThat(e)
                            .isInstanceOf(InvalidArgumentException.class)
                            .hasMessageContaining("name"))
                    .verify(DEADLINE);
            StepVerifier.create(reactive.nextIds("orders", IdService.MAX_BATCH_SIZE + 1))
                    .expectErrorSatisfies(e -> assertThat(e)
                            .isInstanceOf(InvalidArgumentException.class)
                            .hasMessageContaining("count"))
                    .verify(DEADLINE);
            StepVerifier.create(reactive.ids("no spaces"))
                    .expectError(InvalidArgumentException.class)
                    .verify(DEADLINE);
        });
    }

    @Test
    void theBlockingExecutorIsBoundedAsConfiguredAndStopsWithTheContext() {
        runner.withPropertyValues("idgen.reactive.blocking-threads=2", "idgen.reactive.blocking-queue=5")
                .run(context -> {
                    BoundedBlockingExecutor executor = context.getBean(BoundedBlockingExecutor.class);
                    assertThat(context.getBean(IdgenReactiveProperties.class).blockingThreadsOrDefault())
                            .isEqualTo(2);
                    context.close();
                    assertThatThrownBy(() -> executor.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
                });
    }

    @Test
    void isLeftOutWithoutReactor() {
        runner.withClassLoader(new FilteredClassLoader(Mono.class))
                .run(context -> assertThat(context)
                        .hasSingleBean(IdService.class)
                        .doesNotHaveBean(ReactiveIdService.class)
                        .doesNotHaveBean(BoundedBlockingExecutor.class));
    }

    @Test
    void isLeftOutWhenIdgenIsDisabled() {
        runner.withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(IdService.class)
                        .doesNotHaveBean(ReactiveIdService.class));
    }

    @Test
    void aBlockingThreadCountOutOfRangeFailsStartUpNamingThePropertyAndRange() {
        runner.withPropertyValues("idgen.reactive.blocking-threads=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("idgen.reactive.blocking-threads")
                    .hasMessageContaining("must be between 1 and 1000");
        });
        runner.withPropertyValues("idgen.reactive.blocking-threads=1001")
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("idgen.reactive.blocking-threads"));
    }

    @Test
    void aBlockingQueueOutOfRangeFailsStartUpNamingThePropertyAndRange() {
        runner.withPropertyValues("idgen.reactive.blocking-queue=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("idgen.reactive.blocking-queue")
                    .hasMessageContaining("must be between 1 and 1000000");
        });
    }
}
