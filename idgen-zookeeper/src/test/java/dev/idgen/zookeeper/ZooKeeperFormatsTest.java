package dev.idgen.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.zookeeper.WorkerLease.State;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the stores write and parse, without a server. */
class ZooKeeperFormatsTest {

    @Test
    void aLeaseRoundTripsWhateverItsOwnerHolds() {
        WorkerLease lease = new WorkerLease(
                State.HELD, 30_000, 5_000, 1_700_000_000_000L, "5eed", 20_000, "host a/1 2\nthird line");
        assertThat(WorkerLease.decode(lease.encode())).isEqualTo(lease);
        assertThat(new String(lease.encode(), StandardCharsets.UTF_8))
                .startsWith("HELD 30000 5000 1700000000000 5eed/20000\nhost a/1 2");
        assertThat(WorkerLease.decode("17".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(WorkerLease.decode("GONE 1 2 3 x\nowner".getBytes(StandardCharsets.UTF_8)))
                .isNull();
        assertThat(WorkerLease.decode(null)).isNull();
    }

    @Test
    void aLeaseAnOlderVersionWroteRecordsNoGrant() {
        WorkerLease lease = WorkerLease.decode("HELD 30000 5000 17 5eed\nowner".getBytes(StandardCharsets.UTF_8));
        assertThat(lease.nonce()).isEqualTo("5eed");
        assertThat(lease.grantedPreviousTtlMillis()).isEqualTo(Acquisition.UNKNOWN_TTL);
        assertThat(lease.granted(3).isTakenOver())
                .as("given back as a take-over of unknown ttl")
                .isTrue();
        assertThat(WorkerLease.decode("HELD 30000 5000 17 5eed/0\nowner".getBytes(StandardCharsets.UTF_8))
                        .granted(3)
                        .isTakenOver())
                .isFalse();
    }

    @Test
    void theStatusAsksEveryServerOfTheConnectStringWithoutItsChroot() {
        assertThat(ZooKeeperEnsembleStatus.addresses("a:1, b:2,c:3/idgen/chroot"))
                .containsExactly("a:1", "b:2", "c:3");
        assertThat(ZooKeeperEnsembleStatus.addresses("[::1]:2181")).containsExactly("[::1]:2181");
    }
}
