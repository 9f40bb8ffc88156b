package dev.idgen.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.WorkerIdLeaseStoreContract;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The worker id lease store contract against a three-member etcd cluster of the test's own.
 *
 * <p><b>Durations.</b> etcd leases count whole seconds (and at least 2 s), so the tests use a ttl of 5 s and a reuse
 * delay of 2 s: the owner lease A lasts 5 s, the fence lease B 7 s from each renewal. A ttl of 3 s left a renewal at
 * T/2 + s only 0.6 s before A's end, less the acquisition's own latency: on a busy machine A had expired first.
 *
 * <p><b>{@link #pass} adds {@value #SLACK_MILLIS} ms</b>: etcd's leader looks for expired leases every 500 ms and then
 * revokes them through Raft, so a key outlives its lease by up to ~0.5 s (plus the grant's or renewal's own latency,
 * since the lease's time starts when the leader handles it). With T = 5 s, R = 2 s and slack s, per test:
 * <ul>
 * <li>a renewed lease outlives its first ttl: renewed at T/2 + s = 3.4 s, 1.6 s before A's end; checked at T + R +
 * 0.05 + 2s (needs the fence, which lasts until T/2 + s + T + R): holds while s < T/2 - 0.05 = 2.45 s, a margin of
 * 1.55 s against the test thread oversleeping;</li>
 * <li>an expired worker id waits out the reuse delay: held within it at T + 0.05 + s (fence until T + R: needs s <
 * R - 0.05), free at T + R + 0.05 + 2s (needs the fence revoked: s > (0.5 + latency - 0.05) / 2, about 0.25 s);</li>
 * <li>release frees after the reuse delay (and the same step in "never lower the last timestamp"): free at R + 0.05 +
 * s, the new fence of R revoked by R + 0.5 + latency: needs s > 0.45 s + latency, a margin of about 0.4 s;</li>
 * <li>a lapsed owner never renews: checked at T + 0.05 + s, after A's end at T + latency: slack only helps; etcd
 * answers a keep-alive of an expired lease not yet revoked only once it is revoked, with "lease not found".</li>
 * </ul>
 * Every "still held" check stays strictly before the fence's end, every "free" check after its revocation, so each
 * test still tells a store that frees too early or too late apart.
 */
class EtcdWorkerIdLeaseStoreContractTest extends WorkerIdLeaseStoreContract {

    static final long SLACK_MILLIS = 900;

    @RegisterExtension
    static final EtcdCluster etcd = new EtcdCluster(3);

    private final String namespace = EtcdTests.namespace();

    @Override
    protected Duration ttl() {
        return Duration.ofSeconds(5);
    }

    @Override
    protected Duration reuseDelay() {
        return Duration.ofSeconds(2);
    }

    @Override
    protected WorkerIdLeaseStore store() {
        return new EtcdWorkerIdLeaseStore(
                etcd.client(), namespace, Duration.ofSeconds(10), etcd.cluster().endpoints());
    }

    @Override
    protected void pass(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis() + SLACK_MILLIS);
    }

    @Test
    void anotherStoreInstanceDoesNotRenewALeaseItDidNotGrant() {
        WorkerIdLeaseStore store = store();
        Acquisition acquisition = store.acquire("owner-a", 3, ttl(), reuseDelay());
        assertThat(acquisition.isGranted()).isTrue();
        assertThat(store().renew(acquisition.workerId(), "owner-a", ttl(), reuseDelay(), 5, true))
                .isFalse();
        assertThat(store.renew(acquisition.workerId(), "owner-a", ttl(), reuseDelay(), 5, true))
                .isTrue();
    }

    @Test
    void whenAllAreHeldOnlyAReuseDelayGivesARetryHint() {
        WorkerIdLeaseStore store = store();
        long id = store.acquire("owner-a", 0, ttl(), reuseDelay()).workerId();
        Acquisition none = store.acquire("owner-b", 0, ttl(), reuseDelay());
        assertThat(none.isGranted()).isFalse();
        assertThat(none.retryAfterMillis()).as("held by a live owner").isZero();
        store.release(id, "owner-a", 1);
        Acquisition waiting = store.acquire("owner-b", 0, ttl(), reuseDelay());
        assertThat(waiting.isGranted()).isFalse();
        assertThat(waiting.retryAfterMillis())
                .as("the fence's remaining reuse delay")
                .isBetween(1L, 4_000L);
    }

    @Test
    void describesItself() {
        assertThat(new EtcdWorkerIdLeaseStore(etcd.client(), "app", Duration.ofSeconds(1), "http://h:2379"))
                .hasToString("etcd worker id leases under app/ on http://h:2379");
    }
}
