package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdService;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.TimeSource;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.TickUnit;
import dev.idgen.core.spi.StaticWorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class IdgenAutoConfigurationTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class));

    @Test
    void aStoppedContextStartedAgainStillIssuesIdsAndAClosedOneClosesTheService() {
        SnowflakeGenerator[] generator = new SnowflakeGenerator[1];
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            generator[0] = context.getBean(SnowflakeGenerator.class);
            long before = ids.nextId();
            // What the test framework's context cache does to a context it is not using (a pause), and Lifecycle
            // stop/start: only a close ends the service.
            context.stop();
            context.start();
            assertThat(ids.nextId()).isGreaterThan(before);
        });
        assertThatThrownBy(() -> generator[0].nextId())
                .as("the generator after the context closed")
                .isInstanceOf(dev.idgen.core.IdGenerationException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void defaultsToSnowflakeWithWorkerZeroAndTheStandardLayout() {
        runner.run(context -> assertThat(context)
                .hasSingleBean(IdService.class)
                .getBean(IdService.class)
                .isInstanceOfSatisfying(SnowflakeIdService.class, ids -> {
                    assertThat(ids.strategy()).isEqualTo("snowflake");
                    assertThat(ids.generator().workerId()).isZero();
                    assertThat(ids.generator().layout()).isEqualTo(SnowflakeLayout.standard());
                    assertThat(ids.decode(ids.nextId("orders")).workerId()).isZero();
                }));
    }

    @Test
    void appliesTheSnowflakeProperties() {
        runner.withPropertyValues(
                        "idgen.strategy=SNOWFLAKE",
                        "idgen.snowflake.preset=javascript-safe",
                        "idgen.snowflake.worker-id=42",
                        "idgen.snowflake.sequence-bits=15",
                        "idgen.snowflake.epoch=2024-01-01T00:00:00Z",
                        "idgen.snowflake.max-borrow=1",
                        "idgen.snowflake.clock-backwards-tolerance=20ms")
                .run(context -> assertThat(context.getBean(SnowflakeGenerator.class))
                        .satisfies(generator -> {
                            assertThat(generator.workerId()).isEqualTo(42);
                            assertThat(generator.layout().tickUnit()).isEqualTo(TickUnit.SECONDS);
                            assertThat(generator.layout().workerBits()).isEqualTo(6);
                            assertThat(generator.layout().sequenceBits()).isEqualTo(15);
                            assertThat(generator.layout().epoch()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
                            assertThat(generator.maxBorrow()).isEqualTo(1);
                            assertThat(generator.clockBackwardsTolerance()).hasMillis(20);
                        }));
    }

    @Test
    void backsOffFromAUserIdService() {
        runner.withUserConfiguration(UserIdServiceConfiguration.class)
                .run(context -> assertThat(context)
                        .hasSingleBean(IdService.class)
                        .getBean(IdService.class)
                        .isSameAs(UserIdServiceConfiguration.USER_ID_SERVICE));
    }

    @Test
    void usesTheUsersWorkerIdAssignerAndTimeSource() {
        runner.withUserConfiguration(UserSnowflakePartsConfiguration.class)
                .run(context -> assertThat(context.getBean(SnowflakeGenerator.class))
                        .satisfies(generator -> {
                            assertThat(generator.workerId()).isEqualTo(77);
                            assertThat(generator.lastTimestampMillis()).isEqualTo(UserSnowflakePartsConfiguration.NOW);
                        }));
    }

    @Test
    void disabledConfiguresNothing() {
        runner.withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context)
                        .doesNotHaveBean(IdService.class)
                        .doesNotHaveBean(SnowflakeGenerator.class)
                        .doesNotHaveBean(IdgenProperties.class));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy=redsi | idgen.strategy | must be one of [snowflake, segment, ticket, redis]",
                "idgen.snowflake.worker-id=1024 | idgen.snowflake.worker-id | must be between 0 and 1023",
                "idgen.snowflake.worker-id=-1 | idgen.snowflake.worker-id | must be at least 0",
                "idgen.snowflake.timestamp-bits=0 | idgen.snowflake.timestamp-bits | must be between 1 and 62",
                "idgen.snowflake.worker-bits=62 | idgen.snowflake.worker-bits | must be between 0 and 61",
                "idgen.snowflake.sequence-bits=13 | idgen.snowflake.sequence-bits | idgen.snowflake.timestamp-bits + idgen.snowflake.worker-bits + idgen.snowflake.sequence-bits must be at most 63",
                "idgen.snowflake.epoch=2999-01-01T00:00:00Z | idgen.snowflake.epoch | must not be in the future",
                "idgen.snowflake.max-borrow=1001 | idgen.snowflake.max-borrow | must be between 0 and 1000 ticks (one second)",
                "idgen.snowflake.worker-bits=20 | idgen.snowflake.worker-bits | but 41 + 20 + 12 = 73",
                "idgen.snowflake.preset=javascript-safe,idgen.snowflake.time-unit=milliseconds | idgen.snowflake.timestamp-bits | The Snowflake layout is used up",
                "idgen.snowflake.clock-backwards-tolerance=-1ms | idgen.snowflake.clock-backwards-tolerance | must be between 0 and 10s",
                "idgen.snowflake.clock-backwards-tolerance=11s | idgen.snowflake.clock-backwards-tolerance | must be between 0 and 10s",
            })
    void aBadPropertyFailsStartUpNamingThePropertyAndTheRule(String settings, String property, String rule) {
        // An unknown strategy fails before any bean is created, so its exception has no cause.
        runner.withPropertyValues(settings.split(","))
                .run(context -> assertThat(org.springframework.core.NestedExceptionUtils.getMostSpecificCause(
                                context.getStartupFailure()))
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo(property))
                        .hasMessageContaining("Property " + property + " with value")
                        .hasMessageContaining(rule));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.snowflake.time-unit=minutes | idgen.snowflake.time-unit",
                "idgen.snowflake.preset=tiny | idgen.snowflake.preset",
                "idgen.snowflake.timestamp-bits=many | idgen.snowflake.timestamp-bits",
            })
    void aValueOfTheWrongTypeFailsStartUpNamingTheProperty(String setting, String property) {
        runner.withPropertyValues(setting)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("Failed to bind properties under '" + property + "'"));
    }

    @Test
    void aLayoutThatIsUsedUpFailsStartUp() {
        runner.withPropertyValues(
                        "idgen.snowflake.epoch=2016-05-20T00:00:00Z",
                        "idgen.snowflake.time-unit=seconds",
                        "idgen.snowflake.timestamp-bits=28",
                        "idgen.snowflake.worker-bits=22",
                        "idgen.snowflake.sequence-bits=13")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo("idgen.snowflake.timestamp-bits"))
                        .hasMessageContaining("ran out at 2024-11-20T21:24:16Z"));
    }

    @Configuration(proxyBeanMethods = false)
    static class UserIdServiceConfiguration {

        static final IdService USER_ID_SERVICE = new IdService() {
            @Override
            public String strategy() {
                return "user";
            }

            @Override
            public long nextId(String name) {
                return 1;
            }

            @Override
            public long[] nextIds(String name, int count) {
                return new long[count];
            }

            @Override
            public DecodedId decode(long id) {
                throw new UnsupportedOperationException();
            }
        };

        @Bean
        IdService userIdService() {
            return USER_ID_SERVICE;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserSnowflakePartsConfiguration {

        static final long NOW = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();

        @Bean
        WorkerIdAssigner userWorkerIdAssigner() {
            return new StaticWorkerIdAssigner(77);
        }

        @Bean
        TimeSource userTimeSource() {
            return new ManualTimeSource(NOW);
        }
    }
}
