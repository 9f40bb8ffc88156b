package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.services.OwnReplicaSet;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A failover of the database itself to a replica that lagged behind, on a primary and an asynchronous replica of the
 * test's own, as an operator runs a small HA pair: the replica stops receiving while instances draw IDs under load
 * (it lags), the primary is killed with {@code kill -9}, and the replica is promoted. The first instance goes on
 * against the promoted replica through the driver's failover URL, and a second one starts fresh on it. Every ID either
 * instance ever handed out must be distinct, and both must serve again within 10 s of the promotion, at default
 * settings.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
// Each method starts servers of its own and mostly waits on them: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
abstract class LaggingPromotionContract {

    /** The bound: both instances serve again within this long after the promotion. */
    private static final Duration SERVING_AGAIN = Duration.ofSeconds(10);

    private static final Duration DEADLINE = Duration.ofSeconds(120);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** Starts the replicated database the test runs on. */
    protected abstract OwnReplicaSet start() throws Exception;

    protected abstract String user();

    /** @return the password of {@link #user()} */
    protected String password() {
        return "";
    }

    /**
     * @return whether the replication acknowledges every commit from the replica before the primary's client sees it
     *         (semi-synchronous {@code AFTER_SYNC}, synchronous standbys): the replica is then not cut off, and must
     *         hold everything the primary handed out when the primary dies
     */
    protected boolean lossless() {
        return false;
    }

    /**
     * @return with {@link #lossless()}, whether the primary, still alive, acknowledged every commit from the replica so
     *         far (semi-synchronous replication falls back to asynchronous after its timeout on a busy machine)
     */
    protected boolean acknowledgedEverything() throws Exception {
        return true;
    }

    private OwnReplicaSet replicas;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void startReplicas() throws Exception {
        replicas = start();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception ignored) {
                // the database may be gone
            }
        }
        replicas.close();
    }

    /** One application instance: its own pool on the failover URL, its segment and ticket generators. */
    private final class Instance implements AutoCloseable {
        final HikariDataSource pool;
        final JdbcSegmentStore segmentStore;
        final SegmentIdService segments;
        final TicketServer ticketServer;
        final TicketIdService tickets;

        Instance(String name) {
            HikariConfig config = new HikariConfig();
            config.setPoolName(name);
            config.setJdbcUrl(replicas.failoverUrl());
            config.setUsername(user());
            config.setPassword(password());
            config.setMaximumPoolSize(4);
            config.setConnectionTimeout(TIMEOUT.toMillis());
            config.setValidationTimeout(1000);
            config.setInitializationFailTimeout(-1);
            pool = new HikariDataSource(config);
            // Default settings throughout, as the issue demands: the default jump, the default segment settings.
            segmentStore = new JdbcSegmentStore(pool, "idgen_segment", 0, SchemaInitialization.ALWAYS, TIMEOUT);
            segments = SegmentIdService.builder(segmentStore).build();
            ticketServer = new TicketServer(
                    name,
                    pool,
                    "idgen_ticket",
                    0,
                    1,
                    SchemaInitialization.ALWAYS,
                    TIMEOUT,
                    Duration.ofMillis(500),
                    dev.idgen.core.TimeSource.system());
            tickets = new TicketIdService(List.of(ticketServer), false);
            closing.add(this);
        }

        @Override
        public void close() {
            segments.close();
            tickets.close();
            pool.close();
        }
    }

    /**
     * The IDs one thread drew, as runs of consecutive IDs (a segment thread draws whole blocks in order), so that tens
     * of millions of IDs take little memory.
     */
    private static final class Runs {
        private long[] starts = new long[1024];
        private long[] ends = new long[1024];
        private int size;
        private long count;

        synchronized void add(long[] ids) {
            for (long id : ids) {
                count++;
                if (size > 0 && ends[size - 1] + 1 == id) {
                    ends[size - 1] = id;
                    continue;
                }
                if (size == starts.length) {
                    starts = java.util.Arrays.copyOf(starts, size * 2);
                    ends = java.util.Arrays.copyOf(ends, size * 2);
                }
                starts[size] = id;
                ends[size] = id;
                size++;
            }
        }

        synchronized long count() {
            return count;
        }

        synchronized void into(List<long[]> all) {
            for (int i = 0; i < size; i++) {
                all.add(new long[] {starts[i], ends[i]});
            }
        }
    }

    /** Draws IDs of one name from one service on a thread of its own, remembering each and when the last came. */
    private static final class Load implements AutoCloseable {
        final Runs drawn = new Runs();
        final AtomicLong lastSuccessNanos = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final Thread thread;
        volatile boolean stopped;

        Load(String what, Supplier<long[]> draw) {
            thread = new Thread(
                    () -> {
                        while (!stopped) {
                            try {
                                drawn.add(draw.get());
                                lastSuccessNanos.set(System.nanoTime());
                            } catch (RuntimeException e) {
                                failures.incrementAndGet();
                                try {
                                    Thread.sleep(5);
                                } catch (InterruptedException interrupted) {
                                    return;
                                }
                            }
                        }
                    },
                    "load-" + what);
            thread.start();
        }

        /** Waits until a draw succeeds after {@code since} (nanoTime), and returns when, or -1 past the deadline. */
        long servedAfter(long since) throws InterruptedException {
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (System.nanoTime() < deadline) {
                long last = lastSuccessNanos.get();
                if (last - since > 0) {
                    return last;
                }
                Thread.sleep(5);
            }
            return -1;
        }

        @Override
        public void close() throws InterruptedException {
            stopped = true;
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
    }

    private static Load load(String what, IdService service, String name, int batch) {
        return new Load(
                what, batch == 1 ? () -> new long[] {service.nextId(name)} : () -> service.nextIds(name, batch));
    }

    private void awaitDrawn(List<Load> loads, long atLeastEach) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        for (Load load : loads) {
            while (count(load) < atLeastEach) {
                assertThat(System.nanoTime())
                        .as("each load drew " + atLeastEach + " IDs within " + DEADLINE)
                        .isLessThan(deadline);
                Thread.sleep(10);
            }
        }
    }

    private static long count(Load load) {
        return load.drawn.count();
    }

    private static long value(Connection connection, String sql) throws SQLException {
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            return result.next() ? result.getLong(1) : -1;
        }
    }

    @Test
    void segmentsAndTicketsRepeatNothingAndServeAgainSoonAfterALaggingReplicaIsPromoted() throws Exception {
        Instance first = new Instance("first");
        List<Load> segmentLoads = new ArrayList<>();
        List<Load> ticketLoads = new ArrayList<>();
        // Two names of segments, one drawn one by one and one in batches (which moves blocks fast), and tickets.
        segmentLoads.add(load("first-orders", first.segments, "orders", 1));
        segmentLoads.add(load("first-payments", first.segments, "payments", 100));
        ticketLoads.add(load("first-tickets", first.tickets, "invoice", 1));
        List<Load> all = new ArrayList<>(segmentLoads);
        all.addAll(ticketLoads);
        try {
            awaitDrawn(all, 1_000);
            DatabaseReplication replication;
            try (Connection primary = replicas.connectPrimary()) {
                replication = DatabaseReplication.of(primary);
            }
            assertThat(replication.lossless())
                    .as("the replication report: " + replication)
                    .isEqualTo(lossless());
            replicas.awaitReplicaCaughtUp(DEADLINE);
            if (!lossless()) {
                replicas.cutOffReplica();
            }
            // The primary goes on (without the replica, unless lossless: everything from here on is lost with it).
            // Both segment names take fresh blocks from it, and a couple of thousand tickets.
            awaitGrowth("SELECT max_id FROM idgen_segment WHERE name = 'orders'");
            awaitGrowth("SELECT max_id FROM idgen_segment WHERE name = 'payments'");
            awaitDrawn(ticketLoads, count(ticketLoads.get(0)) + 2_000);
            long segmentsOnPrimary =
                    value(replicas.connectPrimary(), "SELECT max_id FROM idgen_segment WHERE name = 'payments'");
            long ticketsOnPrimary =
                    value(replicas.connectPrimary(), "SELECT id FROM idgen_ticket WHERE name = 'invoice'");
            // Read after the values above: every commit they saw was acknowledged unless the primary fell back.
            boolean acknowledged = lossless() && acknowledgedEverything();
            replicas.killPrimary();
            replicas.awaitReceivedWritesApplied(DEADLINE);
            long segmentsOnReplica =
                    value(replicas.connectReplica(), "SELECT max_id FROM idgen_segment WHERE name = 'payments'");
            long ticketsOnReplica =
                    value(replicas.connectReplica(), "SELECT id FROM idgen_ticket WHERE name = 'invoice'");
            if (acknowledged) {
                // Read after the kill, once the replica applied what it received: whatever the primary acknowledged,
                // the replica holds.
                assertThat(segmentsOnReplica)
                        .as("the replica holds every segment the primary handed out")
                        .isGreaterThanOrEqualTo(segmentsOnPrimary);
                assertThat(ticketsOnReplica)
                        .as("the replica holds every ticket")
                        .isGreaterThanOrEqualTo(ticketsOnPrimary);
            } else if (!lossless()) {
                assertThat(segmentsOnReplica)
                        .as("the replica lags behind the primary's segments (else nothing was" + " lost)")
                        .isLessThan(segmentsOnPrimary);
                assertThat(ticketsOnReplica)
                        .as("the replica lags behind the primary's tickets")
                        .isLessThan(ticketsOnPrimary);
            }
            replicas.promoteReplica();
            long promoted = System.nanoTime();

            Instance second = new Instance("second");
            segmentLoads.add(load("second-orders", second.segments, "orders", 1));
            segmentLoads.add(load("second-payments", second.segments, "payments", 100));
            ticketLoads.add(load("second-tickets", second.tickets, "invoice", 1));
            all = new ArrayList<>(segmentLoads);
            all.addAll(ticketLoads);

            for (Load each : all) {
                long servedAt = each.servedAfter(promoted);
                assertThat(servedAt)
                        .as(each.thread.getName() + " serves again after the promotion")
                        .isNotEqualTo(-1);
                assertThat(Duration.ofNanos(servedAt - promoted))
                        .as(each.thread.getName() + " serves again within " + SERVING_AGAIN + " of the promotion")
                        .isLessThanOrEqualTo(SERVING_AGAIN);
            }
            // Both instances must take fresh blocks from the promoted replica, not only serve what they held.
            for (Instance each : List.of(first, second)) {
                for (String name : List.of("orders", "payments")) {
                    long loadedAtPromotion = loads(each, name);
                    awaitCondition(
                            each.ticketServer.id() + " loads blocks of '" + name + "' from the promoted replica",
                            () -> loads(each, name) >= loadedAtPromotion + 2);
                }
            }
            awaitDrawn(List.of(ticketLoads.get(0), ticketLoads.get(1)), count(ticketLoads.get(0)) + 1_000);
            assertThat(first.segmentStore.failovers().count()
                            + second.segmentStore.failovers().count())
                    .as("each segment row jumped past the promotion once")
                    .isEqualTo(2);
            assertThat(first.ticketServer.failovers().count()
                            + second.ticketServer.failovers().count())
                    .as("the ticket row jumped past the promotion once")
                    .isEqualTo(1);
        } finally {
            for (Load each : all) {
                each.close();
            }
        }
        // Each name counts on its own: uniqueness holds per name.
        assertDistinct("'orders' segment", List.of(segmentLoads.get(0), segmentLoads.get(2)));
        assertDistinct("'payments' segment", List.of(segmentLoads.get(1), segmentLoads.get(3)));
        assertDistinct("ticket", ticketLoads);
    }

    /** Successful loads of a name's blocks in an instance. */
    private static long loads(Instance instance, String name) {
        return instance.segments
                .stats(name)
                .map(stats -> stats.fetches() - stats.fetchFailures())
                .orElse(0L);
    }

    private void awaitGrowth(String query) throws Exception {
        long before = value(replicas.connectPrimary(), query);
        awaitCondition("the primary's row moves on (" + query + ")", () -> {
            try {
                return value(replicas.connectPrimary(), query) > before;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void awaitCondition(String what, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within " + DEADLINE).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** Every ID drawn by any load lies in one run only, and no run holds an ID twice. */
    private static void assertDistinct(String what, List<Load> loads) {
        List<long[]> runs = new ArrayList<>();
        long total = 0;
        for (Load load : loads) {
            load.drawn.into(runs);
            total += load.drawn.count();
        }
        long inRuns = 0;
        for (long[] run : runs) {
            inRuns += run[1] - run[0] + 1;
        }
        assertThat(total).as(what + " IDs drawn").isGreaterThan(0);
        assertThat(inRuns).as(what + " IDs repeated within one thread's draws").isEqualTo(total);
        runs.sort(java.util.Comparator.comparingLong(run -> run[0]));
        long repeated = 0;
        List<String> examples = new ArrayList<>();
        long highest = Long.MIN_VALUE;
        for (long[] run : runs) {
            if (run[0] <= highest) {
                long overlap = Math.min(highest, run[1]) - run[0] + 1;
                repeated += overlap;
                if (examples.size() < 5) {
                    examples.add("[" + run[0] + ", " + Math.min(highest, run[1]) + "]");
                }
            }
            highest = Math.max(highest, run[1]);
        }
        assertThat(repeated)
                .as(what + " IDs issued twice among " + total + ", e.g. " + examples)
                .isZero();
    }

    @Test
    void aLeaseTheReplicaNeverReceivedIsNotHandedToASecondInstance() throws Exception {
        // Long enough that a and b still hold their leases (by their own clocks) after the failover.
        Duration ttl = Duration.ofSeconds(30);
        Duration reuseDelay = Duration.ofSeconds(1);
        HikariDataSource pool = new Instance("leases").pool;
        JdbcWorkerIdLeaseStore firstStore =
                new JdbcWorkerIdLeaseStore(pool, "idgen_worker", SchemaInitialization.ALWAYS, TIMEOUT);
        Acquisition a = firstStore.acquire("a", 7, ttl, reuseDelay);
        assertThat(a.workerId()).isZero();
        replicas.awaitReplicaCaughtUp(DEADLINE);
        replicas.cutOffReplica();
        // b takes worker id 1 on the primary only.
        Acquisition b = firstStore.acquire("b", 7, ttl, reuseDelay);
        assertThat(b.workerId()).isEqualTo(1);
        assertThat(value(replicas.connectPrimary(), "SELECT COUNT(*) FROM idgen_worker WHERE worker_id >= 0"))
                .isEqualTo(2);
        replicas.killPrimary();
        assertThat(value(replicas.connectReplica(), "SELECT COUNT(*) FROM idgen_worker WHERE worker_id >= 0"))
                .as("the replica never received b's lease")
                .isEqualTo(1);
        replicas.promoteReplica();

        HikariDataSource freshPool = new Instance("fresh").pool;
        JdbcWorkerIdLeaseStore fresh =
                new JdbcWorkerIdLeaseStore(freshPool, "idgen_worker", SchemaInitialization.ALWAYS, TIMEOUT);
        // c is of another service, with a shorter ttl, and notices the promotion first: the fence still lasts the
        // ttl of a and b, which the replica's row of a records.
        Duration shorterTtl = Duration.ofSeconds(10);
        long noticed = System.nanoTime();
        // While a and b hold their leases (by their own clocks), a fresh instance gets neither worker id.
        Acquisition c = awaitAnswer(() -> fresh.acquire("c", 7, shorterTtl, reuseDelay));
        assertThat(c.workerId())
                .as("no worker id for c while the leases the lost primary knew may be held")
                .isEqualTo(-1);
        assertThat(c.retryAfterMillis()).as("c is told when to try again").isPositive();
        assertThat(fresh.failovers().count()).as("the fence is counted").isEqualTo(1);
        // b, still valid by its own clock, renews on the promoted replica and keeps its worker id.
        assertThat(awaitAnswer(() -> firstStore.renew(1, "b", ttl, reuseDelay, 0, true)))
                .isTrue();
        assertThat(awaitAnswer(() -> firstStore.renew(0, "a", ttl, reuseDelay, 0, true)))
                .isTrue();
        // Once the fence has passed, c gets a worker id nobody holds.
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        Acquisition later;
        do {
            Thread.sleep(100); // polling, within the deadline
            // a and b renew as running instances do: while c waits out the fence, neither loses its worker id.
            assertThat(firstStore.renew(1, "b", ttl, reuseDelay, 0, true))
                    .as("b renews while c waits")
                    .isTrue();
            assertThat(firstStore.renew(0, "a", ttl, reuseDelay, 0, true))
                    .as("a renews while c waits")
                    .isTrue();
            later = fresh.acquire("c", 7, shorterTtl, reuseDelay);
        } while (!later.isGranted() && System.nanoTime() < deadline);
        assertThat(later.workerId())
                .as("c gets a free worker id once the fence ended")
                .isEqualTo(2);
        // The database's clock is read in whole milliseconds: a millisecond or two either way.
        assertThat(Duration.ofNanos(System.nanoTime() - noticed).toMillis())
                .as("not before the holders' ttl and the reuse delay have passed, by c's clock")
                .isGreaterThanOrEqualTo(ttl.plus(reuseDelay).toMillis() - 2);
        assertThat(later.previousTtlMillis())
                .as("b's lost lease may have had any ttl of the fleet: c waits the longest known")
                .isEqualTo(ttl.toMillis());
    }

    /** Calls until the database answers (the pool reconnects after the failover), within the deadline. */
    private static <T> T awaitAnswer(Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
