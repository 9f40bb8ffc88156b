package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.test.CallOrder;
import dev.idgen.test.CallOrder.Call;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ticket servers on a real database: uniqueness under concurrency, batches, several servers with their offsets,
 * schema initialization, and independence from the application's transactions. Each server has a table of its own
 * (as each would have a database of its own), dropped afterwards.
 */
abstract class TicketServerContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final List<String> tables = new ArrayList<>();

    private final List<HikariDataSource> pools = new ArrayList<>();

    private final List<TicketIdService> services = new ArrayList<>();

    protected abstract TestServices.JdbcEndpoint endpoint();

    /**
     * @return the DDL resource this database's servers name
     */
    protected abstract String ddlResource();

    private String newTable() {
        String table =
                "idgen_ticket_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        tables.add(table);
        return table;
    }

    private HikariDataSource pool(int size) {
        HikariDataSource pool = endpoint().pool(size);
        pools.add(pool);
        return pool;
    }

    private TicketServer server(String table, int offset, int increment, SchemaInitialization initialization) {
        return server(pool(8), table, offset, increment, initialization);
    }

    private TicketServer server(
            DataSource pool, String table, int offset, int increment, SchemaInitialization initialization) {
        return new TicketServer(
                "server-" + offset,
                pool,
                table,
                offset,
                increment,
                initialization,
                TIMEOUT,
                Duration.ofSeconds(5),
                TimeSource.system());
    }

    private TicketIdService service(TicketServer... servers) {
        TicketIdService service = new TicketIdService(List.of(servers), false);
        services.add(service);
        return service;
    }

    private static String name() {
        return "name-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        services.forEach(TicketIdService::close);
        pools.forEach(HikariDataSource::close);
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            for (String table : tables) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void eightThreadsTakeEveryIdExactlyOnce() throws Exception {
        TicketIdService ids = service(server(newTable(), 0, 1, SchemaInitialization.ALWAYS));
        String name = name();
        int threads = 8;
        int perThread = 150;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean batches = t % 2 == 0; // half the threads take batches of 3, the others single IDs
                results.add(executor.submit(() -> {
                    start.await();
                    List<Long> taken = new ArrayList<>();
                    while (taken.size() < perThread) {
                        if (batches) {
                            for (long id : ids.nextIds(name, 3)) {
                                taken.add(id);
                            }
                        } else {
                            taken.add(ids.nextId(name));
                        }
                    }
                    return taken;
                }));
            }
            start.countDown();
            Set<Long> all = new HashSet<>();
            for (Future<List<Long>> result : results) {
                for (long id : result.get(2, TimeUnit.MINUTES)) {
                    assertThat(all.add(id)).as("ID %d handed out twice", id).isTrue();
                }
            }
            // No failure, so no gap either: exactly 1 to threads * perThread.
            assertThat(all).hasSize(threads * perThread);
            assertThat(all.stream().mapToLong(Long::longValue).min().getAsLong())
                    .isEqualTo(1);
            assertThat(all.stream().mapToLong(Long::longValue).max().getAsLong())
                    .isEqualTo(threads * perThread);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void sixteenThreadsShareRoundTripsGetDistinctIdsAndALaterCallGetsALargerId() throws Exception {
        TicketServer server = server(pool(16), newTable(), 0, 1, SchemaInitialization.ALWAYS);
        TicketIdService ids = service(server);
        String name = name();
        ids.nextId(name); // creates the row: 1
        int threads = 16;
        int perThread = 200;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<Call>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    start.await();
                    List<Call> calls = new ArrayList<>(perThread);
                    for (int i = 0; i < perThread; i++) {
                        long begin = System.nanoTime();
                        long id = ids.nextId(name);
                        calls.add(new Call(begin, System.nanoTime(), id));
                    }
                    return calls;
                }));
            }
            long roundTripsBefore = server.calls();
            start.countDown();
            List<Call> calls = new ArrayList<>();
            for (Future<List<Call>> result : results) {
                calls.addAll(result.get(2, TimeUnit.MINUTES));
            }
            int total = threads * perThread;
            long[] sorted = calls.stream().mapToLong(Call::id).sorted().toArray();
            assertThat(sorted)
                    .as("every ID from 2 on, once: no duplicate, no gap")
                    .containsExactly(java.util.stream.LongStream.rangeClosed(2, total + 1)
                            .toArray());
            long roundTrips = server.calls() - roundTripsBefore;
            assertThat(roundTrips)
                    .as("round trips for %d calls", total)
                    .isPositive()
                    .isLessThan(total);
            assertThat(server.issued()).isEqualTo(total + 1);
            // Each thread calls one after another, so every call but a thread's first starts after a call returned:
            // with fewer checked, the order check would have passed on calls it never compared.
            int checked = CallOrder.assertLaterCallsGetLargerIds(calls);
            assertThat(checked)
                    .as("calls that started after another had returned")
                    .isGreaterThanOrEqualTo(total - threads);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aLoneCallerKeepsItsConnectionBetweenCallsWhereTheDriverBoundsReadsAndBorrowsOnePerCallElsewhere()
            throws Exception {
        // Which of the two the server does is its own decision, asked of it rather than declared by each database's
        // test, so that no database skips this test.
        boolean onCallerThread;
        try (Connection connection = endpoint().connect()) {
            onCallerThread = TicketServer.boundsItsReads(
                    connection, DatabaseDialect.of(connection.getMetaData().getDatabaseProductName()));
        }
        HikariDataSource pool = pool(4);
        CountingDataSource counting = new CountingDataSource(pool);
        TicketServer server = server(counting, newTable(), 0, 1, SchemaInitialization.ALWAYS);
        String name = name();
        assertThat(server.nextId(name)).isEqualTo(1);
        int borrowedBefore = counting.borrowed.get();
        int calls = 100;
        if (!onCallerThread) {
            // H2 (no socket read to bound): every round trip runs on the server's executor on a connection borrowed
            // for it alone, and back in the pool before the call returns.
            for (int i = 2; i <= calls + 1; i++) {
                assertThat(server.nextId(name)).isEqualTo(i);
                assertThat(pool.getHikariPoolMXBean().getActiveConnections())
                        .as("connections out after call %d", i)
                        .isZero();
            }
            assertThat(counting.borrowed.get() - borrowedBefore)
                    .as("connections borrowed for %d calls", calls)
                    .isEqualTo(calls);
            assertThat(server.statementsPerRoundTrip())
                    .as("one statement per round trip")
                    .isEqualTo(1);
            return;
        }
        long started = System.nanoTime();
        for (int i = 2; i <= calls + 1; i++) {
            assertThat(server.nextId(name)).isEqualTo(i);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        // A kept connection goes back after a second out of the pool: one borrowing per second of calls, plus one.
        assertThat(counting.borrowed.get() - borrowedBefore)
                .as("connections borrowed for %d calls", calls)
                .isLessThanOrEqualTo((int) Math.min(calls / 4, seconds + 2));
        assertThat(server.statementsPerRoundTrip())
                .as("one statement per round trip")
                .isEqualTo(1);
        until(() -> pool.getHikariPoolMXBean().getActiveConnections() == 0, "the kept connection back in the pool");
        assertThat(server.nextId(name)).as("served again after giving it back").isEqualTo(calls + 2);
    }

    private static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.sleep(10); // polling the condition, within the deadline
        }
    }

    /** A pool that counts the connections borrowed from it. */
    private static final class CountingDataSource extends ForwardingDataSource {

        final AtomicInteger borrowed = new AtomicInteger();

        CountingDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            borrowed.incrementAndGet();
            return target.getConnection();
        }
    }

    @Test
    void aCallWaitingForARowLockedByAnotherTransactionFailsWithinTheTimeoutAndTheNextIsServed() throws Exception {
        String table = newTable();
        String name = name();
        Duration timeout = Duration.ofSeconds(1);
        TicketServer server = new TicketServer(
                "locked",
                pool(4),
                table,
                0,
                1,
                SchemaInitialization.ALWAYS,
                timeout,
                Duration.ZERO,
                TimeSource.system());
        assertThat(server.nextId(name)).isEqualTo(1);
        assertThat(server.nextId(name)).isEqualTo(2);
        try (Connection holder = endpoint().connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("UPDATE " + table + " SET id = id WHERE name = ?")) {
                lock.setString(1, name);
                assertThat(lock.executeUpdate()).isEqualTo(1);
            }
            long start = System.nanoTime();
            assertThatThrownBy(() -> server.nextId(name))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("locked");
            long took = System.nanoTime() - start;
            // The database would wait for the lock far longer (InnoDB 50 s); generous slack for a loaded machine.
            assertThat(took)
                    .as("the call took %d ms", TimeUnit.NANOSECONDS.toMillis(took))
                    .isLessThan(timeout.plusSeconds(4).toNanos());
            holder.rollback();
        }
        assertThat(server.isOpen()).isTrue();
        assertThat(server.tryAcquire())
                .as("retry-after 0: the next call probes")
                .isTrue();
        // The abandoned update may still run once the lock is free: a gap, never a repeat.
        assertThat(server.nextId(name)).isGreaterThan(2);
        assertThat(server.isOpen()).isFalse();
    }

    @Test
    void aBatchIsOneAdvanceOfCountTimesIncrement() {
        TicketServer server = server(newTable(), 1, 3, SchemaInitialization.ALWAYS);
        TicketIdService ids = service(
                server(newTable(), 0, 3, SchemaInitialization.ALWAYS),
                server,
                server(newTable(), 2, 3, SchemaInitialization.ALWAYS));
        String name = name();
        assertThat(server.take(name, 4)).as("offset 1 + 4 * 3").isEqualTo(13);
        assertThat(server.take(name, 1)).isEqualTo(16);
        assertThat(server.issued()).isEqualTo(5);
        long[] batch = ids.nextIds(name, 5);
        assertThat(batch).hasSize(5);
        for (int i = 1; i < batch.length; i++) {
            assertThat(batch[i] - batch[i - 1])
                    .as("spaced by the number of servers")
                    .isEqualTo(3);
        }
    }

    /**
     * A start floor of either residue: each server moves it up to its own, so the two never issue the same ticket
     * (an unaligned floor made both start at floor + increment).
     */
    @Test
    void twoServersAboveAStartFloorKeepTheirResidues() {
        for (long floor : new long[] {1000, 1001}) {
            String name = name();
            List<Long> fromEven = new ArrayList<>();
            List<Long> fromOdd = new ArrayList<>();
            TicketServer even = startingAbove(newTable(), 0, floor);
            TicketServer odd = startingAbove(newTable(), 1, floor);
            for (int i = 0; i < 5; i++) {
                fromEven.add(even.take(name, 1));
                fromOdd.add(odd.take(name, 1));
            }
            assertThat(fromEven).as("above " + floor).allMatch(id -> id % 2 == 0 && id > floor);
            assertThat(fromOdd).as("above " + floor).allMatch(id -> id % 2 == 1 && id > floor);
        }
    }

    private TicketServer startingAbove(String table, int offset, long floor) {
        return new TicketServer(
                "server-" + offset,
                pool(2),
                table,
                offset,
                2,
                SchemaInitialization.ALWAYS,
                TIMEOUT,
                Duration.ofSeconds(5),
                TimeSource.system(),
                TicketServer.DEFAULT_FAILOVER_JUMP,
                name -> floor);
    }

    @Test
    void twoServersInterleaveByTheirOffsets() {
        TicketServer even = server(newTable(), 0, 2, SchemaInitialization.ALWAYS);
        TicketServer odd = server(newTable(), 1, 2, SchemaInitialization.ALWAYS);
        TicketIdService ids = service(even, odd);
        String name = name();
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            assertThat(seen.add(ids.nextId(name))).isTrue();
        }
        for (long id : ids.nextIds(name, 7)) {
            assertThat(seen.add(id)).isTrue();
        }
        assertThat(seen).as("both servers served").anyMatch(id -> id % 2 == 0).anyMatch(id -> id % 2 == 1);
        List<Long> fromEven = new ArrayList<>();
        List<Long> fromOdd = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            fromEven.add(even.take(name, 1));
            fromOdd.add(odd.take(name, 1));
        }
        assertThat(fromEven).allMatch(id -> id % 2 == 0).isSorted();
        assertThat(fromOdd).allMatch(id -> id % 2 == 1).isSorted();
        assertThat(even.issued() + odd.issued()).isEqualTo(37);
    }

    @Test
    void aMissingTableWithoutSchemaInitializationIsReportedNamingTheTableAndItsDdl() throws Exception {
        String table = newTable();
        TicketServer server = server(table, 0, 1, SchemaInitialization.NEVER);
        assertThatThrownBy(server::checkTable).isInstanceOfSatisfying(TicketTableMissingException.class, e -> {
            assertThat(e.table()).isEqualTo(table);
            assertThat(e.server()).isEqualTo("server-0");
            assertThat(e.ddlResource()).isEqualTo(ddlResource());
            assertThat(e)
                    .hasMessageContaining(table)
                    .hasMessageContaining(ddlResource())
                    .hasMessageContaining("never");
        });
        assertThat(server.isOpen()).as("a set-up mistake, not an outage").isFalse();
        assertThatThrownBy(() -> server.take(name(), 1)).isInstanceOf(TicketTableMissingException.class);
        assertThat(server.isOpen()).isTrue();

        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            DatabaseDialect dialect =
                    DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
            assertThat(dialect.ddlResource("ticket")).isEqualTo(ddlResource());
            statement.execute(dialect.ddl("ticket", table));
        }
        server.checkTable();
        TicketServer fresh = server(table, 0, 1, SchemaInitialization.NEVER);
        assertThat(fresh.take("orders", 1)).as("the shipped DDL works").isEqualTo(1);
    }

    @Test
    void aRowWrittenForAnotherNumberOfServersIsRefused() {
        String table = newTable();
        String name = name();
        assertThat(server(table, 0, 1, SchemaInitialization.ALWAYS).take(name, 1))
                .isEqualTo(1);
        TicketServer twoServers = server(table, 0, 2, SchemaInitialization.ALWAYS);
        assertThatThrownBy(() -> twoServers.take(name, 1))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("written for 1 servers, but 2 are configured");
    }

    @Test
    void anApplicationTransactionThatRollsBackTakesNoTicketBack() throws Exception {
        // The pool lends manual-commit connections, as many applications configure theirs.
        HikariDataSource pool = pool(2);
        pool.setAutoCommit(false);
        String table = newTable();
        TicketServer server = server(pool, table, 0, 1, SchemaInitialization.ALWAYS);
        String name = name();
        String marker = name();
        assertThat(server.take(name, 1)).isEqualTo(1);
        long taken;
        try (Connection application = pool.getConnection()) {
            application.setAutoCommit(false);
            try (PreparedStatement write =
                    application.prepareStatement("INSERT INTO " + table + " (name, id, increment) VALUES (?, 0, 1)")) {
                write.setString(1, marker);
                write.executeUpdate();
            }
            taken = server.take(name, 5);
            application.rollback();
        }
        assertThat(taken).isEqualTo(6);
        assertThat(counter(table, marker))
                .as("the application's own write was rolled back")
                .isNull();
        assertThat(counter(table, name))
                .as("the row kept the advance taken during the transaction")
                .isEqualTo(6);
        assertThat(server.take(name, 1)).as("never issued again").isEqualTo(7);
    }

    @Test
    void resetStartsANameOverFromTheOffset() {
        TicketServer server = server(newTable(), 1, 2, SchemaInitialization.ALWAYS);
        TicketIdService ids =
                new TicketIdService(List.of(server(newTable(), 0, 2, SchemaInitialization.ALWAYS), server), true);
        services.add(ids);
        String name = name();
        server.take(name, 3);
        ids.reset(name);
        assertThat(server.take(name, 1)).isEqualTo(3);
    }

    private Long counter(String table, String name) throws SQLException {
        try (Connection connection = endpoint().connect();
                PreparedStatement select = connection.prepareStatement("SELECT id FROM " + table + " WHERE name = ?")) {
            select.setString(1, name);
            try (ResultSet result = select.executeQuery()) {
                return result.next() ? result.getLong(1) : null;
            }
        }
    }
}
