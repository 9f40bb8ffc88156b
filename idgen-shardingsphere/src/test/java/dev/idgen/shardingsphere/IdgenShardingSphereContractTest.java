package dev.idgen.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.forms.shard.ShardedSnowflake;
import dev.idgen.shardingsphere.autoconfigure.IdgenShardingSphereAutoConfiguration;
import dev.idgen.shardingsphere.autoconfigure.IdgenShardingSphereRegistration;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
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
        assertThat(TypedSPILoader.getService(
                        ShardingAlgorithm.class, "IDGEN_SHARD", props("logical-shards", "16", "column-holds", "id")))
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
                .hasMessageContaining("props.jdbc-url")
                .hasMessageContaining("Flyway")
                .hasMessageContaining("@PostConstruct");
        assertThatThrownBy(() -> keys(algorithm(props("registration", "nobody")), 1))
                .hasMessageContaining("found no idgen registered as 'nobody'")
                .hasMessageContaining("props.registration");
    }

    @Test
    void aSecondServiceMakesANameAmbiguousUntilOneRemainsAndTheSameOneAgainCountsTwice() {
        IdService one = SegmentIdService.builder(new InMemorySegmentStore()).build();
        IdService other = SegmentIdService.builder(new InMemorySegmentStore()).build();
        IdgenRegistry.register("held", one);
        IdgenRegistry.register("held", one);
        IdgenRegistry.register("held", other);
        assertThatThrownBy(() -> IdgenRegistry.find("held"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'held' for ShardingSphere is ambiguous: 2 live application contexts")
                .hasMessageContaining("idgen.shardingsphere.registration=<name>")
                .hasMessageContaining("props.registration=<name>")
                .hasMessageContaining("idgen.shardingsphere.enabled=false");
        IdgenRegistry.unregister("held", one);
        assertThatThrownBy(() -> IdgenRegistry.find("held")).hasMessageContaining("ambiguous");
        IdgenRegistry.unregister("held", other);
        assertThat(IdgenRegistry.find("held")).isSameAs(one);
        IdgenRegistry.unregister("held", other);
        assertThat(IdgenRegistry.find("held")).isSameAs(one);
        IdgenRegistry.unregister("held", one);
        assertThat(IdgenRegistry.find("held")).isNull();
        assertThatThrownBy(() -> IdgenRegistry.register(" ", one)).hasMessageContaining("non-blank");
    }

    @Test
    void aSecondSpringContextStartsAndLeavesTheNameAmbiguousUntilItCloses() {
        runner.run(first -> {
            assertThat(first).hasNotFailed();
            IdService ids = first.getBean(IdService.class);
            assertThat(IdgenRegistry.find("default")).isSameAs(ids);
            assertThat(keys(algorithm(new Properties()), 1)).hasSize(1);
            runner.run(second -> {
                assertThat(second).hasNotFailed();
                assertThatThrownBy(() -> keys(algorithm(new Properties()), 1))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("'default' for ShardingSphere is ambiguous: 2 live application contexts")
                        .hasMessageContaining("idgen.shardingsphere.registration");
            });
            // The second closed: the first's idgen serves the name again.
            assertThat(IdgenRegistry.find("default")).isSameAs(ids);
            assertThat(keys(algorithm(new Properties()), 1)).hasSize(1);
            runner.withPropertyValues("idgen.shardingsphere.registration=second")
                    .run(second -> {
                        assertThat(second).hasNotFailed();
                        assertThat(IdgenRegistry.find("second")).isSameAs(second.getBean(IdService.class));
                        assertThat(IdgenRegistry.find("default")).isSameAs(ids);
                    });
            runner.withPropertyValues("idgen.shardingsphere.enabled=false").run(off -> {
                assertThat(off).hasNotFailed().doesNotHaveBean(IdgenShardingSphereRegistration.class);
                assertThat(IdgenRegistry.find("default")).isSameAs(ids);
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
        assertShardingRefused(
                props("column-holds", "id", "logical-shards", "3"), "logical-shards", "power of two from 2 to 65536");
        assertShardingRefused(props("column-holds", "id", "logical-shards", "131072"), "logical-shards", "2 to 65536");
        assertShardingRefused(props("column-holds", "key", "layout", "sideways"), "layout", "gene, instagram");
        assertShardingRefused(props("column-holds", "uuid"), "column-holds", "id, key");
        assertShardingRefused(props("logical-shards", "16"), "column-holds", "is required: id");
        assertShardingRefused(props("logical-shards", "16"), "column-holds", "or key");
    }

    @Test
    void anIdNoShardFormGeneratorMakesIsRefusedNamingTheColumn() {
        IdgenShardingAlgorithm sharding = new IdgenShardingAlgorithm();
        Properties asYamlGivesThem = new Properties();
        // ShardingSphere's YAML gives a number as an Integer, not a String.
        asYamlGivesThem.put("logical-shards", 2);
        asYamlGivesThem.put("column-holds", "id");
        sharding.init(asYamlGivesThem);
        List<String> targets = List.of("ds_0", "ds_1");
        assertThatThrownBy(() -> sharding.doSharding(targets, value(-5L)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(
                        "IDGEN_SHARD algorithm: t_order.order_id = -5 cannot be routed over [ds_0, ds_1]");
        assertThatThrownBy(() -> sharding.doSharding(targets, value(new Date(0))))
                .hasMessageContaining("not an ID (a number or a decimal string) for props.column-holds=id");
        assertThatThrownBy(() -> sharding.doSharding(targets, value("customer-7")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("t_order.order_id = customer-7 cannot be routed")
                .hasMessageContaining("not a decimal 64-bit ID");
        assertThatThrownBy(() -> sharding.doSharding(List.of("ds_0", "ds_1", "ds_2"), value(7L)))
                .hasMessageContaining("physicalShards must be between 1 and logicalShards (2)");
        // Gene layout: the lowest bit is the logical shard, and with as many targets as logical shards, the target.
        assertThat(sharding.doSharding(targets, value(6L))).isEqualTo("ds_0");
        assertThat(sharding.doSharding(targets, value(7L))).isEqualTo("ds_1");
    }

    /** The column decides, not the Java type a value is bound with (setString of an ID, setLong of a numeric key). */
    @Test
    void theColumnNotTheBoundTypeDecidesIdOrKey() {
        IdgenShardingAlgorithm byId = new IdgenShardingAlgorithm();
        byId.init(props("logical-shards", "1024", "column-holds", "id"));
        IdgenShardingAlgorithm byKey = new IdgenShardingAlgorithm();
        byKey.init(props("logical-shards", "1024", "column-holds", "key"));
        List<String> targets = List.of("ds_0", "ds_1", "ds_2", "ds_3");
        ShardedSnowflake shards = ShardedSnowflake.builder()
                .generator(SnowflakeGenerator.builder()
                        .layout(ShardedSnowflake.defaultLayout(1024))
                        .workerId(5)
                        .build())
                .logicalShards(1024)
                .build();
        Set<String> idTargets = new HashSet<>();
        Set<String> keyTargets = new HashSet<>();
        for (int customer = 0; customer < 40; customer++) {
            long id = shards.nextId(Integer.toString(700 + customer));
            String asLong = byId.doSharding(targets, value(id));
            assertThat(byId.doSharding(targets, value(Long.toString(id)))).isEqualTo(asLong);
            assertThat(byId.doSharding(targets, value(" " + id + " "))).isEqualTo(asLong);
            idTargets.add(asLong);
            // A numeric customer key, bound with setLong or setInt, hashes as its decimal string.
            String asString = byKey.doSharding(targets, value(Integer.toString(700 + customer)));
            assertThat(byKey.doSharding(targets, value(700L + customer))).isEqualTo(asString);
            assertThat(byKey.doSharding(targets, value(700 + customer))).isEqualTo(asString);
            assertThat(asLong).isEqualTo(asString);
            keyTargets.add(asString);
        }
        assertThat(idTargets).hasSizeGreaterThan(1);
        assertThat(keyTargets).hasSizeGreaterThan(1);
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
