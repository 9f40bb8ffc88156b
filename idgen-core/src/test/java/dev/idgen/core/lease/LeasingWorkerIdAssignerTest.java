package dev.idgen.core.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LeaseLostException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.WorkerIdRanges;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LeasingWorkerIdAssignerTest {

    private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.standard().toBuilder()
            .workerBits(1)
            .sequenceBits(12)
            .timestampBits(41)
            .build();

    private final ManualTimeSource clock = new ManualTimeSource(1_800_000_000_000L);

    private final InMemoryWorkerIdLeaseStore store = new InMemoryWorkerIdLeaseStore(clock);

    private final java.util.List<SnowflakeGenerator> generators = new java.util.ArrayList<>();

    /** Passes every call to {@link #store}: tests override the one they make slow or late. */
    private class ForwardingStore implements WorkerIdLeaseStore {
        @Override
        public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
            return store.acquire(owner, maxWorkerId, ttl, reuseDelay);
        }

        @Override
        public boolean renew(
                long workerId,
                String owner,
                Duration ttl,
                Duration reuseDelay,
                long lastTimestamp,
                boolean heldValidly) {
            return store.renew(workerId, owner, ttl, reuseDelay, lastTimestamp, heldValidly);
        }

        @Override
        public void release(long workerId, String owner, long lastTimestamp) {
            store.release(workerId, owner, lastTimestamp);
        }
    }

    /**
     * {@link #store}, reporting every grant as free: for the tests of the first holder's fence, whose second holder
     * would otherwise wait out the first's ttl by the manual clock (that wait has a test of its own).
     */
    private final WorkerIdLeaseStore grantsFree = new ForwardingStore() {
        @Override
        public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
            Acquisition acquisition = super.acquire(owner, maxWorkerId, ttl, reuseDelay);
            return acquisition.isGranted()
                    ? Acquisition.grantedFree(acquisition.workerId(), acquisition.lastUsedTimestamp())
                    : acquisition;
        }
    };

    @AfterEach
    void closeGenerators() {
        generators.forEach(SnowflakeGenerator::close);
    }

    /**
     * 30 s leases, 3 s margin, on the test clock; the heartbeat's own schedule (real time) is far off, tests renew by
     * hand.
     */
    private LeasingWorkerIdAssigner.Builder assignerOn(WorkerIdLeaseStore leaseStore, String instanceId) {
        return LeasingWorkerIdAssigner.builder(leaseStore)
                .instanceId(instanceId)
                .ttl(Duration.ofSeconds(30))
                .renewInterval(Duration.ofSeconds(13))
                .safetyMargin(Duration.ofSeconds(3))
                .reuseDelay(Duration.ofSeconds(5))
                .acquireTimeout(Duration.ZERO)
                .timeSource(clock);
    }

    /**
     * A rolling switch from another fleet that runs worker ids 0 to 2 and 4 of the same layout: leases skip them, free
     * grants are released again (not left held), and two instances get 3 and 5, never an excluded id.
     */
    @Test
    void excludedWorkerIdsAreNeverLeased() {
        WorkerIdRanges old = WorkerIdRanges.parse("oldWorkerIds", "0-2,4");
        LeasingWorkerIdAssigner first =
                assignerOn(grantsFree, "first").excludedWorkerIds(old).build();
        LeasingWorkerIdAssigner second =
                assignerOn(grantsFree, "second").excludedWorkerIds(old).build();

        WorkerIdLease a = first.acquire(7);
        WorkerIdLease b = second.acquire(7);

        assertThat(List.of(a.workerId(), b.workerId())).containsExactly(3L, 5L);
        clock.advance(Duration.ofSeconds(6)); // past the reuse delay: the skipped ids were released, not held
        WorkerIdLease c = assignerOn(grantsFree, "third").build().acquire(7);
        assertThat(c.workerId()).isZero();
        assertThatThrownBy(() -> assignerOn(grantsFree, "fourth")
                        .excludedWorkerIds(WorkerIdRanges.parse("oldWorkerIds", "0-7"))
                        .build()
                        .acquire(7))
                .isInstanceOf(WorkerIdsExhaustedException.class)
                .hasMessageContaining("excluded (0-7)");
        a.close();
        b.close();
        c.close();
    }

    private LeasingWorkerIdAssigner assigner(String instanceId) {
        return assignerOn(grantsFree, instanceId).build();
    }

    private SnowflakeGenerator generatorWith(LeasingWorkerIdAssigner.Builder assigner) {
        return SnowflakeGenerator.builder()
                .layout(TWO_WORKERS)
                .timeSource(clock)
                .workerIdAssigner(assigner.build())
                .build();
    }

    private SnowflakeGenerator generator(String instanceId) {
        SnowflakeGenerator generator = generatorWith(assignerOn(grantsFree, instanceId));
        generators.add(generator);
        return generator;
    }

    private static RenewingWorkerIdLease lease(SnowflakeGenerator generator) {
        return (RenewingWorkerIdLease) generator.lease();
    }

    /** Waits (bounded, generously) until the generator issues under another lease than {@code old}. */
    private static RenewingWorkerIdLease awaitNewLease(SnowflakeGenerator generator, Object old) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (generator.lease() == old) {
            assertThat(System.nanoTime() - deadline)
                    .as("a new lease within 30 s")
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return lease(generator);
    }

    @Test
    void theGeneratorStopsBeforeTheLeaseCouldExpireThenLeasesAFreshWorkerId() {
        SnowflakeGenerator generator = generator("a");
        clock.advanceMillis(1);
        long before = generator.nextId();
        clock.advanceMillis(26_998);
        assertThat(generator.nextId()).isGreaterThan(before);
        clock.advanceMillis(2);
        RenewingWorkerIdLease expired = lease(generator);
        assertThatThrownBy(generator::nextId)
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("worker id 0")
                .hasMessageContaining("'" + expired.owner() + "'");
        assertThat(expired.isValid()).isFalse();
        assertThat(expired.renewNow())
                .as("expired by its own clock: never renewed again, though nobody took it")
                .isFalse();
        assertThat(expired.isLost()).isTrue();
        RenewingWorkerIdLease fresh = awaitNewLease(generator, expired);
        assertThat(fresh.workerId())
                .as("0 was released and waits out its reuse delay")
                .isEqualTo(1);
        assertThat(generator.workerId()).isEqualTo(1);
        assertThat(generator.workerIdChanges()).isEqualTo(1);
        clock.advanceMillis(1);
        long after = generator.nextId();
        assertThat(after).isGreaterThan(before);
        assertThat(generator.decode(after).workerId()).isEqualTo(1);
        assertThat(expired.renewNow()).isFalse();
    }

    @Test
    void anUnreachableStoreLeavesTheDeadlineWhereItWasThenTheLeaseIsLost() {
        SnowflakeGenerator generator = generator("a");
        store.setAvailable(false);
        clock.advanceMillis(10_000);
        RenewingWorkerIdLease lease = lease(generator);
        assertThat(lease.renewNow()).isFalse();
        assertThat(lease.renewalFailures()).isEqualTo(1);
        assertThat(generator.nextId()).isPositive();
        assertThat(lease.remaining()).isEqualTo(Duration.ofSeconds(17));
        clock.advanceMillis(17_000);
        assertThatThrownBy(generator::nextId)
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("the last renewal failed");
        store.setAvailable(true);
        assertThat(lease.renewNow())
                .as("too late: the store may have handed the id on")
                .isFalse();
        assertThat(awaitNewLease(generator, lease).isValid()).isTrue();
        clock.advanceMillis(1);
        assertThat(generator.nextId()).isPositive();
    }

    @Test
    void aLeaseTakenOverByAnotherInstanceStopsTheGeneratorWhichMovesToAFreeWorkerId() {
        SnowflakeGenerator first = generator("first");
        clock.advanceMillis(1);
        long before = first.nextId();
        clock.advanceMillis(30_000 + 5_000);
        SnowflakeGenerator second = generator("second");
        assertThat(second.workerId()).isEqualTo(0);
        RenewingWorkerIdLease lost = lease(first);
        assertThat(lost.renewNow()).isFalse();
        assertThatThrownBy(() -> lost.checkValid()).isInstanceOf(LeaseLostException.class);
        assertThat(awaitNewLease(first, lost).workerId()).isEqualTo(1);
        assertThat(lease(second).renewNow())
                .as("worker id 0 is still second's: the store renews it for its owner only")
                .isTrue();
        clock.advanceMillis(1);
        assertThat(first.nextId()).isGreaterThan(before);
        assertThat(second.nextId()).isPositive();
    }

    @Test
    void anIdTakenOverFromALeaseThatLookedExpiredToAStoreWhoseClockSteppedIsUsedOnlyOnceItsHolderStopped()
            throws Exception {
        // The store judges expiry by its own clock, which steps ten minutes forward while A holds worker id 0.
        ManualTimeSource storeClock = new ManualTimeSource(clock.currentTimeMillis());
        InMemoryWorkerIdLeaseStore steppingStore = new InMemoryWorkerIdLeaseStore(storeClock);
        SnowflakeGenerator a = generatorWith(assignerOn(steppingStore, "a")
                .ttl(Duration.ofSeconds(10))
                .safetyMargin(Duration.ofSeconds(1))
                .renewInterval(Duration.ofSeconds(4)));
        generators.add(a);
        steppingStore.acquire("other", 1, Duration.ofMinutes(30), Duration.ofSeconds(5)); // worker id 1: taken
        clock.advanceMillis(1);
        long before = a.nextId();
        storeClock.advanceMillis(600_000);
        SnowflakeGenerator[] b = new SnowflakeGenerator[1];
        Thread starting = new Thread(() -> b[0] = generatorWith(assignerOn(steppingStore, "b")));
        starting.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (starting.getState() != Thread.State.TIMED_WAITING && starting.isAlive()) {
            assertThat(System.nanoTime() - deadline).as("B waits within 30 s").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(starting.isAlive())
                .as("B was granted A's worker id, which the store thinks expired, but may not issue while A can")
                .isTrue();
        clock.advanceMillis(1);
        assertThat(a.decode(a.nextId()).workerId()).as("A still issues under 0").isEqualTo(0);
        assertThat(lease(a).renewNow())
                .as("the store refuses A: it sees the lease expired")
                .isFalse();
        assertThatThrownBy(a::nextId).isInstanceOf(LeaseLostException.class);
        clock.advanceMillis(14_000);
        assertThat(starting.isAlive())
                .as("A's 10 s ttl and the 5 s reuse delay have not yet passed")
                .isTrue();
        clock.advanceMillis(1_000);
        starting.join(30_000);
        assertThat(starting.isAlive()).isFalse();
        generators.add(b[0]);
        assertThat(b[0].workerId()).isEqualTo(0);
        clock.advanceMillis(1);
        assertThat(b[0].nextId()).isGreaterThan(before);
    }

    /**
     * B is granted A's worker id as taken over (the store's clock stepped), and B's wait is cut short: B must leave the
     * lease to lapse, not release it, or the store would grant it free to C while A may still issue.
     */
    @Test
    void aTakeOverWhoseWaitIsCutShortLeavesTheIdTakenOverForTheNextOwner() throws InterruptedException {
        ManualTimeSource storeClock = new ManualTimeSource(clock.currentTimeMillis());
        InMemoryWorkerIdLeaseStore steppingStore = new InMemoryWorkerIdLeaseStore(storeClock);
        SnowflakeGenerator a = generatorWith(assignerOn(steppingStore, "a"));
        generators.add(a);
        steppingStore.acquire("other", 1, Duration.ofMinutes(30), Duration.ofSeconds(5)); // worker id 1: taken
        storeClock.advanceMillis(600_000);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread starting = new Thread(() -> {
            try {
                generators.add(generatorWith(assignerOn(steppingStore, "b")));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        starting.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (starting.getState() != Thread.State.TIMED_WAITING && starting.isAlive()) {
            assertThat(System.nanoTime() - deadline).as("B waits within 30 s").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        starting.interrupt();
        starting.join(30_000);
        assertThat(outcome.get()).as("B gave up waiting").isInstanceOf(IdGenerationException.class);
        storeClock.advanceMillis(30_000 + 5_000);
        Acquisition c = steppingStore.acquire("c#1", 0, Duration.ofSeconds(30), Duration.ofSeconds(5));
        assertThat(c.workerId()).isZero();
        assertThat(c.isTakenOver())
                .as("C waits for A too: B's lease lapsed unreleased")
                .isTrue();
    }

    @Test
    void anIdReleasedByItsHolderIsUsedAtOnce() {
        SnowflakeGenerator first = generatorWith(assignerOn(store, "first"));
        first.close();
        clock.advanceMillis(5_000);
        assertThat(store.acquire("second", 0, Duration.ofSeconds(30), Duration.ofSeconds(5))
                        .isTakenOver())
                .isFalse();
    }

    @Test
    void aFencedInstanceNeverTakesItsLeaseBackEvenFromAStoreThatLostItsData() {
        // The chaos run: A frozen past its ttl, B leases A's worker id, then the store restarts empty.
        SnowflakeGenerator a = generator("a");
        RenewingWorkerIdLease aLease = lease(a);
        clock.advanceMillis(30_000 + 5_000);
        SnowflakeGenerator b = generator("b");
        assertThat(b.workerId()).isEqualTo(0);
        store.loseData();
        clock.advanceMillis(30_000 + 5_000);
        assertThat(aLease.renewNow())
                .as("the store would let an unknown id go by now; A must not take it")
                .isFalse();
        assertThat(aLease.isLost()).isTrue();
        RenewingWorkerIdLease aFresh = awaitNewLease(a, aLease);
        RenewingWorkerIdLease bLease = lease(b);
        assertThat(bLease.renewNow()).as("B expired by its own clock too").isFalse();
        RenewingWorkerIdLease bFresh = awaitNewLease(b, bLease);
        assertThat(aFresh.workerId()).isNotEqualTo(bFresh.workerId());
        clock.advanceMillis(1);
        assertThat(a.nextId()).isNotEqualTo(b.nextId());
    }

    @Test
    void aNewWorkerIdStartsAfterTheLastTimestampItsPreviousHolderRecorded() {
        SnowflakeGenerator generator = generator("a");
        long start = clock.currentTimeMillis();
        // A host whose clock ran a minute ahead held worker id 1 and released it.
        long ghostWorkerId = store.acquire("ghost", 1, Duration.ofSeconds(30), Duration.ofSeconds(5))
                .workerId();
        assertThat(ghostWorkerId).isEqualTo(1);
        store.release(1, "ghost", start + 60_000);
        clock.advanceMillis(27_000);
        RenewingWorkerIdLease lost = lease(generator);
        assertThat(lost.renewNow()).isFalse();
        RenewingWorkerIdLease fresh = awaitNewLease(generator, lost);
        assertThat(fresh.workerId()).isEqualTo(1);
        assertThatThrownBy(generator::nextId)
                .as("refuses rather than repeat the ghost's IDs")
                .isInstanceOf(ClockBackwardsException.class);
        clock.advanceMillis(20_000);
        assertThat(fresh.renewNow()).isTrue();
        clock.advanceMillis(13_001);
        assertThat(generator.decode(generator.nextId()).timestamp().toEpochMilli())
                .isGreaterThan(start + 60_000);
    }

    @Test
    void aRenewalInFlightReachesTheStoreBeforeTheRelease() throws Exception {
        CountDownLatch renewing = new CountDownLatch(1);
        CountDownLatch finishRenewal = new CountDownLatch(1);
        List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());
        WorkerIdLeaseStore slow = new ForwardingStore() {
            @Override
            public boolean renew(
                    long workerId,
                    String owner,
                    Duration ttl,
                    Duration reuseDelay,
                    long lastTimestamp,
                    boolean heldValidly) {
                renewing.countDown();
                try {
                    finishRenewal.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                calls.add("renew");
                return store.renew(workerId, owner, ttl, reuseDelay, lastTimestamp, heldValidly);
            }

            @Override
            public void release(long workerId, String owner, long lastTimestamp) {
                calls.add("release");
                store.release(workerId, owner, lastTimestamp);
            }
        };
        SnowflakeGenerator generator = generatorWith(assignerOn(slow, "a"));
        Thread renewal = new Thread(() -> lease(generator).renewNow());
        renewal.start();
        assertThat(renewing.await(30, TimeUnit.SECONDS)).isTrue();
        Thread closing = new Thread(generator::close);
        closing.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (closing.getState() != Thread.State.BLOCKED && closing.isAlive()) {
            assertThat(System.nanoTime() - deadline).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        finishRenewal.countDown();
        renewal.join(30_000);
        closing.join(30_000);
        assertThat(calls).containsExactly("renew", "release");
        clock.advanceMillis(5_000);
        assertThat(store.acquire("b", 0, Duration.ofSeconds(30), Duration.ofSeconds(5))
                        .workerId())
                .as("released after the renewal, so free after the reuse delay")
                .isEqualTo(0);
    }

    @Test
    void aRenewalThatAnswersOnlyAfterTheDeadlineDoesNotReviveTheLease() {
        WorkerIdLeaseStore slow = new ForwardingStore() {
            @Override
            public boolean renew(
                    long workerId,
                    String owner,
                    Duration ttl,
                    Duration reuseDelay,
                    long lastTimestamp,
                    boolean heldValidly) {
                boolean held = super.renew(workerId, owner, ttl, reuseDelay, lastTimestamp, heldValidly);
                clock.advanceMillis(5_000); // the answer takes long: it arrives past the lease's deadline
                return held;
            }
        };
        SnowflakeGenerator generator = generatorWith(assignerOn(slow, "a"));
        generators.add(generator);
        RenewingWorkerIdLease lease = lease(generator);
        clock.advanceMillis(26_000);
        assertThat(lease.renewNow())
                .as("sent in time, answered after the deadline")
                .isFalse();
        assertThat(lease.isLost()).isTrue();
        assertThatThrownBy(lease::checkValid)
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("lost for good");
        assertThat(awaitNewLease(generator, lease).workerId()).isEqualTo(1);
    }

    @Test
    void recordingTimestampsFromManyThreadsKeepsTheNewest() throws Exception {
        RenewingWorkerIdLease lease = lease(generator("a"));
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                // Each thread's values rise; the highest of all is thread 0's last.
                for (long v = 0; v < 200_000; v++) {
                    lease.recordTimestamp(1_800_000_000_000L + v * threads + (threads - 1 - offset));
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join(60_000);
        }
        long newest = 1_800_000_000_000L + 199_999L * threads + (threads - 1);
        lease.close();
        clock.advanceMillis(5_000);
        assertThat(store.acquire("b", 0, Duration.ofSeconds(30), Duration.ofSeconds(5))
                        .lastUsedTimestamp())
                .isEqualTo(newest);
    }

    @Test
    void whenEveryWorkerIdIsTakenStartupFailsSayingSo() {
        generator("a");
        generator("b");
        assertThatThrownBy(() -> generator("c"))
                .isInstanceOf(WorkerIdsExhaustedException.class)
                .hasMessageMatching("No worker id from 0 to 1 is free for 'c#[0-9a-f]{12}'.*")
                .hasMessageContaining("more worker bits");
    }

    @Test
    void theNextHolderStartsAfterTheLastTimestampItsPredecessorUsed() {
        SnowflakeGenerator first = generator("first");
        clock.advanceMillis(5);
        long lastId = first.nextId();
        first.close();
        generators.remove(first);
        clock.set(clock.currentTimeMillis() - 2_000);
        clock.advanceMillis(5_000 + 2_000 + 1);
        SnowflakeGenerator second = generator("second");
        assertThat(second.workerId()).isEqualTo(0);
        assertThat(second.lease().lastUsedTimestamp().orElseThrow())
                .isGreaterThanOrEqualTo(first.decode(lastId).timestamp().toEpochMilli());
        clock.advanceMillis(1);
        assertThat(second.nextId()).isGreaterThan(lastId);
    }

    @Test
    void aStoreThatLostItsDataLetsHoldersBackButNewcomersWait() {
        SnowflakeGenerator holder = generator("holder");
        store.loseData();
        assertThat(lease(holder).renewNow()).isTrue();
        assertThatThrownBy(() -> generator("newcomer"))
                .isInstanceOf(WorkerIdsExhaustedException.class)
                .hasMessageContaining("lost its data");
        clock.advanceMillis(20_000);
        assertThat(lease(holder).renewNow()).isTrue();
        clock.advanceMillis(15_000);
        assertThat(lease(holder).renewNow()).isTrue();
        assertThat(generator("newcomer").workerId()).isNotEqualTo(holder.workerId());
    }

    @Test
    void badSettingsNameTheArgument() {
        assertThatThrownBy(() -> LeasingWorkerIdAssigner.builder(store)
                        .ttl(Duration.ofMillis(10))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("ttl must be between 1s and 1d");
        assertThatThrownBy(() -> LeasingWorkerIdAssigner.builder(store)
                        .ttl(Duration.ofSeconds(30))
                        .renewInterval(Duration.ofSeconds(20))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("renewInterval must be");
        assertThatThrownBy(() -> LeasingWorkerIdAssigner.builder(store)
                        .reuseDelay(Duration.ofMillis(10))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("reuseDelay");
    }

    @Test
    void theOwnerIsTheInstanceIdPlusANonceOfItsOwnSoSharedInstanceIdsNeverShareAWorkerId() {
        LeasingWorkerIdAssigner first = assigner("svc");
        LeasingWorkerIdAssigner second = assigner("svc");
        assertThat(first.instanceId()).isEqualTo("svc");
        try (RenewingWorkerIdLease one = (RenewingWorkerIdLease) first.acquire(1);
                RenewingWorkerIdLease two = (RenewingWorkerIdLease) second.acquire(1)) {
            assertThat(one.owner()).matches("svc#[0-9a-f]{12}");
            assertThat(two.owner()).isNotEqualTo(one.owner());
            assertThat(two.workerId()).isNotEqualTo(one.workerId());
        }
    }

    /**
     * One assigner shared by two generators (the SPI allows it) holds two leases: each acquisition is an owner of its
     * own, so the store never gives the first one's live lease back to the second.
     */
    @Test
    void twoAcquisitionsOfOneAssignerNeverShareAWorkerId() {
        LeasingWorkerIdAssigner shared = assigner("svc");
        try (RenewingWorkerIdLease one = (RenewingWorkerIdLease) shared.acquire(1);
                RenewingWorkerIdLease two = (RenewingWorkerIdLease) shared.acquire(1)) {
            assertThat(two.owner()).isNotEqualTo(one.owner());
            assertThat(two.workerId()).isNotEqualTo(one.workerId());
        }
    }

    @Test
    void anAcquisitionWhoseAnswerWasLostIsRetriedAndGetsTheSameWorkerIdUsableAtOnce() {
        List<Acquisition> granted = new ArrayList<>();
        WorkerIdLeaseStore losesTheFirstAnswer = new ForwardingStore() {
            @Override
            public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
                Acquisition acquisition = super.acquire(owner, maxWorkerId, ttl, reuseDelay);
                granted.add(acquisition);
                if (granted.size() == 1) {
                    throw new StoreUnavailableException("the connection dropped before the answer arrived");
                }
                return acquisition;
            }
        };
        LeasingWorkerIdAssigner assigner = assignerOn(losesTheFirstAnswer, "svc")
                .acquireTimeout(Duration.ofSeconds(10))
                .build();
        try (RenewingWorkerIdLease lease = (RenewingWorkerIdLease) assigner.acquire(1)) {
            assertThat(granted).hasSize(2);
            assertThat(lease.workerId()).isEqualTo(granted.get(0).workerId());
            assertThat(granted.get(1).isTakenOver()).isFalse();
            assertThat(lease.isValid()).as("usable at once").isTrue();
            assertThat(store.acquire("newcomer#1", 1, Duration.ofSeconds(30), Duration.ofSeconds(5))
                            .isGranted())
                    .as("the other worker id is still free")
                    .isTrue();
        }
    }

    @Test
    void anInstanceIdLeavesRoomForTheNonceInTheStoresOwnerColumns() {
        String longest = "i".repeat(LeasingWorkerIdAssigner.MAX_INSTANCE_ID_LENGTH);
        try (RenewingWorkerIdLease lease =
                (RenewingWorkerIdLease) assigner(longest).acquire(1)) {
            assertThat(lease.owner()).hasSize(128);
        }
        assertThatThrownBy(() -> assigner(longest + "i"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("instanceId must be 1 to 115 characters");
        assertThat(LeasingWorkerIdAssigner.defaultInstanceId().length())
                .isLessThanOrEqualTo(LeasingWorkerIdAssigner.MAX_INSTANCE_ID_LENGTH);
    }

    @Test
    void theDefaultInstanceIdIsUniquePerProcessStart() {
        assertThat(LeasingWorkerIdAssigner.defaultInstanceId())
                .isNotEqualTo(LeasingWorkerIdAssigner.defaultInstanceId())
                .contains("/" + ProcessHandle.current().pid() + "/");
    }
}
