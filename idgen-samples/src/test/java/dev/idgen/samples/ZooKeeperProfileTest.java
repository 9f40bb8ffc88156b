package dev.idgen.samples;

import dev.idgen.test.services.OwnZooKeeperCluster;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented {@code zookeeper} profile on a real three-server ZooKeeper ensemble, over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("zookeeper")
class ZooKeeperProfileTest extends ConsensusProfileContract {

    private static OwnZooKeeperCluster zookeeper;

    @DynamicPropertySource
    static void zookeeper(DynamicPropertyRegistry registry) throws Exception {
        zookeeper = OwnZooKeeperCluster.start(3);
        registry.add("idgen.zookeeper.connect-string", zookeeper::connectString);
        registry.add(
                "idgen.zookeeper.namespace",
                () -> "sample" + UUID.randomUUID().toString().substring(0, 8));
    }

    @AfterAll
    static void stop() throws Exception {
        zookeeper.close();
    }

    @Override
    protected String engine() {
        return "zookeeper";
    }
}
