package dev.idgen.spring.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.reactive.IdgenReactiveAutoConfiguration;
import dev.idgen.spring.reactive.ReactiveIdServiceBlockHoundTest.Emitter;
import dev.idgen.test.services.OwnEtcdCluster;
import dev.idgen.test.services.OwnZooKeeperCluster;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Segments kept in etcd and in ZooKeeper (a server of each, started for the class) through the reactive face: no
 * blocking call on a parallel thread; IDs in memory emitted on the subscribing thread; a new name's first block loaded
 * on an {@code idgen-blocking} thread.
 */
@Tag("blockhound")
@ExtendWith(BlockHoundInstalled.class)
class ConsensusSegmentsBlockHoundTest {

    private static OwnEtcdCluster etcd;
    private static OwnZooKeeperCluster zookeeper;

    private final String namespace = "rx" + UUID.randomUUID().toString().substring(0, 8);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenReactiveAutoConfiguration.class))
            .withPropertyValues("idgen.strategy=segment", "idgen.segment.step=100000");

    @BeforeAll
    static void startServers() throws Exception {
        etcd = OwnEtcdCluster.start(1);
        zookeeper = OwnZooKeeperCluster.start(1);
    }

    @AfterAll
    static void stopServers() {
        if (etcd != null) {
            etcd.close();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    private static void check(ReactiveIdService reactive) {
        reactive.blocking().nextId("orders"); // the first block, loaded on this (blocking) thread
        ReactiveIdServiceBlockHoundTest.exercise(reactive, "orders", Emitter.SUBSCRIBER);
        Emitter.BLOCKING_EXECUTOR.check(ReactiveIdServiceBlockHoundTest.firstIdsOfNewNames(reactive, "fresh"));
    }

    @Test
    void segmentsInEtcd() {
        runner.withPropertyValues(
                        "idgen.segment.store=etcd",
                        "idgen.etcd.endpoints=" + etcd.endpoints(),
                        "idgen.etcd.namespace=" + namespace + "/")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    check(context.getBean(ReactiveIdService.class));
                });
    }

    @Test
    void segmentsInZooKeeper() {
        runner.withPropertyValues(
                        "idgen.segment.store=zookeeper",
                        "idgen.zookeeper.connect-string=" + zookeeper.connectString(),
                        "idgen.zookeeper.namespace=" + namespace)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    check(context.getBean(ReactiveIdService.class));
                });
    }
}
