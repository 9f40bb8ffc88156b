package dev.idgen.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.shardingsphere.autoconfigure.IdgenShardingSphereAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.datanode.DataNodeInfo;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.spi.ShardingAlgorithm;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The algorithms' contract with ShardingSphere, without a database: found through its SPI by type, keys by table
 * name or generator, the registry's rules, the Spring registration's life, and the errors of bad props, unknown
 * registrations and IDs that no shard-form generator makes.
 */
class IdgenShardingSphereContractTest {

    private static final AlgorithmSQLContext ORDERS = new AlgorithmSQLContext("shop", "shop", "t_order", "order_id");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenShardingSphereAutoConfiguration.class))
            .withPropertyValues("idgen.snowflake.worker-id=3");

    @Test
    void shardingSphereFindsBothAlgorithmsByType() {
        assertThat(TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IDGEN", props("registration", "x")))
                .isInstanceOf(IdgenKeyGenerateAlgorithm.class);
        assertThat(TypedSPILoader.getService(ShardingAlgorithm.class, "IDGEN_SHARD", props("logical-shards", "16")))
                .isInstanceOf(IdgenShardingAlgorithm.class);
    }

    @Test
    void keysComeFromTheRegisteredServiceByTableNameOrGenerator() {
        IdService ids = SegmentIdService.builder(new InMemorySegmentStore()).build();
        IdgenRegistry.register("keys", ids);
        try {
            IdgenKeyGenerateAlgorithm byTable = algorithm(props("registration", "keys"));
            IdgenKeyGenerateAlgorithm byGenerator = algorithm(props("registration", "keys", "generator", "orders"));
            assertThat(keys(byTable, 2)).containsExactly(1L, 2L);
            assertThat(keys(byGenerator, 1)).containsExactly(1L);
            assertThat(keys(byTable, 1)).containsExactly(3L);
            assertThat(ids.nextId("t_order")).isEqualTo(4L);
            // A multi-row insert of more rows than one batch holds (IdService.MAX_BATCH_SIZE) is served in batches.
            assertThat(keys(byTable, 25_000))
                    .hasSize(25_000)
                    .doesNotHaveDuplicates()
                    .startsWith(5L)
                    .endsWith(25_004L);
        } finally {
            IdgenRegistry.unregister("keys", ids);
        }
    }

    @Test
    void withNothingRegisteredKeysFailSayingWhatToDo() {
        assertThatThrownBy(() -> keys(algorithm(new Properties()), 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("found no idgen registered as 'default'")
                .hasMessageContaining("idgen.shardingsphere.registration")
                .hasMessageContaining("props.jdbc-url");
        assertThatThrownBy(() -> keys(algorithm(props("registration", "nobody")), 1))
                .hasMessageContaining("found no idgen registered as 'nobody'")
                .hasMessageContaining("props.registration");
    }

    @Test
    void aNameHoldsOneServiceAndTheSameOneAgainCountsTwice() {
        IdService one = SegmentIdService.builder(new InMemorySegmentStore()).build();
        IdService other = SegmentIdService.builder(new InMemorySegmentStore()).build();
        IdgenRegistry.register("held", one);
        IdgenRegistry.register("held", one);
        assertThatThrownBy(() -> IdgenRegistry.register("held", other))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'held'")
                .hasMessageContaining("idgen.shardingsphere.registration=<name>")
                .hasMessageContaining("props.registration=<name>");
        IdgenRegistry.unregister("held", other);
        IdgenRegistry.unregister("held", one);
        assertThat(IdgenRegistry.find("held")).isSameAs(one);
        IdgenRegistry.unregister("held", one);
        assertThat(IdgenRegistry.find("held")).isNull();
        assertThatThrownBy(() -> IdgenRegistry.register(" ", one)).hasMessageContaining("non-blank");
    }

    @Test
    void aSpringContextRegistersUntilItClosesAndASecondUnderTheSameNameIsRefused() {
        runner.run(first -> {
            assertThat(first).hasNotFailed();
            IdService ids = first.getBean(IdService.class);
            assertThat(IdgenRegistry.find("default")).isSameAs(ids);
            assertThat(keys(algorithm(new Properties()), 1)).hasSize(1);
            runner.run(second -> assertThat(second)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("'default' for ShardingSphere already holds another IdService")
                    .hasMessageContaining("idgen.shardingsphere.registration"));
            runner.withPropertyValues("idgen.shardingsphere.registration=second")
                    .run(second -> {
                        assertThat(second).hasNotFailed();
                        assertThat(IdgenRegistry.find("second")).isSameAs(second.getBean(IdService.class));
                    });
            assertThat(IdgenRegistry.find("default")).isSameAs(ids);
        });
        assertThat(IdgenRegistry.find("default")).isNull();
        assertThat(IdgenRegistry.find("second")).isNull();
    }

    @Test
    void badKeyGeneratorPropsFailNamingThePropAndItsRange() {
        assertRefused(props("generator", "-orders"), "generator", "props.generator must be 1 to 64 characters");
        assertRefused(props("jdbc-url", "jdbc:h2:mem:x", "strategy", "ticket"), "strategy", "snowflake, segment");
        assertRefused(props("jdbc-url", "jdbc:h2:mem:x", "segment-step", "0"), "segment-step", "from 1 to 1000000");
        assertRefused(props("jdbc-url", "jdbc:h2:mem:x", "timeout-seconds", "ten"), "timeout-seconds", "from 1 to 60");
        assertRefused(props("jdbc-url", "jdbc:h2:mem:x", "table", "idgen worker"), "table", "table name");
        assertRefused(props("jdbc-url", "jdbc:h2:mem:x", "instance-id", "i".repeat(116)), "instance-id", "1 to 115");
        assertRefused(
                props("jdbc-url", "jdbc:h2:mem:x", "initialize-schema", "sometimes"),
                "initialize-schema",
                "embedded, always, never");
        assertRefused(props("jdbc-url", "mariadb://db/ids"), "jdbc-url", "a JDBC URL");
        assertRefused(props("jdbc-username", "root"), "jdbc-url", "needed by props.jdbc-username");
        assertRefused(props("jdbc-url", "jdbc:h2:mem:x", "registration", "a"), "registration", "set one of them");
    }

    @Test
    void aTableNameThatIsNoSequenceNameAsksForTheGeneratorProp() {
        IdService ids = SegmentIdService.builder(new InMemorySegmentStore()).build();
        IdgenRegistry.register("names", ids);
        try {
            IdgenKeyGenerateAlgorithm algorithm = algorithm(props("registration", "names"));
            assertThatThrownBy(
                            () -> algorithm.generateKeys(new AlgorithmSQLContext("shop", "shop", "t$order", "id"), 1))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("'t$order' is not an idgen sequence name")
                    .hasMessageContaining("set props.generator");
        } finally {
            IdgenRegistry.unregister("names", ids);
        }
    }

    @Test
    void badShardingPropsFailNamingThePropAndItsRange() {
        assertShardingRefused(props("logical-shards", "3"), "logical-shards", "power of two from 2 to 65536");
        assertShardingRefused(props("logical-shards", "131072"), "logical-shards", "from 2 to 65536");
        assertShardingRefused(props("layout", "sideways"), "layout", "gene, instagram");
        assertShardingRefused(props("string-value", "uuid"), "string-value", "key, id");
    }

    @Test
    void anIdNoShardFormGeneratorMakesIsRefusedNamingTheColumn() {
        IdgenShardingAlgorithm sharding = new IdgenShardingAlgorithm();
        Properties asYamlGivesThem = new Properties();
        // ShardingSphere's YAML gives a number as an Integer, not a String.
        asYamlGivesThem.put("logical-shards", 2);
        sharding.init(asYamlGivesThem);
        List<String> targets = List.of("ds_0", "ds_1");
        assertThatThrownBy(() -> sharding.doSharding(targets, value(-5L)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(
                        "IDGEN_SHARD algorithm: t_order.order_id = -5 cannot be routed over [ds_0, ds_1]");
        assertThatThrownBy(() -> sharding.doSharding(targets, value(new Date(0))))
                .hasMessageContaining("neither an ID (a number) nor a shard key (a string)");
        assertThatThrownBy(() -> sharding.doSharding(List.of("ds_0", "ds_1", "ds_2"), value(7L)))
                .hasMessageContaining("physicalShards must be between 1 and logicalShards (2)");
        // Gene layout: the lowest bit is the logical shard, and with as many targets as logical shards, the target.
        assertThat(sharding.doSharding(targets, value(6L))).isEqualTo("ds_0");
        assertThat(sharding.doSharding(targets, value(7L))).isEqualTo("ds_1");
        IdgenShardingAlgorithm strings = new IdgenShardingAlgorithm();
        strings.init(props("logical-shards", "2", "string-value", "id"));
        assertThat(strings.doSharding(targets, value("7"))).isEqualTo("ds_1");
    }

    private static PreciseShardingValue<Comparable<?>> value(Comparable<?> value) {
        return new PreciseShardingValue<>("t_order", "order_id", new DataNodeInfo("ds_", 1, '0'), value);
    }

    private static void assertRefused(Properties props, String prop, String rule) {
        assertThatThrownBy(() -> algorithm(props))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo(prop))
                .hasMessageContaining("IDGEN algorithm: props." + prop)
                .hasMessageContaining(rule);
    }

    private static void assertShardingRefused(Properties props, String prop, String rule) {
        assertThatThrownBy(() -> new IdgenShardingAlgorithm().init(props))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo(prop))
                .hasMessageContaining("IDGEN_SHARD algorithm: props." + prop)
                .hasMessageContaining(rule);
    }

    private static IdgenKeyGenerateAlgorithm algorithm(Properties props) {
        IdgenKeyGenerateAlgorithm algorithm = new IdgenKeyGenerateAlgorithm();
        algorithm.init(props);
        return algorithm;
    }

    private static List<Object> keys(IdgenKeyGenerateAlgorithm algorithm, int count) {
        Collection<? extends Comparable<?>> keys = algorithm.generateKeys(ORDERS, count);
        return new ArrayList<>(keys);
    }

    private static Properties props(String... pairs) {
        Properties props = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            props.setProperty(pairs[i], pairs[i + 1]);
        }
        return props;
    }
}
