package dev.idgen.spring.boot.autoconfigure.snowflake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.OwnZooKeeperCluster;
import dev.idgen.zookeeper.LeafNodeInUseException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * {@code idgen.snowflake.worker-id-assigner=leaf-zookeeper} on a ZooKeeper server of the test's own: the worker id
 * comes from Leaf's nodes, and every setting it needs fails start-up naming its property.
 */
class IdgenLeafWorkerIdTest {

    private static OwnZooKeeperCluster zookeeper;
    private static CuratorFramework client;

    private String leafName;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = OwnZooKeeperCluster.start(1);
        client = CuratorFrameworkFactory.builder()
                .connectString(zookeeper.connectString())
                .retryPolicy(new RetryUntilElapsed(2000, 100))
                .build();
        client.start();
        assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
    }

    @AfterAll
    static void stopZooKeeper() {
        if (client != null) {
            client.close();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    @BeforeEach
    void freshLeafName() {
        leafName = "com.example.leaf." + UUID.randomUUID().toString().substring(0, 8);
    }

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withPropertyValues(
                        "idgen.snowflake.worker-id-assigner=leaf-zookeeper",
                        "idgen.snowflake.preset=leaf",
                        "idgen.zookeeper.connect-string=" + zookeeper.connectString(),
                        "idgen.zookeeper.session-timeout=4s",
                        "idgen.zookeeper.timeout=3s");
    }

    @Test
    void theWorkerIdIsANodeBesideTheLeafServersOnePerInstance() throws Exception {
        // A Leaf server registered before: sequence 0, as Leaf creates it.
        client.create()
                .creatingParentsIfNeeded()
                .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .forPath(
                        "/snowflake/" + leafName + "/forever/10.0.0.1:8080-",
                        "{\"ip\":\"10.0.0.1\",\"port\":\"8080\",\"timestamp\":1}".getBytes(StandardCharsets.UTF_8));
        ApplicationContextRunner first = runner().withPropertyValues(
                        "idgen.snowflake.leaf.name=" + leafName, "idgen.snowflake.leaf.address=10.0.0.9:9090");
        ApplicationContextRunner second = runner().withPropertyValues(
                        "idgen.snowflake.leaf.name=" + leafName, "idgen.snowflake.leaf.address=10.0.0.9:9091");
        first.run(one -> second.run(two -> {
            assertThat(one).hasNotFailed().doesNotHaveBean(WorkerIdLeaseStore.class);
            assertThat(two).hasNotFailed();
            assertThat(one.getBean(SnowflakeGenerator.class).workerId()).isEqualTo(1);
            assertThat(two.getBean(SnowflakeGenerator.class).workerId()).isEqualTo(2);
            assertThat(one.getBean(SnowflakeGenerator.class).layout())
                    .isEqualTo(SnowflakePreset.LEAF.layout().orElseThrow());
            SnowflakeIdService ids = (SnowflakeIdService) one.getBean(IdService.class);
            assertThat(ids.decode(ids.nextId("orders")).workerId()).isEqualTo(1);
            assertThat(client.getChildren().forPath("/snowflake/" + leafName + "/forever"))
                    .containsExactlyInAnyOrder(
                            "10.0.0.1:8080-0000000000", "10.0.0.9:9090-0000000001", "10.0.0.9:9091-0000000002");
            // The same address again, while the first runs: refused.
            first.run(again -> assertThat(NestedExceptionUtils.getMostSpecificCause(again.getStartupFailure()))
                    .isInstanceOf(LeafNodeInUseException.class)
                    .hasMessageContaining("10.0.0.9:9090"));
        }));
    }

    @Test
    void theAddressDefaultsToTheHostsIpv4AddressAndServerPort() throws Exception {
        runner().withPropertyValues("idgen.snowflake.leaf.name=" + leafName, "server.port=18080")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(client.getChildren().forPath("/snowflake/" + leafName + "/forever"))
                            .singleElement()
                            .asString()
                            .matches("\\d+\\.\\d+\\.\\d+\\.\\d+:18080-0000000000");
                });
    }

    @Test
    void aMissingNameFailsStartUpNamingTheProperty() {
        runner().withPropertyValues("idgen.snowflake.leaf.address=10.0.0.9:9090")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.snowflake.leaf.name");
                            assertThat(e.getReason())
                                    .startsWith("idgen.snowflake.worker-id-assigner=leaf-zookeeper takes its worker id")
                                    .contains("/snowflake/{leaf.name}/forever");
                        }));
    }

    @Test
    void anAddressLeafCannotParseOrNoPortToDefaultToFailsStartUpNamingTheAddress() {
        runner().withPropertyValues("idgen.snowflake.leaf.name=" + leafName, "idgen.snowflake.leaf.address=my-host:80")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.snowflake.leaf.address");
                            assertThat(e.getReason()).contains("without '-'");
                        }));
        runner().withPropertyValues("idgen.snowflake.leaf.name=" + leafName)
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.snowflake.leaf.address");
                            assertThat(e.getReason()).contains("server.port is not set");
                        }));
    }

    @Test
    void aLayoutOtherThanLeafsFailsStartUpNamingThePreset() {
        runner().withPropertyValues(
                        "idgen.snowflake.preset=standard",
                        "idgen.snowflake.leaf.name=" + leafName,
                        "idgen.snowflake.leaf.address=10.0.0.9:9090")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.snowflake.preset");
                            assertThat(e.getReason()).contains("needs Leaf's layout");
                        }));
    }
}
