package dev.idgen.benchmarks;

import dev.idgen.test.services.OwnEtcdCluster;
import dev.idgen.test.services.OwnZooKeeperCluster;
import io.etcd.jetcd.Client;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;

/**
 * A three-member etcd cluster and a three-server ZooKeeper ensemble on this machine's loopback, started for the store
 * rows and stopped after them, with a client of each at the starter's defaults (3 s timeouts).
 */
final class ConsensusClusters implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final OwnEtcdCluster etcdCluster;

    private final OwnZooKeeperCluster zooKeeperCluster;

    private final Client etcd;

    private final CuratorFramework zookeeper;

    private ConsensusClusters(OwnEtcdCluster etcdCluster, OwnZooKeeperCluster zooKeeperCluster) {
        this.etcdCluster = etcdCluster;
        this.zooKeeperCluster = zooKeeperCluster;
        this.etcd = Client.builder()
                .endpoints(etcdCluster.clientUrls().toArray(String[]::new))
                .connectTimeout(TIMEOUT)
                .retryMaxDuration(TIMEOUT)
                .build();
        this.zookeeper = CuratorFrameworkFactory.builder()
                .connectString(zooKeeperCluster.connectString())
                .sessionTimeoutMs(15_000)
                .connectionTimeoutMs(5_000)
                .retryPolicy(new RetryUntilElapsed((int) TIMEOUT.toMillis(), 100))
                .build();
        zookeeper.start();
    }

    static ConsensusClusters start() throws Exception {
        OwnEtcdCluster etcd = OwnEtcdCluster.start(3);
        try {
            return new ConsensusClusters(etcd, OwnZooKeeperCluster.start(3));
        } catch (Exception | Error e) {
            etcd.close();
            throw e;
        }
    }

    Client etcd() {
        return etcd;
    }

    CuratorFramework zookeeper() {
        return zookeeper;
    }

    @Override
    public void close() {
        etcd.close();
        zookeeper.close();
        try {
            etcdCluster.close();
            zooKeeperCluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("Could not stop the benchmark's etcd or ZooKeeper servers", e);
        }
    }
}
