package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.WorkerIdLeaseStoreContract;
import dev.idgen.test.services.TestServices;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker id lease store contract on a real database, plus what only a database store has: separate pools as
 * separate instances, its own clock, schema initialization, auto-commit and timeouts. Each test has a table of its
 * own, dropped afterwards.
 */
abstract class JdbcWorkerIdLeaseStoreContract extends WorkerIdLeaseStoreContract {

    protected final String table =
            "idgen_worker_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<HikariDataSource> pools = new ArrayList<>();

    protected abstract TestServices.JdbcEndpoint endpoint();

    /**
     * @param port a loopback port nothing listens on
     * @return a JDBC URL of this database's driver on that port
     */
    protected abstract String urlOn(int port);

    /**
     * @return a query of the database's clock in epoch milliseconds, written independently of the store's
     */
    protected abstract String clockQuery();

    @Override
    protected WorkerIdLeaseStore store() {
        return store(pool(4), SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
    }

    protected JdbcWorkerIdLeaseStore store(
            DataSource dataSource, SchemaInitialization initialization, Duration timeout) {
        return new JdbcWorkerIdLeaseStore(dataSource, table, initialization, timeout);
    }

    protected HikariDataSource pool(int size) {
        HikariDataSource pool = endpoint().pool(size);
        pools.add(pool);
        return pool;
    }

    @Override
    protected void pass(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    @AfterEach
    void dropTable() throws Exception {
        pools.forEach(HikariDataSource::close);
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private static String owner() {
        return "owner-" + UUID.randomUUID();
    }

    @Test
    void separateInstancesNeverShareAWorkerId() throws Exception {
        List<WorkerIdLeaseStore> instances = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            instances.add(store(pool(2), SchemaInitialization.ALWAYS, Duration.ofSeconds(5)));
        }
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Long>> futures = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                WorkerIdLeaseStore instance = instances.get(i % instances.size());
                Callable<Long> task = () -> instance.acquire(owner(), 15, Duration.ofSeconds(30), REUSE_DELAY)
                        .workerId();
                futures.add(threads.submit(task));
            }
            List<Long> granted = new ArrayList<>();
            for (Future<Long> future : futures) {
                long id = future.get();
                if (id >= 0) {
                    granted.add(id);
                }
            }
            assertThat(granted).hasSize(16).doesNotHaveDuplicates();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void leaseTimesComeFromTheDatabaseClockToTheMillisecond() throws Exception {
        WorkerIdLeaseStore store = store();
        Duration ttl = Duration.ofMillis(61_234);
        long before = databaseNow();
        long id = store.acquire(owner(), 0, ttl, REUSE_DELAY).workerId();
        long after = databaseNow();
        // One millisecond either way: the test's query may round where the store's truncates.
        assertThat(expiresAt(id)).isBetween(before + ttl.toMillis() - 1, after + ttl.toMillis() + 1);
    }

    @Test
    void anUnreachableDatabaseIsUnavailableWithinBoundedTime() throws IOException {
        HikariDataSource unreachable = new TestServices.JdbcEndpoint(
                        urlOn(closedPort()), endpoint().username(), endpoint().password())
                .pool(1);
        pools.add(unreachable);
        Duration timeout = Duration.ofSeconds(1);
        JdbcWorkerIdLeaseStore store = store(unreachable, SchemaInitialization.ALWAYS, timeout);
        List<ThrowingCallable> operations = List.of(
                () -> store.acquire(owner(), 3, TTL, REUSE_DELAY),
                () -> store.renew(2, owner(), TTL, REUSE_DELAY, 1000, true),
                () -> store.release(2, owner(), 1000));
        List<String> names = List.of("acquire a worker id", "renew worker id 2", "release worker id 2");
        for (int i = 0; i < operations.size(); i++) {
            long started = System.nanoTime();
            assertThatThrownBy(operations.get(i))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining(table)
                    .hasMessageContaining(names.get(i));
            // The timeout plus room for a loaded machine; a store that retried on would hang far longer.
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as(names.get(i))
                    .isLessThan(timeout.plusSeconds(10));
        }
    }

    @Test
    void aStatementStuckBehindALockGivesUpAfterTheTimeout() throws Exception {
        JdbcWorkerIdLeaseStore store = store(pool(2), SchemaInitialization.ALWAYS, Duration.ofMillis(200));
        String owner = owner();
        long id = store.acquire(owner, 0, TTL, REUSE_DELAY).workerId();
        try (Connection locker = endpoint().connect()) {
            locker.setAutoCommit(false);
            try (Statement lock = locker.createStatement()) {
                lock.executeQuery("SELECT * FROM " + table + " WHERE worker_id = " + id + " FOR UPDATE")
                        .close();
            }
            long started = System.nanoTime();
            assertThatThrownBy(() -> store.renew(id, owner, TTL, REUSE_DELAY, 1000, true))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining(table)
                    .hasMessageContaining("renew worker id " + id);
            // Rounded up to one second, plus the time a driver takes to cancel and room for a loaded machine: still
            // far below a lock wait left to the database (50 s on MariaDB, unbounded on PostgreSQL).
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("renewal behind a lock")
                    .isLessThan(Duration.ofSeconds(1).plusSeconds(10));
            locker.rollback();
        }
        // The lease itself may have expired meanwhile (a renewal never revives that), so prove the store usable
        // with a fresh acquisition.
        assertThat(store.acquire(owner(), 3, TTL, REUSE_DELAY).isGranted())
                .as("usable again once the lock is gone")
                .isTrue();
    }

    @Test
    void leasesCommitAtOnceEvenWhenThePoolLendsManualCommitConnections() throws Exception {
        HikariDataSource manualCommit = endpoint().pool(2);
        manualCommit.setAutoCommit(false);
        pools.add(manualCommit);
        WorkerIdLeaseStore store = store(manualCommit, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        String owner = owner();
        long id = store.acquire(owner, 3, TTL, REUSE_DELAY).workerId();
        try (Connection other = endpoint().connect();
                PreparedStatement select =
                        other.prepareStatement("SELECT owner FROM " + table + " WHERE worker_id = ?")) {
            select.setLong(1, id);
            try (ResultSet result = select.executeQuery()) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(1)).isEqualTo(owner);
            }
        }
        try (Connection lent = manualCommit.getConnection()) {
            assertThat(lent.getAutoCommit()).as("handed back as lent").isFalse();
        }
    }

    @Test
    void withoutSchemaInitializationTheTableComesFromTheShippedDdl() throws Exception {
        JdbcWorkerIdLeaseStore store = store(pool(2), SchemaInitialization.NEVER, Duration.ofSeconds(5));
        DatabaseDialect dialect;
        try (Connection connection = endpoint().connect()) {
            dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
        }
        assertThatThrownBy(() -> store.acquire(owner(), 3, TTL, REUSE_DELAY))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(table);
        assertThatThrownBy(store::checkAvailable)
                .as("told apart from a store that is down")
                .isInstanceOfSatisfying(TableMissingException.class, e -> {
                    assertThat(e.table()).isEqualTo(table);
                    assertThat(e.kind()).isEqualTo("worker");
                    assertThat(e.ddlResource()).isEqualTo(dialect.ddlResource("worker"));
                })
                .hasMessageStartingWith("The worker id lease table " + table + " does not exist (schema"
                        + " initialization never); create it from " + dialect.ddlResource("worker"));
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            statement.execute(dialect.ddl("worker", table));
        }
        store.checkAvailable();
        Acquisition acquisition = store.acquire(owner(), 3, TTL, REUSE_DELAY);
        assertThat(acquisition.workerId()).isZero();
        assertThat(acquisition.lastUsedTimestamp()).isEqualTo(-1);
    }

    @Test
    void ownersDifferingOnlyInCaseAreDifferentOwners() {
        WorkerIdLeaseStore store = store();
        String owner = "Owner-" + UUID.randomUUID();
        long id = store.acquire(owner, 0, TTL, REUSE_DELAY).workerId();
        assertThat(store.renew(id, owner.toLowerCase(java.util.Locale.ROOT), TTL, REUSE_DELAY, 1000, true))
                .isFalse();
        assertThat(store.renew(id, owner, TTL, REUSE_DELAY, 1000, true)).isTrue();
    }

    @Test
    void aTakeOverIsGrantedWithTheTtlItsLapsedLeaseRecorded() throws Exception {
        WorkerIdLeaseStore store = store();
        Duration longTtl = Duration.ofSeconds(6);
        long id = store.acquire(owner(), 0, longTtl, REUSE_DELAY).workerId();
        // Lapsed unreleased by the database's clock, as after a step forward: moved back rather than waited for.
        execute("UPDATE " + table + " SET expires_at = expires_at - 60000 WHERE worker_id = " + id);
        Acquisition takenOver = store.acquire(owner(), 0, Duration.ofSeconds(2), REUSE_DELAY);
        assertThat(takenOver.workerId()).isEqualTo(id);
        assertThat(takenOver.isTakenOver()).isTrue();
        assertThat(takenOver.previousTtlMillis())
                .as("the lapsed lease's own ttl, not the new owner's")
                .isEqualTo(longTtl.toMillis());

        // A row an earlier version wrote records no ttl: the new owner assumes its own.
        execute("UPDATE " + table + " SET lease_ms = NULL, expires_at = expires_at - 60000 WHERE worker_id = " + id);
        Acquisition unknown = store.acquire(owner(), 0, Duration.ofSeconds(2), REUSE_DELAY);
        assertThat(unknown.workerId()).isEqualTo(id);
        assertThat(unknown.previousTtlMillis()).isEqualTo(Acquisition.UNKNOWN_TTL);
    }

    @Test
    void anOwnerThatAcquiresWhileItHoldsALeaseGetsThatWorkerIdBackExtended() throws Exception {
        WorkerIdLeaseStore store = store();
        String owner = owner();
        Duration ttl = Duration.ofSeconds(30);
        long id = store.acquire(owner, 7, ttl, REUSE_DELAY).workerId();
        assertThat(store.renew(id, owner, ttl, REUSE_DELAY, 1234, true)).isTrue();
        // Its lease nearly over, as when the answer to its acquisition was lost and the owner waited before asking
        // again.
        execute("UPDATE " + table + " SET expires_at = expires_at - 25000 WHERE worker_id = " + id);
        long before = databaseNow();

        Acquisition again = store.acquire(owner, 7, ttl, REUSE_DELAY);
        assertThat(again.workerId()).as("the same worker id, not a second one").isEqualTo(id);
        assertThat(again.isTakenOver()).as("it never stopped holding it").isFalse();
        assertThat(again.lastUsedTimestamp()).isEqualTo(1234);
        assertThat(expiresAt(id)).as("extended to a ttl from now").isGreaterThanOrEqualTo(before + ttl.toMillis() - 1);
        assertThat(count("SELECT COUNT(*) FROM " + table + " WHERE owner = '" + owner + "'"))
                .isEqualTo(1);
        assertThat(store.renew(id, owner, ttl, REUSE_DELAY, 1234, true)).isTrue();

        Acquisition other = store.acquire(owner(), 7, ttl, REUSE_DELAY);
        assertThat(other.isGranted()).isTrue();
        assertThat(other.workerId()).as("another owner").isNotEqualTo(id);
    }

    @Test
    void aTableWithoutTheTtlAndGrantColumnsWorksAsBeforeAndGetsThemWhereIdgenManagesTheSchema() throws Exception {
        DatabaseDialect dialect;
        try (Connection connection = endpoint().connect()) {
            dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
        }
        String ddl = dialect.ddl("worker", table);
        execute(ddl.replace(",\n  lease_ms BIGINT NULL,\n  grant_ms BIGINT NULL", ""));
        assertThat(ddl).as("the columns the earlier table lacks").contains("lease_ms", "grant_ms");
        WorkerIdLeaseStore unmanaged = store(pool(2), SchemaInitialization.NEVER, Duration.ofSeconds(5));
        long id = unmanaged
                .acquire(owner(), 0, Duration.ofSeconds(6), REUSE_DELAY)
                .workerId();
        execute("UPDATE " + table + " SET expires_at = expires_at - 60000 WHERE worker_id = " + id);
        Acquisition takenOver = unmanaged.acquire(owner(), 0, Duration.ofSeconds(2), REUSE_DELAY);
        assertThat(takenOver.workerId()).isEqualTo(id);
        assertThat(takenOver.previousTtlMillis())
                .as("no ttl recorded: the new owner assumes its own")
                .isEqualTo(Acquisition.UNKNOWN_TTL);
        String lost = owner();
        long lostId =
                unmanaged.acquire(lost, 1, Duration.ofSeconds(6), REUSE_DELAY).workerId();
        Acquisition givenBack = unmanaged.acquire(lost, 1, Duration.ofSeconds(6), REUSE_DELAY);
        assertThat(givenBack.workerId()).isEqualTo(lostId);
        assertThat(givenBack.previousTtlMillis())
                .as("no grant recorded: given back as a take-over whose ttl is not known")
                .isEqualTo(Acquisition.UNKNOWN_TTL);

        WorkerIdLeaseStore managed = store(pool(2), SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        assertThat(managed.acquire(owner(), 2, Duration.ofSeconds(6), REUSE_DELAY)
                        .workerId())
                .isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM " + table + " WHERE lease_ms = 6000 AND grant_ms = 0"))
                .as("the columns added, and written")
                .isEqualTo(1);
    }

    @Test
    void anOwnerColumnFromAnEarlierVersionRefusesLongerOwnersUntilWidened() throws Exception {
        DatabaseDialect dialect;
        try (Connection connection = endpoint().connect()) {
            dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
        }
        execute(dialect.ddl("worker", table).replace("owner VARCHAR(255)", "owner VARCHAR(128)"));
        // An instance id of 128 characters and a process nonce.
        String longOwner = "o".repeat(128) + "#" + "n".repeat(12);
        JdbcWorkerIdLeaseStore narrow = store(pool(2), SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        assertThatThrownBy(() -> narrow.acquire(longOwner, 3, TTL, REUSE_DELAY))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("holds only 128")
                .hasMessageContaining(JdbcWorkerIdLeaseStore.ownerWidening(dialect, table));
        assertThat(narrow.acquire("o".repeat(128), 3, TTL, REUSE_DELAY).workerId())
                .isZero();

        execute(JdbcWorkerIdLeaseStore.ownerWidening(dialect, table));
        JdbcWorkerIdLeaseStore widened = store(pool(2), SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        long id = widened.acquire(longOwner, 3, TTL, REUSE_DELAY).workerId();
        assertThat(id).isEqualTo(1);
        assertThat(widened.renew(id, longOwner, TTL, REUSE_DELAY, 1000, true)).isTrue();
        assertThat(count("SELECT COUNT(*) FROM " + table + " WHERE owner = '" + longOwner + "'"))
                .as("stored whole")
                .isEqualTo(1);
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            assertThat(result.next()).isTrue();
            return result.getLong(1);
        }
    }

    private long databaseNow() throws SQLException {
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(clockQuery())) {
            result.next();
            return result.getLong(1);
        }
    }

    private long expiresAt(long workerId) throws SQLException {
        try (Connection connection = endpoint().connect();
                PreparedStatement select =
                        connection.prepareStatement("SELECT expires_at FROM " + table + " WHERE worker_id = ?")) {
            select.setLong(1, workerId);
            try (ResultSet result = select.executeQuery()) {
                assertThat(result.next()).isTrue();
                return result.getLong(1);
            }
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
