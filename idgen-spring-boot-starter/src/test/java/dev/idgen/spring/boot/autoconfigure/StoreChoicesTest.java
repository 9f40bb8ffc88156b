package dev.idgen.spring.boot.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import dev.idgen.spring.boot.autoconfigure.etcd.EtcdEngine;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeStrategy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * The settings that choose a store take the strategy's own values and the engines' ({@link IdgenStores}), written as
 * an enum's would be; any other value fails start-up naming the property and the values it takes, whatever the
 * strategy in use. And an engine plugs in: nothing outside its package names it but its line in {@link IdgenStores}
 * (and, for ZooKeeper, the Snowflake assigner that registers with Leaf's own nodes).
 */
class StoreChoicesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
            .withPropertyValues("idgen.snowflake.worker-id=0");

    @Test
    void aValueIsReadAsAnEnumsWouldBe() {
        assertThat(StoreName.of("LEAF_ZOOKEEPER")).isEqualTo(SnowflakeProperties.LEAF_ZOOKEEPER);
        assertThat(StoreName.of(" Leaf-ZooKeeper ").value()).isEqualTo("leaf-zookeeper");
        assertThat(StoreName.of("ETCD")).isEqualTo(StoreName.of("etcd")).hasSameHashCodeAs(StoreName.of("etcd"));
        // Written as idgen declares it however it was spelt, as an enum constant's name was: it names switch marks.
        assertThat(StoreName.valueOf("leafzookeeper").value()).isEqualTo("leaf-zookeeper");
        assertThat(StoreName.valueOf("Zoo_Keeper").value()).isEqualTo("zookeeper");
        runner.withPropertyValues("idgen.segment.store=ZOOKEEPER", "idgen.redis.window-store=Etcd")
                .run(context -> {
                    // Bound, checked and accepted; no generator uses them (the one generator is Snowflake's).
                    assertThat(context).hasNotFailed();
                    IdgenGenerators generators = context.getBean(IdgenGenerators.class);
                    assertThat(generators.topLevel(SegmentProperties.SECTION).getStore())
                            .isEqualTo(StoreName.of("zookeeper"));
                    assertThat(generators.topLevel(RedisProperties.SECTION).getWindowStore())
                            .isEqualTo(StoreName.of("etcd"));
                    assertThat(context).doesNotHaveBean("idgenEtcdClient").doesNotHaveBean("idgenCuratorFramework");
                });
        // A generator that uses an engine gets its configuration, whose client asks for its connection.
        runner.withPropertyValues("idgen.generators.b.snowflake.worker-id-assigner=LEAF_ZOOKEEPER")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("idgen.zookeeper.connect-string is not set"));
    }

    @Test
    void aBlankValueKeepsTheDefaultOrTheInheritedOne() {
        runner.withPropertyValues(
                        "idgen.segment.store=dual",
                        "idgen.generators.b.segment.store= ",
                        "idgen.generators.b.snowflake.worker-id=1",
                        "idgen.snowflake.worker-id-assigner=")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdgenGenerators generators = context.getBean(IdgenGenerators.class);
                    assertThat(generators
                                    .named()
                                    .get("b")
                                    .settings(SegmentProperties.SECTION)
                                    .getStore())
                            .isEqualTo(SegmentProperties.DUAL);
                    assertThat(generators.topLevel(SnowflakeProperties.SECTION).getWorkerIdAssigner())
                            .isEqualTo(SnowflakeProperties.STATIC);
                });
    }

    @Test
    void anUnknownStoreFailsStartUpNamingThePropertyAndTheValues() {
        runner.withPropertyValues("idgen.segment.store=cassandra").run(context -> {
            InvalidConfigurationPropertyValueException refused = FailureReports.invalidProperty(context);
            assertThat(refused.getName()).isEqualTo("idgen.segment.store");
            assertThat(refused.getValue()).isEqualTo("cassandra");
            assertThat(refused.getReason()).isEqualTo("must be one of jdbc, redis, dual, remote, etcd, zookeeper");
        });
    }

    @Test
    void aValueOfAnotherSettingIsRefusedForThisOne() {
        // remote serves segments, not windows; leaf-zookeeper is an assigner, not a segment store.
        runner.withPropertyValues("idgen.generators.b.redis.window-store=remote")
                .run(context -> {
                    InvalidConfigurationPropertyValueException refused = FailureReports.invalidProperty(context);
                    assertThat(refused.getName()).isEqualTo("idgen.generators.b.redis.window-store");
                    assertThat(refused.getReason()).isEqualTo("must be one of jdbc, etcd, zookeeper");
                });
        runner.withPropertyValues("idgen.segment.switch-from=leaf-zookeeper")
                .run(context -> assertThat(
                                FailureReports.invalidProperty(context).getName())
                        .isEqualTo("idgen.segment.switch-from"));
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=dual")
                .run(context -> assertThat(
                                FailureReports.invalidProperty(context).getReason())
                        .isEqualTo(
                                "must be one of static, redis, jdbc, ordinal, leaf-zookeeper, etcd," + " zookeeper"));
    }

    /** The leaf-zookeeper assigner's wiring, a ZooKeeper feature of the snowflake strategy (package-private). */
    private static final String LEAF_WORKER_ID = "dev.idgen.spring.boot.autoconfigure.snowflake.IdgenLeafWorkerId";

    @Test
    void anEnginePlugsInByItsPackageAndItsLineInIdgenStores() {
        JavaClasses starter = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.idgen.spring.boot.autoconfigure");
        for (ConsensusEngine engine : IdgenStores.ENGINES) {
            String ownPackage = engine.getClass().getPackageName();
            noClasses()
                    .that()
                    .resideOutsideOfPackage(ownPackage)
                    .and()
                    .doNotBelongToAnyOf(IdgenStores.class, SnowflakeStrategy.class)
                    .and()
                    .doNotHaveFullyQualifiedName(LEAF_WORKER_ID)
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage(ownPackage)
                    .because("a store plugs in through ConsensusEngine and its line in IdgenStores")
                    .check(starter);
        }
        // The leaf-zookeeper assigner, a ZooKeeper feature of the snowflake strategy, names that engine and no other.
        noClasses()
                .that()
                .belongToAnyOf(SnowflakeStrategy.class)
                .or()
                .haveFullyQualifiedName(LEAF_WORKER_ID)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(EtcdEngine.class.getPackageName())
                .check(starter);
    }
}
