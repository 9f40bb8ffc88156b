package dev.idgen.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.test.SegmentStoreContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ZooKeeperSegmentStore} against a three-server ensemble of the test's own. */
class ZooKeeperSegmentStoreContractTest extends SegmentStoreContract {

    @RegisterExtension
    static final ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(3, "segments");

    @Override
    protected SegmentStore store(long initialValue) {
        try {
            return new ZooKeeperSegmentStore(
                    ensemble.client(), ensemble.basePath(), initialValue, Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theNodeHoldsTheHighestAllocatedIdAsDecimalText() throws Exception {
        CuratorFramework client = ensemble.client();
        ZooKeeperSegmentStore store =
                new ZooKeeperSegmentStore(client, ensemble.basePath(), 100, Duration.ofSeconds(5));
        assertThat(store.allocate("orders", 7)).isEqualTo(new Segment(101, 107));
        byte[] data = client.getData().forPath(ensemble.basePath() + "/segments/orders");
        assertThat(new String(data, StandardCharsets.UTF_8)).isEqualTo("107");
    }

    @Test
    void allocateAboveStartsAboveTheFloorInTheSameWrite() throws Exception {
        ZooKeeperSegmentStore store =
                new ZooKeeperSegmentStore(ensemble.client(), ensemble.basePath(), 0, Duration.ofSeconds(5));
        assertThat(store.allocateAbove("orders", 10, 0)).isEqualTo(new Segment(1, 10));
        assertThat(store.allocateAbove("orders", 10, 500)).isEqualTo(new Segment(501, 510));
        assertThat(store.allocateAbove("orders", 10, 5)).isEqualTo(new Segment(511, 520));
    }

    @Test
    void aNodeIsRotatedBeforeItsVersionCouldWrapAndAllocationsStillFollowEachOther() throws Exception {
        CuratorFramework client = ensemble.client();
        ZooKeeperSegmentStore store =
                new ZooKeeperSegmentStore(client, ensemble.basePath(), 0, Duration.ofSeconds(5), 3);
        long expected = 1;
        for (int i = 0; i < 10; i++) {
            Segment segment = store.allocate("orders", 5);
            assertThat(segment.first()).isEqualTo(expected);
            expected = segment.last() + 1;
        }
        assertThat(client.checkExists()
                        .forPath(ensemble.basePath() + "/segments/orders")
                        .getVersion())
                .isLessThanOrEqualTo(3);
    }

    @Test
    void concurrentAllocationsThatRotateTheNodeNeverOverlap() throws Exception {
        // Rotations every 64 writes, not every 2: a versioned write names only the version, so a read from a follower
        // a whole rotation behind could match the new node's version. A follower is never 2^30 writes behind (the
        // production rotation), but on a loaded machine it can be two.
        List<ZooKeeperSegmentStore> stores = List.of(
                new ZooKeeperSegmentStore(ensemble.client(), ensemble.basePath(), 0, Duration.ofSeconds(10), 64),
                new ZooKeeperSegmentStore(ensemble.client(), ensemble.basePath(), 0, Duration.ofSeconds(10), 64));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Segment>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                ZooKeeperSegmentStore store = stores.get(t % 2);
                long step = 1 + t;
                results.add(pool.submit(() -> {
                    List<Segment> segments = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        segments.add(store.allocate("rotated", step));
                    }
                    return segments;
                }));
            }
            List<Segment> all = new ArrayList<>();
            for (Future<List<Segment>> result : results) {
                all.addAll(result.get(60, TimeUnit.SECONDS));
            }
            all.sort(Comparator.comparingLong(Segment::first));
            assertThat(all.get(0).first()).isEqualTo(1);
            for (int i = 1; i < all.size(); i++) {
                assertThat(all.get(i).first())
                        .as("no gap and no overlap")
                        .isEqualTo(all.get(i - 1).last() + 1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesToPassLongMaxValue() throws Exception {
        CuratorFramework client = ensemble.client();
        ZooKeeperSegmentStore store =
                new ZooKeeperSegmentStore(client, ensemble.basePath(), Long.MAX_VALUE - 10, Duration.ofSeconds(5));
        assertThat(store.allocate("orders", 10).last()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> store.allocate("orders", 1))
                .isInstanceOf(IdGenerationException.class)
                .hasMessageContaining("exhausted");
        assertThat(new String(
                        client.getData().forPath(ensemble.basePath() + "/segments/orders"), StandardCharsets.UTF_8))
                .isEqualTo(Long.toString(Long.MAX_VALUE));
    }

    @Test
    void validatesItsArgumentsNamingThem() throws Exception {
        CuratorFramework client = ensemble.client();
        Duration timeout = Duration.ofSeconds(1);
        for (String bad : new String[] {"idgen", "/idgen/", "/", "/a//b", "/a/./b", "/" + "x".repeat(300)}) {
            assertThatThrownBy(() -> new ZooKeeperSegmentStore(client, bad, 0, timeout))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("basePath");
        }
        assertThatThrownBy(() -> new ZooKeeperSegmentStore(client, "/idgen", 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> new ZooKeeperSegmentStore(client, "/idgen", -1, timeout))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initialValue");
        ZooKeeperSegmentStore store = new ZooKeeperSegmentStore(client, ensemble.basePath(), 0, timeout);
        assertThatThrownBy(() -> store.allocate("orders", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("step");
        for (String bad : new String[] {"", "a/b", ".", "..", "a\u0001b"}) {
            assertThatThrownBy(() -> store.allocate(bad, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("name");
        }
    }

    @Test
    void describesItselfWithoutCallingZooKeeperAndChecksAvailability() throws Exception {
        ZooKeeperSegmentStore store =
                new ZooKeeperSegmentStore(ensemble.client(), ensemble.basePath(), 0, Duration.ofSeconds(5));
        assertThat(store)
                .hasToString("ZooKeeper segments under " + ensemble.basePath() + " on "
                        + ensemble.cluster().connectString());
        store.checkAvailable();
    }

    @Test
    void aClosedClientFailsFastWithZooKeeperUnavailable() throws Exception {
        CuratorFramework client = ensemble.client();
        ZooKeeperSegmentStore store = new ZooKeeperSegmentStore(client, ensemble.basePath(), 0, Duration.ofSeconds(5));
        client.close();
        assertThatThrownBy(() -> store.allocate("orders", 1))
                .isInstanceOf(ZooKeeperUnavailableException.class)
                .hasMessageContaining(ensemble.cluster().connectString())
                .hasMessageContaining("closed");
    }

    @Test
    void theEnsembleStatusShowsEveryServerAndTheLeader() throws Exception {
        ZooKeeperEnsembleStatus status = ZooKeeperEnsembleStatus.read(ensemble.client(), Duration.ofSeconds(5));
        assertThat(status.connectString()).isEqualTo(ensemble.cluster().connectString());
        assertThat(status.connectionState()).isEqualTo("CONNECTED");
        assertThat(status.sessionId()).startsWith("0x").isNotEqualTo("0x0");
        assertThat(status.sessionTimeoutMillis()).isEqualTo(4000);
        assertThat(status.connectedServer()).isNotNull();
        assertThat(status.servers()).hasSize(3).allMatch(ZooKeeperEnsembleStatus.Server::reachable);
        assertThat(status.servers())
                .extracting(ZooKeeperEnsembleStatus.Server::mode)
                .containsExactlyInAnyOrder("leader", "follower", "follower");
        assertThat(status.leader())
                .isEqualTo(ensemble.cluster().address(ensemble.cluster().leader()));
        Map<String, Object> map = status.toMap();
        assertThat(map)
                .containsKeys(
                        "connectString", "connectionState", "sessionId", "sessionTimeoutMillis", "leader", "servers");
    }
}
