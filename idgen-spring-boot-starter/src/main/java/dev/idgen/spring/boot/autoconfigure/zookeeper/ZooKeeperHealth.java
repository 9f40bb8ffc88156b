package dev.idgen.spring.boot.autoconfigure.zookeeper;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
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

    /** How long the ensemble's status may take at most. */
    static final Duration STATUS_TIMEOUT = Duration.ofSeconds(1);

    private final CuratorFramework client;

    private final Duration timeout;

    private final Set<String> generators;

    /**
     * @param client the client idgen's ZooKeeper stores use
     * @param timeout idgen.zookeeper.timeout: the status takes at most that, and at most a second
     * @param generators the generators that use ZooKeeper
     */
    public ZooKeeperHealth(CuratorFramework client, Duration timeout, Set<String> generators) {
        this.client = client;
        // Within the health indicator's own bound (IdgenGeneratorHealth.TIMEOUT, 2 s), so that a hung server shows as
        // unreachable instead of the whole check timing out.
        this.timeout = timeout.compareTo(STATUS_TIMEOUT) < 0 ? timeout : STATUS_TIMEOUT;
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
