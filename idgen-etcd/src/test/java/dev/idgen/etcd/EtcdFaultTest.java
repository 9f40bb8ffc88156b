package dev.idgen.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.idgen.core.LeaseLostException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.services.OwnEtcdCluster;
import io.etcd.jetcd.Client;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The etcd stores while members of a three-member cluster die, freeze, and the quorum is lost: segments never overlap,
 * every call returns within its timeout, allocation resumes once a quorum is back, and a worker id lease frozen past
 * its ttl is lost for its owner before anyone else gets the worker id.
 */
class EtcdFaultTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** The most a call may take: its timeout and scheduling on a loaded machine. */
    private static final Duration CALL_BOUND = TIMEOUT.plusSeconds(2);

    /** How soon allocations must resume once quorum is back (the bound). */
    private static final Duration RESUME_BOUND = Duration.ofSeconds(10);

    /**
     * How soon allocations must resume after a leader is killed or frozen: an election and the client moving off the
     * lost member, generous for a loaded machine (the figures printed are the measurement).
     */
    private static final Duration FAULT_RESUME_BOUND = Duration.ofSeconds(30);

    private static OwnEtcdCluster cluster;
    private static final List<Client> CLIENTS = new ArrayList<>();

    private final String namespace = EtcdTests.namespace();

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = OwnEtcdCluster.start(3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Every member running and resumed, and a leader, for the next test. */
    @AfterEach
    void restoreCluster() throws Exception {
        for (Client client : CLIENTS) {
            client.close();
        }
        CLIENTS.clear();
        for (int i = 0; i < cluster.size(); i++) {
            if (cluster.running(i)) {
                cluster.resume(i);
            } else {
                cluster.restart(i);
            }
        }
        cluster.awaitLeader(Duration.ofSeconds(30));
    }

    private static Client client() {
        Client client = EtcdTests.client(cluster);
        CLIENTS.add(client);
        return client;
    }

    private EtcdSegmentStore segmentStore() {
        return new EtcdSegmentStore(client(), namespace, 0, TIMEOUT, cluster.endpoints());
    }

    /** What the allocating threads saw. */
    private static final class Allocations {
        final ConcurrentLinkedQueue<Segment> segments = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        final AtomicLong failures = new AtomicLong();
        /** When each successful call started and ended, by {@link System#nanoTime()}. */
        final ConcurrentLinkedQueue<long[]> successes = new ConcurrentLinkedQueue<>();

        final AtomicLong longestCallNanos = new AtomicLong();

        void allocate(EtcdSegmentStore store, String name, long step) {
            long started = System.nanoTime();
            try {
                segments.add(store.allocate(name, step));
                successes.add(new long[] {started, System.nanoTime()});
            } catch (StoreUnavailableException e) {
                failures.incrementAndGet();
            } catch (RuntimeException | Error e) {
                unexpected.add(e);
            } finally {
                longestCallNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
            }
        }

        /**
         * @return how long after {@code faultNanos} the first allocation that started after it succeeded (one in
         *         flight at the fault does not count); fails after {@code bound}
         */
        Duration awaitSuccessAfter(long faultNanos, Duration bound, String fault) throws InterruptedException {
            long deadline = faultNanos + bound.toNanos();
            while (true) {
                long first = Long.MAX_VALUE;
                for (long[] success : successes) {
                    if (success[0] - faultNanos > 0) {
                        first = Math.min(first, success[1] - faultNanos);
                    }
                }
                if (first != Long.MAX_VALUE) {
                    return Duration.ofNanos(first);
                }
                if (System.nanoTime() - deadline > 0) {
                    fail("No allocation succeeded within " + bound.toSeconds() + " s after " + fault + " ("
                            + failures.get() + " failed meanwhile)");
                }
                Thread.sleep(20);
            }
        }

        void assertNoOverlapAndOnlyUnavailability() {
            assertThat(unexpected)
                    .as("errors other than StoreUnavailableException")
                    .isEmpty();
            assertThat(Duration.ofNanos(longestCallNanos.get()))
                    .as("the longest call")
                    .isLessThanOrEqualTo(CALL_BOUND);
            List<Segment> sorted = new ArrayList<>(segments);
            sorted.sort(Comparator.comparingLong(Segment::first));
            for (int i = 1; i < sorted.size(); i++) {
                assertThat(sorted.get(i).first())
                        .as("segment %s after %s", sorted.get(i), sorted.get(i - 1))
                        .isGreaterThan(sorted.get(i - 1).last());
            }
        }
    }

    @Test
    void segmentsNeverOverlapWhileTheLeaderIsKilledAndAnotherFrozen() throws Exception {
        String name = "fault-" + namespace.hashCode();
        List<EtcdSegmentStore> stores = List.of(segmentStore(), segmentStore());
        Allocations allocations = new Allocations();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < stores.size(); i++) {
                EtcdSegmentStore store = stores.get(i);
                long step = 10 + i;
                workers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        allocations.allocate(store, name, step);
                    }
                }));
            }
            allocations.awaitSuccessAfter(System.nanoTime(), FAULT_RESUME_BOUND, "starting");
            runFor(allocations, "before the faults");

            int leader = cluster.leader();
            long killed = System.nanoTime();
            cluster.kill(leader);
            Duration afterKill =
                    allocations.awaitSuccessAfter(killed, FAULT_RESUME_BOUND, "killing the leader m" + leader);
            System.out.println("Allocations resumed " + afterKill.toMillis() + " ms after the leader was killed");
            runFor(allocations, "with the leader killed");

            cluster.restart(leader);
            cluster.awaitLeader(Duration.ofSeconds(30));
            int newLeader = cluster.leader();
            long paused = System.nanoTime();
            cluster.pause(newLeader);
            try {
                Duration afterPause = allocations.awaitSuccessAfter(
                        paused, FAULT_RESUME_BOUND, "freezing the new leader m" + newLeader);
                System.out.println("Allocations resumed " + afterPause.toMillis() + " ms after the leader froze");
                // The freeze lasts 3 s, past the 1 s election timeout: the others elect a leader meanwhile.
                long frozenFor = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - paused);
                Thread.sleep(Math.max(0, 3_000 - frozenFor));
            } finally {
                cluster.resume(newLeader);
            }
            long resumed = System.nanoTime();
            Duration afterResume =
                    allocations.awaitSuccessAfter(resumed, FAULT_RESUME_BOUND, "resuming the old leader");
            System.out.println("Allocations went on " + afterResume.toMillis() + " ms after the old leader resumed");
            runFor(allocations, "after the old leader resumed");
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        System.out.println(allocations.segments.size() + " segments allocated, " + allocations.failures.get()
                + " allocations unavailable, the longest call took "
                + TimeUnit.NANOSECONDS.toMillis(allocations.longestCallNanos.get()) + " ms");
        assertThat(allocations.segments).hasSizeGreaterThan(10);
        allocations.assertNoOverlapAndOnlyUnavailability();
    }

    /** Lets the allocating threads run for 2 s of load (not a wait for anything), and reports what they did. */
    private static void runFor(Allocations allocations, String phase) throws InterruptedException {
        int before = allocations.segments.size();
        long failedBefore = allocations.failures.get();
        Thread.sleep(2_000);
        System.out.println((allocations.segments.size() - before) + " allocations and "
                + (allocations.failures.get() - failedBefore) + " unavailable in 2 s " + phase);
    }

    @Test
    void withoutAQuorumEveryCallFailsWithinItsTimeoutAndAllocationResumesOnceItIsBack() throws Exception {
        String name = "quorum-" + namespace.hashCode();
        Client client = client();
        EtcdSegmentStore store = new EtcdSegmentStore(client, namespace, 0, TIMEOUT, cluster.endpoints());
        Allocations allocations = new Allocations();
        allocations.allocate(store, name, 100);
        assertThat(allocations.segments).hasSize(1);

        int survivor = cluster.leader();
        List<Integer> dead = new ArrayList<>();
        for (int i = 0; i < cluster.size(); i++) {
            if (i != survivor) {
                cluster.kill(i);
                dead.add(i);
            }
        }

        assertFailsWithinBound(() -> store.allocate(name, 100), "allocate");
        assertFailsWithinBound(store::checkAvailable, "checkAvailable");

        long started = System.nanoTime();
        EtcdClusterStatus status = EtcdClusterStatus.read(client, cluster.clientUrls(), TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThanOrEqualTo(CALL_BOUND);
        System.out.println("Without a quorum: " + status.toMap());
        assertThat(status.members()).hasSize(3);
        assertThat(status.reachable()).isEqualTo(1);
        assertThat(status.hasQuorum()).isFalse();
        for (EtcdClusterStatus.MemberStatus member : status.members()) {
            boolean survivorsUrl =
                    member.clientUrls().contains(cluster.clientUrls().get(survivor));
            assertThat(member.reachable()).as("%s", member).isEqualTo(survivorsUrl);
        }

        long holdUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long successesBefore = allocations.segments.size();
        while (System.nanoTime() - holdUntil < 0) {
            allocations.allocate(store, name, 100);
        }
        assertThat(allocations.segments).as("allocations without a quorum").hasSize((int) successesBefore);
        assertThat(allocations.failures.get()).isGreaterThanOrEqualTo(5);

        for (int member : dead) {
            cluster.restart(member);
        }
        // Quorum is back once the members elected a leader: the bound counts from there, not from process start.
        cluster.awaitLeader(Duration.ofSeconds(60));
        long restarted = System.nanoTime();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> worker = pool.submit(() -> {
                while (!stop.get()) {
                    allocations.allocate(store, name, 100);
                }
            });
            Duration back = allocations.awaitSuccessAfter(restarted, RESUME_BOUND, "restarting two members");
            System.out.println("Allocations resumed " + back.toMillis() + " ms after the quorum came back");
            stop.set(true);
            worker.get(30, TimeUnit.SECONDS);
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        store.checkAvailable();
        EtcdClusterStatus healthy = EtcdClusterStatus.read(client, cluster.clientUrls(), Duration.ofSeconds(5));
        assertThat(healthy.reachable()).isEqualTo(3);
        assertThat(healthy.hasQuorum()).isTrue();
        assertThat(healthy.leaderName()).isNotNull();
        allocations.assertNoOverlapAndOnlyUnavailability();
    }

    @Test
    void everyCallIsBoundedWhenNoMemberListens() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String nowhere = "http://127.0.0.1:" + port;
        Client client = Client.builder().endpoints(nowhere).build();
        CLIENTS.add(client);
        EtcdSegmentStore segments = new EtcdSegmentStore(client, namespace, 0, TIMEOUT, nowhere);
        EtcdWorkerIdLeaseStore leases = new EtcdWorkerIdLeaseStore(client, namespace, TIMEOUT, nowhere);
        assertBounded(() -> segments.allocate("a", 1), "allocate", nowhere);
        assertBounded(segments::checkAvailable, "checkAvailable", nowhere);
        assertBounded(() -> leases.acquire("o", 3, Duration.ofSeconds(3), Duration.ofSeconds(1)), "acquire", nowhere);
        assertBounded(() -> leases.release(0, "o", 1), "release", nowhere);
        long started = System.nanoTime();
        assertThatThrownBy(() -> EtcdClusterStatus.read(client, List.of(nowhere), TIMEOUT))
                .isInstanceOf(EtcdUnavailableException.class)
                .hasMessageContaining(nowhere);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThanOrEqualTo(CALL_BOUND);
    }

    private static void assertBounded(Runnable call, String what, String endpoints) {
        long started = System.nanoTime();
        assertThatThrownBy(call::run)
                .as(what + " with no member listening")
                .isInstanceOf(EtcdUnavailableException.class)
                .hasMessageContaining(endpoints);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as(what + " with no member listening")
                .isLessThanOrEqualTo(CALL_BOUND);
    }

    private static void assertFailsWithinBound(Runnable call, String what) {
        long started = System.nanoTime();
        assertThatThrownBy(call::run)
                .as(what + " without a quorum")
                .isInstanceOf(EtcdUnavailableException.class)
                .hasMessageContaining(cluster.endpoints());
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        System.out.println(what + " failed after " + took.toMillis() + " ms without a quorum");
        assertThat(took).as(what + " without a quorum").isLessThanOrEqualTo(CALL_BOUND);
    }

    @Test
    void aLeaseFrozenPastItsTtlIsLostForItsOwnerBeforeAnotherGetsTheWorkerId() throws Exception {
        Duration ttl = Duration.ofSeconds(3);
        Duration reuseDelay = Duration.ofSeconds(2);
        EtcdWorkerIdLeaseStore storeA = new EtcdWorkerIdLeaseStore(client(), namespace, TIMEOUT, cluster.endpoints());
        EtcdWorkerIdLeaseStore storeB = new EtcdWorkerIdLeaseStore(client(), namespace, TIMEOUT, cluster.endpoints());
        LeasingWorkerIdAssigner assignerA = LeasingWorkerIdAssigner.builder(storeA)
                .instanceId("instance-a")
                .ttl(ttl)
                .reuseDelay(reuseDelay)
                .acquireTimeout(Duration.ofSeconds(20))
                .build();
        long acquiredAtMillis = System.currentTimeMillis();
        RenewingWorkerIdLease leaseA = (RenewingWorkerIdLease) assignerA.acquire(0);
        try {
            long workerId = leaseA.workerId();
            assertThat(workerId).isZero();
            await(Duration.ofSeconds(30), "a renewal of A's lease", () -> leaseA.renewals() >= 1);

            long paused = System.nanoTime();
            for (int i = 0; i < cluster.size(); i++) {
                cluster.pause(i);
            }
            long invalidAt;
            try {
                await(ttl.plusSeconds(2), "A's lease to turn invalid by A's clock", () -> !leaseA.isValid());
                invalidAt = System.nanoTime();
                assertThatThrownBy(leaseA::checkValid).isInstanceOf(LeaseLostException.class);
                System.out.println("A's lease turned invalid " + TimeUnit.NANOSECONDS.toMillis(invalidAt - paused)
                        + " ms into the freeze");
                // The freeze outlasts the ttl by a second.
                long frozenFor = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - paused);
                Thread.sleep(Math.max(0, ttl.toMillis() + 1_000 - frozenFor));
            } finally {
                for (int i = 0; i < cluster.size(); i++) {
                    cluster.resume(i);
                }
            }
            long resumed = System.nanoTime();

            Acquisition acquisition = null;
            long deadline = resumed + TimeUnit.SECONDS.toNanos(30);
            while (acquisition == null || !acquisition.isGranted()) {
                if (System.nanoTime() - deadline > 0) {
                    fail("B did not get worker id " + workerId + " within 30 s after the cluster resumed");
                }
                try {
                    acquisition = storeB.acquire("instance-b", 0, ttl, reuseDelay);
                } catch (StoreUnavailableException e) {
                    acquisition = null;
                }
                if (acquisition == null || !acquisition.isGranted()) {
                    Thread.sleep(100);
                }
            }
            long grantedAt = System.nanoTime();
            System.out.println("B got worker id " + acquisition.workerId() + " "
                    + TimeUnit.NANOSECONDS.toMillis(grantedAt - invalidAt) + " ms after A's lease turned invalid, "
                    + TimeUnit.NANOSECONDS.toMillis(grantedAt - resumed) + " ms after the cluster resumed");
            assertThat(acquisition.workerId()).isEqualTo(workerId);
            assertThat(Duration.ofNanos(grantedAt - invalidAt))
                    .as("A's generator stopped at least the reuse delay before B got its worker id")
                    .isGreaterThanOrEqualTo(reuseDelay);
            assertThat(acquisition.lastUsedTimestamp())
                    .as("the last timestamp A recorded reaches B")
                    .isGreaterThan(acquiredAtMillis);

            await(Duration.ofSeconds(15), "A's lease to be lost for good", leaseA::isLost);
            assertThat(leaseA.renewNow()).isFalse();
            assertThat(leaseA.isValid()).isFalse();
            assertThat(storeA.renew(workerId, leaseA.owner(), ttl, reuseDelay, System.currentTimeMillis(), true))
                    .as("A's store, even told the lease is valid, does not take B's worker id")
                    .isFalse();
            assertThat(storeB.renew(workerId, "instance-b", ttl, reuseDelay, System.currentTimeMillis(), true))
                    .isTrue();
        } finally {
            leaseA.close();
        }
    }

    private static void await(Duration bound, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("Timed out after " + bound.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
