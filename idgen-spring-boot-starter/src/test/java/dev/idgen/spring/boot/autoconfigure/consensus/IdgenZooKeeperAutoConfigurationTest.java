package dev.idgen.spring.boot.autoconfigure.consensus;

import dev.idgen.test.services.OwnZooKeeperCluster;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class IdgenZooKeeperAutoConfigurationTest extends ConsensusAutoConfigurationContract {

    private static OwnZooKeeperCluster zookeeper;

    @BeforeAll
    static void startCluster() throws Exception {
        zookeeper = OwnZooKeeperCluster.start(3);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        zookeeper.close();
    }

    @Override
    protected String engine() {
        return "zookeeper";
    }

    @Override
    protected List<String> connection(String namespace) {
        return List.of(
                "idgen.zookeeper.connect-string=" + zookeeper.connectString(),
                "idgen.zookeeper.namespace=" + namespace,
                "idgen.zookeeper.session-timeout=4s",
                "idgen.zookeeper.connection-timeout=1s",
                "idgen.zookeeper.timeout=3s");
    }

    @Override
    protected String connectionProperty() {
        return "idgen.zookeeper.connect-string";
    }

    @Override
    protected Class<?> clientClass() {
        return CuratorFramework.class;
    }

    @Override
    protected void loseQuorum() throws Exception {
        zookeeper.kill(1);
        zookeeper.kill(2);
    }

    @Override
    protected void restoreQuorum() throws Exception {
        zookeeper.startServer(1);
        zookeeper.startServer(2);
        zookeeper.awaitQuorum(Duration.ofSeconds(60));
    }
}
