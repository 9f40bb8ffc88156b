package dev.idgen.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lease store whose own clock steps never lets two instances issue under one worker id at overlapping times: the
 * test of every lease store that judges leases by its server's wall clock (ZooKeeper's {@code mtime}, a database's
 * {@code NOW()}), run against a server of the test's own whose clock the test steps.
 *
 * <p>Three instances in this JVM, each with a store client of its own, take turns at worker id 0 (id 1 is held for the
 * whole test by a long lease, so that the layout's two ids leave exactly one to fight over). Each issues IDs in a loop
 * and records, per worker id, when it issued its first and its last (by this JVM's monotonic clock, one clock for all):
 * <ol>
 * <li>A holds id 0; the store's clock steps 10 minutes back: a second instance is refused for a ttl and the reuse delay
 * while A renews
 * and issues on;</li>
 * <li>the store's clock steps to 10 minutes ahead (20 minutes forward) while A's renewals are held up: A's lease
 * looks long expired to the store, so B is granted id 0 while A still issues, and must not issue before A has
 * stopped;</li>
 * <li>B loses its store for good (its calls fail, as when its host is cut off), so it stops by its own clock without a
 * release; C takes id 0 over within the documented time, and not before B stopped.</li>
 * </ol>
 * It asserts that no two instances' issuing under one worker id overlap in time, which a repeated ID needs but does
 * not show (two requests must also land in one millisecond), and that every ID is distinct.
 */
public abstract class LeaseStoreClockStepContract {

    protected static final Duration REUSE_DELAY = Duration.ofSeconds(1);

    protected static final Duration STEP = Duration.ofMinutes(10);

    private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.standard().toBuilder()
            .workerBits(1)
            .sequenceBits(12)
            .timestampBits(41)
            .build();

    /** Room for a busy machine: scheduling, a store round trip, a poll. */
    private static final Duration SLACK = Duration.ofSeconds(5);

    private final List<AutoCloseable> toClose = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<Issuer>> contenders = new CopyOnWriteArrayList<>();

    /**
     * @return the instances' lease ttl: short for the test's time (the take-over bound scales with it), longer than any
     *         stall the store's own faults cause (an election)
     */
    protected Duration ttl() {
        return Duration.ofSeconds(4);
    }

    /**
     * A quarter of the ttl: long enough that a new holder that did not wait for the old one would issue beside it for
     * a while (the old one stops only when its next renewal is refused), so that the test sees the overlap.
     */
    private Duration renewInterval() {
        return ttl().dividedBy(4);
    }

    /**
     * @return a new client of the store under test, as a separate instance would have; the subclass closes it after
     *         all tests ({@code @AfterAll}: the instances release their leases after each test)
     */
    protected abstract WorkerIdLeaseStore newStoreClient() throws Exception;

    /**
     * Sets the store's clock to real time plus {@code offset}: steps the server's clock, or makes a server on such a
     * clock the one that judges leases (ZooKeeper's leader).
     */
    protected abstract void setStoreClock(Duration offset) throws Exception;

    /** @return the store's own wall clock now, in epoch milliseconds, as it stamps leases */
    protected abstract long storeTimeMillis() throws Exception;

    @AfterEach
    void closeInstances() throws Exception {
        // A contender still asking when a test failed stops asking.
        contenders.forEach(contender -> contender.cancel(false));
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void noStepOfTheStoresClockLetsTwoInstancesIssueUnderOneWorkerIdAtOnce() throws Exception {
        WorkerIdLeaseStore blockerStore = newStoreClient();
        Issuer a = new Issuer("a", newStoreClient());
        a.startIssuing();
        assertThat(a.generator.lease().workerId())
                .as("A leases the lowest worker id")
                .isZero();
        String blocker = "blocker-" + System.nanoTime();
        assertThat(blockerStore
                        .acquire(blocker, 1, Duration.ofHours(1), REUSE_DELAY)
                        .workerId())
                .as("worker id 1 is held for the whole test")
                .isEqualTo(1);
        a.awaitIssued(100);

        // 1. Back by 10 minutes: leases look longer to the store; nobody else gets A's id. B keeps asking from now
        // on, every 50 ms, so that it asks before A's next renewal once the clock steps ahead.
        stepStoreClock(STEP.negated());
        long renewalsBefore = a.lease().renewals();
        CompletableFuture<Issuer> contender = contend("b", newStoreClient());
        LockSupport.parkNanos(ttl().plus(REUSE_DELAY).toNanos());
        awaitCondition(
                renewInterval().multipliedBy(2).plus(SLACK),
                "A to renew on the clock 10 minutes behind",
                () -> a.lease().renewals() >= renewalsBefore + 2);
        assertThat(contender)
                .as("B is refused A's worker id while the store's clock is 10 minutes behind")
                .isNotDone();
        assertThat(a.failure()).as("A issues on").isNull();

        // 2. Ahead by 10 minutes: A's lease looks long expired to the store while A still issues under it. A's
        // renewals are held up meanwhile (a slow network, a pause of its heartbeat thread), so that B is granted the id
        // while A may still issue for most of a ttl by its own clock, whichever of them would otherwise ask first.
        a.renewalsHeld.set(true);
        stepStoreClock(STEP);
        Issuer b = contender.get(ttl().plus(REUSE_DELAY).plus(SLACK).toSeconds(), TimeUnit.SECONDS);
        assertThat(b.generator.lease().workerId())
                .as("B is granted A's worker id")
                .isZero();
        b.startIssuing();
        b.awaitIssued(100);
        a.renewalsHeld.set(false);
        awaitCondition(ttl().plus(SLACK), "A to stop, its renewal refused", () -> a.failure() != null);

        // 3. B's store goes away for good: B stops by its own clock without a release; C takes the id over.
        b.cutOff.set(true);
        awaitCondition(ttl().plus(SLACK), "B to stop without its store", () -> b.failure() != null);
        Issuer c = contend("c", newStoreClient())
                .get(ttl().plus(REUSE_DELAY).multipliedBy(2).plus(SLACK).toSeconds(), TimeUnit.SECONDS);
        Issuer taker = c;
        assertThat(taker.generator.lease().workerId())
                .as("C takes B's worker id over")
                .isZero();
        taker.startIssuing();
        taker.awaitIssued(100);
        assertThat(Duration.ofNanos(taker.firstIssuedNanos[0] - b.lastIssuedNanos[0]))
                .as("C issues under worker id 0 within 2 × (ttl + reuse delay) after B's last ID")
                .isLessThan(ttl().plus(REUSE_DELAY).multipliedBy(2).plus(SLACK));
        taker.stop();
        a.stop();
        b.stop();

        Issuer[] issuers = {a, b, taker};
        for (Issuer issuer : issuers) {
            assertThat(issuer.lastIssuedNanos[1])
                    .as("%s never issued under the blocker's worker id 1", issuer.name)
                    .isZero();
        }
        assertThat(a.lastIssuedNanos[0])
                .as("A's last ID under worker id 0 came before B's first: their issuing never overlapped")
                .isLessThan(b.firstIssuedNanos[0]);
        assertThat(b.lastIssuedNanos[0])
                .as("B's last ID under worker id 0 came before C's first")
                .isLessThan(taker.firstIssuedNanos[0]);
        long[] all = Arrays.stream(issuers)
                .flatMapToLong(issuer -> Arrays.stream(issuer.ids()))
                .sorted()
                .toArray();
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                fail("ID " + all[i] + " was issued twice (" + a.generator.decode(all[i]) + ")");
            }
        }
    }

    /**
     * Builds an instance on {@code store} in a thread of its own, asking again every 50 ms while every worker id is
     * held, for at most a minute.
     */
    private CompletableFuture<Issuer> contend(String name, WorkerIdLeaseStore store) {
        CompletableFuture<Issuer> built = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                    while (!built.isDone()) {
                        try {
                            built.complete(new Issuer(name, store));
                        } catch (WorkerIdsExhaustedException notYet) {
                            if (System.nanoTime() - until > 0) {
                                built.completeExceptionally(notYet);
                            }
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                        } catch (RuntimeException | Error e) {
                            built.completeExceptionally(e);
                        }
                    }
                },
                "contender-" + name);
        thread.setDaemon(true);
        thread.start();
        contenders.add(built);
        return built;
    }

    private void stepStoreClock(Duration offset) throws Exception {
        setStoreClock(offset);
        awaitCondition(Duration.ofSeconds(30), "the store's clock to read real time " + offset, () -> {
            long skew = storeTimeMillis() - System.currentTimeMillis();
            return Math.abs(skew - offset.toMillis()) < 5_000;
        });
    }

    private SnowflakeGenerator generator(String name, WorkerIdLeaseStore store, Duration acquireTimeout) {
        SnowflakeGenerator generator = SnowflakeGenerator.builder()
                .layout(TWO_WORKERS)
                .workerIdAssigner(LeasingWorkerIdAssigner.builder(store)
                        .instanceId(name + "-" + System.nanoTime())
                        .ttl(ttl())
                        .renewInterval(renewInterval())
                        .safetyMargin(Duration.ofMillis(500))
                        .reuseDelay(REUSE_DELAY)
                        .acquireTimeout(acquireTimeout)
                        .build())
                .build();
        toClose.add(generator);
        return generator;
    }

    /** A condition that may fail while a store is busy (an election): an exception counts as "not yet". */
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void awaitCondition(Duration deadline, String what, Condition condition) {
        long until = System.nanoTime() + deadline.toNanos();
        Exception last = null;
        for (; ; ) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - until > 0) {
                throw new AssertionError("Waited " + deadline.toSeconds() + " s for " + what, last);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** An instance: its own store client, which the test can cut off, a generator, and a thread issuing IDs. */
    private final class Issuer {

        final String name;
        final AtomicBoolean cutOff = new AtomicBoolean();
        final AtomicBoolean renewalsHeld = new AtomicBoolean();
        final SnowflakeGenerator generator;
        final long[] firstIssuedNanos = new long[2];
        final long[] lastIssuedNanos = new long[2];
        private final List<long[]> chunks = new ArrayList<>();
        private long[] chunk = new long[1 << 16];
        private int inChunk;
        private volatile long issued;
        private volatile RuntimeException failure;
        private volatile boolean stopping;
        private Thread thread;

        Issuer(String name, WorkerIdLeaseStore store) {
            this.name = name;
            this.generator = generator(
                    name,
                    new SeverableStore(store, cutOff, renewalsHeld, new AtomicBoolean()),
                    ttl().plus(REUSE_DELAY));
        }

        RenewingWorkerIdLease lease() {
            return (RenewingWorkerIdLease) generator.lease();
        }

        void startIssuing() {
            thread = new Thread(this::issue, "issuer-" + name);
            thread.setDaemon(true);
            thread.start();
        }

        /** Issues until the generator refuses (its lease lost or run out) or the test stops it; never concurrently. */
        private void issue() {
            while (!stopping) {
                long id;
                try {
                    id = generator.nextId();
                } catch (ClockBackwardsException e) {
                    // A new holder waits for the clock to pass the timestamps its predecessor recorded; so do callers.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    continue;
                } catch (RuntimeException e) {
                    failure = e;
                    return;
                }
                // Read after the ID was issued: the ID existed no later than this.
                long now = System.nanoTime();
                int workerId = (int) generator.decode(id).workerId();
                if (firstIssuedNanos[workerId] == 0) {
                    firstIssuedNanos[workerId] = now;
                }
                lastIssuedNanos[workerId] = now;
                if (inChunk == chunk.length) {
                    chunks.add(chunk);
                    chunk = new long[chunk.length];
                    inChunk = 0;
                }
                chunk[inChunk++] = id;
                issued++;
                LockSupport.parkNanos(20_000);
            }
        }

        long issued() {
            return issued;
        }

        /** Waits until this instance issued more than {@code count} IDs; fails at once, with why, if it stopped. */
        void awaitIssued(long count) {
            awaitCondition(Duration.ofSeconds(30), name + " to issue", () -> {
                if (failure != null && issued <= count) {
                    throw new AssertionError(name + " stopped after " + issued + " IDs", failure);
                }
                return issued > count;
            });
        }

        RuntimeException failure() {
            return failure;
        }

        void stop() throws InterruptedException {
            stopping = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(thread.isAlive()).as("%s's issuing thread ends", name).isFalse();
        }

        /** @return every ID issued; only after {@link #stop()} */
        long[] ids() {
            long[] all = new long[chunks.size() * chunk.length + inChunk];
            int at = 0;
            for (long[] full : chunks) {
                System.arraycopy(full, 0, all, at, full.length);
                at += full.length;
            }
            System.arraycopy(chunk, 0, all, at, inChunk);
            return all;
        }
    }

    /**
     * A store client that fails every call once cut off, as for an instance whose host lost the network, that holds
     * renewals up while told to (at most a minute), and that
     * grants an instance one worker id only: an instance whose lease was lost would otherwise race the next
     * contender for the one id the test watches.
     */
    private record SeverableStore(
            WorkerIdLeaseStore store, AtomicBoolean cutOff, AtomicBoolean renewalsHeld, AtomicBoolean granted)
            implements WorkerIdLeaseStore {

        private void check() {
            if (cutOff.get()) {
                throw new StoreUnavailableException("cut off by the test");
            }
        }

        @Override
        public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
            check();
            if (granted.get()) {
                throw new StoreUnavailableException("this instance had its one worker id");
            }
            Acquisition acquisition = store.acquire(owner, maxWorkerId, ttl, reuseDelay);
            if (acquisition.isGranted()) {
                granted.set(true);
            }
            return acquisition;
        }

        @Override
        public boolean renew(
                long workerId,
                String owner,
                Duration ttl,
                Duration reuseDelay,
                long lastTimestamp,
                boolean heldValidly) {
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (renewalsHeld.get() && System.nanoTime() - until < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            check();
            return store.renew(workerId, owner, ttl, reuseDelay, lastTimestamp, heldValidly);
        }

        @Override
        public void release(long workerId, String owner, long lastTimestamp) {
            check();
            store.release(workerId, owner, lastTimestamp);
        }
    }
}
