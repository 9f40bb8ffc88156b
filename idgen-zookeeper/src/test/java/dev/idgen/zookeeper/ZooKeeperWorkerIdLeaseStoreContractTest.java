package dev.idgen.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.WorkerIdLeaseStoreContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ZooKeeperWorkerIdLeaseStore} against a three-server ensemble of the test's own. */
class ZooKeeperWorkerIdLeaseStoreContractTest extends WorkerIdLeaseStoreContract {

    @RegisterExtension
    static final ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(3, "leases");

    @Override
    protected WorkerIdLeaseStore store() {
        try {
            return new ZooKeeperWorkerIdLeaseStore(ensemble.client(), ensemble.basePath(), Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void pass(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    @Test
    void aHolderIsVisibleAsAnEphemeralNodeOfItsSessionUntilItReleases() throws Exception {
        CuratorFramework client = ensemble.client();
        ZooKeeperWorkerIdLeaseStore store =
                new ZooKeeperWorkerIdLeaseStore(client, ensemble.basePath(), Duration.ofSeconds(5));
        long id = store.acquire("holder-a", 3, ttl(), reuseDelay()).workerId();
        String holder = ensemble.basePath() + "/holders/" + id;
        assertThat(new String(client.getData().forPath(holder), StandardCharsets.UTF_8))
                .isEqualTo("holder-a");
        assertThat(client.checkExists().forPath(holder).getEphemeralOwner())
                .isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
        assertThat(store.liveHolders()).containsExactly(id);
        store.release(id, "holder-a", 5);
        assertThat(client.checkExists().forPath(holder)).isNull();
        assertThat(store.liveHolders()).isEmpty();
    }

    @Test
    void anOwnerGetsItsLiveLeaseBackThroughAnotherStoreInstance() {
        // An owner is one process (instance id plus nonce), whichever session its retry goes through.
        WorkerIdLeaseStore first = store();
        WorkerIdLeaseStore second = store();
        Acquisition lost = first.acquire("svc#n1", 3, ttl(), reuseDelay());
        Acquisition retried = second.acquire("svc#n1", 3, ttl(), reuseDelay());
        assertThat(retried.workerId()).isEqualTo(lost.workerId());
        assertThat(retried.isTakenOver()).isFalse();
    }

    @Test
    void whenEveryIdWaitsOutItsReuseDelayTheHintSaysHowLong() {
        WorkerIdLeaseStore store = store();
        long id = store.acquire("hinted", 0, ttl(), reuseDelay()).workerId();
        store.release(id, "hinted", 10);
        Acquisition none = store.acquire("next", 0, ttl(), reuseDelay());
        assertThat(none.isGranted()).isFalse();
        assertThat(none.retryAfterMillis()).isBetween(1L, reuseDelay().toMillis());
    }

    @Test
    void aHeldIdWhoseHolderSessionEndedIsWorthWaitingFor() throws Exception {
        CuratorFramework holderClient = ensemble.client();
        ZooKeeperWorkerIdLeaseStore holder =
                new ZooKeeperWorkerIdLeaseStore(holderClient, ensemble.basePath(), Duration.ofSeconds(5));
        long id = holder.acquire("gone", 0, ttl(), reuseDelay()).workerId();
        WorkerIdLeaseStore other = store();
        assertThat(other.acquire("waiting", 0, ttl(), reuseDelay()).retryAfterMillis())
                .as("held by a live session: exhausted")
                .isZero();
        holderClient.close(); // its session ends, its holder node goes
        Acquisition none = other.acquire("waiting", 0, ttl(), reuseDelay());
        assertThat(none.isGranted()).as("never earlier than ttl + reuse delay").isFalse();
        assertThat(none.retryAfterMillis())
                .isBetween(1L, ttl().plus(reuseDelay()).toMillis());
        assertThat(id).isZero();
    }

    @Test
    void validatesItsArgumentsNamingThem() throws Exception {
        CuratorFramework client = ensemble.client();
        assertThatThrownBy(() -> new ZooKeeperWorkerIdLeaseStore(client, "leases", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("basePath");
        assertThatThrownBy(() -> new ZooKeeperWorkerIdLeaseStore(client, "/leases", Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
        WorkerIdLeaseStore store = new ZooKeeperWorkerIdLeaseStore(client, ensemble.basePath(), Duration.ofSeconds(1));
        assertThatThrownBy(() -> store.acquire("", 3, ttl(), reuseDelay()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("owner");
        assertThatThrownBy(() -> store.acquire("o", -1, ttl(), reuseDelay()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxWorkerId");
        assertThat(store)
                .hasToString("ZooKeeper worker id leases under " + ensemble.basePath() + " on "
                        + ensemble.cluster().connectString());
    }
}
