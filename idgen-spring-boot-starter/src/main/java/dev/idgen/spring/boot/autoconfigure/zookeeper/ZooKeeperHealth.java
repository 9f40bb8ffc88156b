package dev.idgen.spring.boot.autoconfigure.zookeeper;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.health.IdgenGeneratorHealth;
import dev.idgen.zookeeper.ZooKeeperEnsembleStatus;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.springframework.boot.health.contributor.Health;

/**
 * ZooKeeper's part of the {@code idgen} health, for each generator that keeps something in ZooKeeper: the ensemble's
 * servers, which answered and in which mode, the leader where the servers say, the client's connection and session;
 * DOWN while no quorum answers, when every store call fails within idgen.zookeeper.timeout. Kept apart so that the
 * health indicator loads no Curator class when ZooKeeper is not used.
 */
public final class ZooKeeperHealth implements IdgenGeneratorHealth {

    private final CuratorFramework client;

    private final Duration timeout;

    private final Set<String> generators;

    /**
     * @param client the client idgen's ZooKeeper stores use
     * @param timeout how long the status may take
     * @param generators the generators that use ZooKeeper
     */
    public ZooKeeperHealth(CuratorFramework client, Duration timeout, Set<String> generators) {
        this.client = client;
        this.timeout = timeout;
        this.generators = Set.copyOf(generators);
    }

    /** Every generator that uses ZooKeeper, whatever its strategy. */
    @Override
    public String strategy() {
        return null;
    }

    @Override
    public void contribute(String generator, IdService service, Health.Builder builder) {
        if (!generators.contains(generator)) {
            return;
        }
        try {
            builder.withDetail(
                    "zookeeper", ZooKeeperEnsembleStatus.read(client, timeout).toMap());
        } catch (StoreUnavailableException e) {
            builder.down()
                    .withDetail(
                            "zookeeper",
                            Map.of("connectString", client.getZookeeperClient().getCurrentConnectionString()))
                    .withDetail("error", e.getMessage());
        }
    }
}
