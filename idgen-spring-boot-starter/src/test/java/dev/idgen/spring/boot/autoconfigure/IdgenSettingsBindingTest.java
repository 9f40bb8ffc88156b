package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.etcd.EtcdProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationPropertiesBean;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * The sections a strategy or a store declares for its own settings ({@code XProperties.SECTION}) bind as the fields of
 * one properties class did: at the top level, and under a named generator over the top level's values; a generator that
 * sets nothing but a section is still a generator; a bad value fails start-up whatever the strategy in use; a shared
 * section or key set under a generator is refused, naming it.
 */
class IdgenSettingsBindingTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
            .withPropertyValues("idgen.snowflake.worker-id=0");

    @Test
    void aNamedGeneratorBindsItsSectionOverTheTopLevels() {
        runner.withPropertyValues(
                        "idgen.snowflake.clock-backwards-tolerance=7ms",
                        "idgen.ticket.table=top_tickets",
                        "idgen.generators.b.snowflake.worker-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdgenGenerators generators = context.getBean(IdgenGenerators.class);
                    // Nothing but a section under it: still a generator of its own.
                    assertThat(generators.named()).containsKey("b");
                    SnowflakeProperties own = generators.named().get("b").settings(SnowflakeProperties.SECTION);
                    assertThat(own.getWorkerId()).isEqualTo(1);
                    assertThat(own.getClockBackwardsTolerance()).isEqualTo(Duration.ofMillis(7));
                    assertThat(generators.topLevel(SnowflakeProperties.SECTION).getWorkerId())
                            .isZero();
                    assertThat(generators
                                    .named()
                                    .get("b")
                                    .settings(TicketProperties.SECTION)
                                    .getTable())
                            .isEqualTo("top_tickets");
                    // Bound once per generator: the same instance each time.
                    assertThat(generators.named().get("b").settings(SnowflakeProperties.SECTION))
                            .isSameAs(own);
                });
    }

    @Test
    void aBadValueInASectionNoGeneratorUsesStillFailsStartUp() {
        runner.withPropertyValues("idgen.ticket.failover-jump=lots").run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .hasMessageContaining("lots");
            assertThat(context.getStartupFailure()).rootCause().isNotNull();
            Throwable bind = context.getStartupFailure();
            while (bind != null && !(bind instanceof BindException)) {
                bind = bind.getCause();
            }
            assertThat(bind)
                    .isInstanceOfSatisfying(
                            BindException.class,
                            e -> assertThat(e.getName().toString()).isEqualTo("idgen.ticket.failover-jump"));
        });
    }

    @Test
    void aSharedSectionSetUnderAGeneratorIsRefusedNamingIt() {
        runner.withPropertyValues(
                        "idgen.generators.b.snowflake.worker-id=1", "idgen.generators.b.etcd.endpoints=http://x:2379")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.b.etcd");
                            assertThat(e.getReason()).isEqualTo("is shared by every generator: set idgen.etcd instead");
                        }));
    }

    @Test
    void aSharedKeySetUnderAGeneratorIsRefusedNamingIt() {
        runner.withPropertyValues("idgen.generators.b.snowflake.worker-id=1", "idgen.generators.b.redis.timeout=1s")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.b.redis.timeout");
                            assertThat(e.getReason())
                                    .isEqualTo("is shared by every generator: set idgen.redis.timeout instead");
                        }));
    }

    @Test
    void aPresetChosenUnderAGeneratorStartsTheLayoutOver() {
        runner.withPropertyValues(
                        "idgen.snowflake.worker-bits=12",
                        "idgen.snowflake.sequence-bits=10",
                        "idgen.generators.b.snowflake.preset=javascript-safe",
                        "idgen.generators.b.snowflake.worker-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdgenGenerators generators = context.getBean(IdgenGenerators.class);
                    SnowflakeProperties own = generators.named().get("b").settings(SnowflakeProperties.SECTION);
                    assertThat(own.getWorkerBits()).isNull();
                    assertThat(own.getSequenceBits()).isNull();
                    assertThat(generators.topLevel(SnowflakeProperties.SECTION).getWorkerBits())
                            .isEqualTo(12);
                });
    }

    @Test
    void theSharedSectionsAreTheTopLevelsForEveryGenerator() {
        runner.withPropertyValues(
                        "idgen.etcd.namespace=shop/",
                        "idgen.redis.prefix=top:",
                        "idgen.generators.b.redis.prefix=b:",
                        "idgen.generators.b.snowflake.worker-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdgenGenerators generators = context.getBean(IdgenGenerators.class);
                    assertThat(generators
                                    .named()
                                    .get("b")
                                    .settings(EtcdProperties.SECTION)
                                    .getNamespace())
                            .isEqualTo("shop/");
                    assertThat(generators
                                    .named()
                                    .get("b")
                                    .settings(RedisProperties.SECTION)
                                    .getPrefix())
                            .isEqualTo("b:");
                    assertThat(generators.topLevel(RedisProperties.SECTION).getPrefix())
                            .isEqualTo("top:");
                });
    }

    @Test
    void aGeneratorThatSetsOnlyASharedSectionIsRefusedNamingIt() {
        runner.withPropertyValues("idgen.generators.b.zookeeper.connect-string=localhost:2181")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.b.zookeeper");
                            assertThat(e.getReason())
                                    .isEqualTo("is shared by every generator: set idgen.zookeeper instead");
                        }));
    }

    @Test
    void aKeyThatIsNoSettingOfAGeneratorFailsStartUpNamingIt() {
        runner.withPropertyValues("idgen.generators.invoice.stratgy=ticket")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.invoice.stratgy");
                            assertThat(e.getReason())
                                    .startsWith("is not a setting of a generator: a generator takes ")
                                    .contains("strategy", "period-digits", "snowflake", "ticket", "etcd");
                        }));
        // Either spelling of a setting is one: the binder takes both.
        runner.withPropertyValues(
                        "idgen.generators.b.snowflake.worker-id=1",
                        "idgen.generators.b.periodDigits=6",
                        "idgen.generators.b.period-zone=UTC")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void theShardFormMakesRoomForItsBitsInTheSectionItReads() {
        runner.withPropertyValues(
                        "idgen.generators.s.form=shard",
                        "idgen.generators.s.shard.logical-shards=1024",
                        "idgen.generators.s.snowflake.worker-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SnowflakeProperties shard = context.getBean(IdgenGenerators.class)
                            .named()
                            .get("s")
                            .settings(SnowflakeProperties.SECTION);
                    // 63 usable bits: 41 of milliseconds, 10 of shards, the 12 left shared by worker and sequence.
                    assertThat(shard.getTimestampBits()).isEqualTo(41);
                    assertThat(shard.getWorkerBits()).isEqualTo(6);
                    assertThat(shard.getSequenceBits()).isEqualTo(6);
                });
    }

    @Test
    void aBadSectionValueARedisConditionReadsIsReportedNamingTheProperty() {
        runner.withPropertyValues(
                        "idgen.generators.s.form=shard",
                        "idgen.generators.s.shard.logical-shards=1000",
                        "idgen.generators.r.strategy=redis")
                .run(context -> {
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                            .isInstanceOfSatisfying(
                                    InvalidConfigurationPropertyValueException.class,
                                    e -> assertThat(e.getName()).isEqualTo("idgen.generators.s.shard.logical-shards"));
                    // Reported by the start-up check, not as a condition that could not be evaluated.
                    assertThat(context.getStartupFailure()).hasMessageNotContaining("Error processing condition");
                });
    }

    @Test
    void theSettingsAreBeansUnderTheirNamesAsBefore() {
        runner.withPropertyValues("idgen.snowflake.clock-backwards-tolerance=7ms", "idgen.etcd.namespace=shop/")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    // The name @EnableConfigurationProperties gave it before it moved to the core package.
                    assertThat(context.getBean("idgen-dev.idgen.spring.boot.autoconfigure.IdgenProperties"))
                            .isInstanceOf(IdgenProperties.class);
                    assertThat(context.getBean(SnowflakeProperties.class).getClockBackwardsTolerance())
                            .isEqualTo(Duration.ofMillis(7));
                    assertThat(context.getBean(EtcdProperties.class).getNamespace())
                            .isEqualTo("shop/");
                    assertThat(context.getBean(
                                    "idgen.snowflake-" + SnowflakeProperties.class.getName(),
                                    SnowflakeProperties.class))
                            .isNotNull();
                    assertThat(ConfigurationPropertiesBean.getAll(context))
                            .containsKeys(
                                    "idgen-dev.idgen.spring.boot.autoconfigure.IdgenProperties",
                                    "idgen.snowflake-" + SnowflakeProperties.class.getName(),
                                    "idgen.remote-" + RemoteProperties.class.getName());
                });
    }
}
