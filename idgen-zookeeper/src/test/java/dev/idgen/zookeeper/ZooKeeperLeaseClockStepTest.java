package dev.idgen.zookeeper;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.test.LeaseStoreClockStepContract;
import dev.idgen.test.services.OwnZooKeeperCluster;
import dev.idgen.test.services.ShiftedClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Worker-id leases on a three-server ZooKeeper ensemble of the test's own in which one server runs on a clock the test
 * steps: the test makes that server the leader (a leadership change to a server 10 minutes behind), then steps its
 * clock to 10 minutes ahead. The leader stamps every change's {@code mtime}, by which the store judges leases.
 */
class ZooKeeperLeaseClockStepTest extends LeaseStoreClockStepContract {

    private static final List<CuratorFramework> CLIENTS = new CopyOnWriteArrayList<>();

    private static ShiftedClock clock;
    private static OwnZooKeeperCluster ensemble;
    private static int shifted;
    private static String basePath;
    private static CuratorFramework prober;

    @BeforeAll
    static void startEnsemble() throws Exception {
        clock = ShiftedClock.create();
        ensemble = OwnZooKeeperCluster.start(3);
        // The server that wins once the leader is gone: a follower with the highest myid. It runs on the stepped
        // clock from now on, at real time until the test steps it.
        int leader = ensemble.leader();
        shifted = leader == 2 ? 1 : 2;
        ensemble.restartOn(shifted, clock);
        ensemble.awaitQuorum(Duration.ofSeconds(60));
        basePath = ZooKeeperTests.basePath("clock-step");
        prober = client();
        prober.create()
                .creatingParentsIfNeeded()
                .withMode(CreateMode.PERSISTENT)
                .forPath(basePath + "-probe");
    }

    @AfterAll
    static void stopEnsemble() {
        CLIENTS.forEach(CuratorFramework::close);
        if (ensemble != null) {
            ensemble.close();
        }
        if (clock != null) {
            clock.close();
        }
    }

    /** A session long enough to outlast the elections the test causes (each a second or two). */
    private static CuratorFramework client() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(ensemble.connectString())
                .sessionTimeoutMs(15_000)
                .connectionTimeoutMs(2000)
                .retryPolicy(new RetryUntilElapsed(2000, 100))
                .build();
        client.start();
        CLIENTS.add(client);
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("No connection to " + ensemble.connectString() + " within 30 s");
        }
        return client;
    }

    /** Longer than an election after a kill -9 of the leader on a busy machine (the first run lost a 4 s lease). */
    @Override
    protected Duration ttl() {
        return Duration.ofSeconds(10);
    }

    @Override
    protected WorkerIdLeaseStore newStoreClient() throws Exception {
        return new ZooKeeperWorkerIdLeaseStore(client(), basePath, Duration.ofSeconds(5));
    }

    @Override
    protected void setStoreClock(Duration offset) throws Exception {
        clock.shiftTo(offset);
        ensemble.makeLeader(shifted, Duration.ofSeconds(60));
    }

    @Override
    protected long storeTimeMillis() throws Exception {
        Stat stat = prober.setData().forPath(basePath + "-probe", new byte[0]);
        return stat.getMtime();
    }
}
