package dev.idgen.jdbc;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A {@link WorkerIdLeaseStore} on a database table with one row per worker id, through plain JDBC on a
 * {@link DataSource}: MySQL, MariaDB, PostgreSQL and H2, with the DDL in {@code META-INF/idgen/worker-*.sql}.
 *
 * <p>A row holds the worker id's {@code owner}, when its lease ends ({@code expires_at}, epoch milliseconds), the last
 * timestamp its owners recorded ({@code last_timestamp}, -1 for none) and a {@code version} bumped by every change.
 * Expiry is judged by the database server's clock, read inside each statement, so instances whose own clocks disagree
 * still agree on who holds what.
 *
 * <p>Every statement commits on its own, and none holds a lock beyond itself. Taking a worker id is optimistic:
 * {@link #acquire} reads the rows, then inserts the lowest missing one or takes the lowest expired one with an
 * {@code UPDATE} conditional on the version it read; losing either race to another instance only moves it on to the
 * next worker id. {@link #renew} and {@link #release} are one conditional {@code UPDATE} each.
 *
 * <p>Give it a plain {@code DataSource} (a connection pool), not a transaction-aware proxy: each operation borrows a
 * connection of its own and switches it to auto-commit while it works, so a lease never joins, and is never rolled
 * back with, an application transaction.
 *
 * <p>The dialect is read from the database on first use, and the table created then if configured, so an
 * application starts while its database is down.
 */
public final class JdbcWorkerIdLeaseStore implements WorkerIdLeaseStore {

    /** The table used unless another is configured. */
    public static final String DEFAULT_TABLE = "idgen_worker";

    private static final int MAX_OWNER_LENGTH = 128;

    private final JdbcStatements<Sql> statements;
    private final String table;

    /** The statements of one dialect, read once the database is known. */
    private record Sql(String select, String insert, String take, String renew, String release) {

        static Sql of(DatabaseDialect dialect, String table) {
            String now = nowMillis(dialect);
            return new Sql(
                    "SELECT worker_id, expires_at, last_timestamp, version, " + now + " FROM " + table
                            + " WHERE worker_id BETWEEN 0 AND ?",
                    "INSERT INTO " + table + " (worker_id, owner, expires_at, last_timestamp, version)"
                            + " VALUES (?, ?, " + now + " + ?, ?, 0)",
                    "UPDATE " + table + " SET owner = ?, expires_at = " + now + " + ?, version = version + 1"
                            + " WHERE worker_id = ? AND version = ? AND expires_at + ? <= " + now,
                    "UPDATE " + table + " SET owner = ?, expires_at = " + now + " + ?,"
                            + " last_timestamp = GREATEST(last_timestamp, ?), version = version + 1"
                            + " WHERE worker_id = ? AND owner = ? AND expires_at > " + now,
                    "UPDATE " + table + " SET expires_at = " + now + ", last_timestamp = GREATEST(last_timestamp, ?),"
                            + " version = version + 1 WHERE worker_id = ? AND owner = ?");
        }
    }

    /** A row as {@link #acquire} read it. */
    private record Row(long expiresAt, long lastTimestamp, long version) {
    }

    /**
     * @param dataSource the database, a plain connection pool; its connection timeout bounds how long an operation
     *        waits for a connection
     * @param table the table, checked by {@link SqlIdentifiers}; {@link #DEFAULT_TABLE} unless configured otherwise
     * @param initializeSchema when to create the table
     * @param timeout the longest one statement may take in the database, rounded up to whole seconds (at least one)
     * @throws InvalidArgumentException naming {@code table} when the table name breaks the rule
     */
    public JdbcWorkerIdLeaseStore(DataSource dataSource, String table, SchemaInitialization initializeSchema,
            Duration timeout) {
        this.table = SqlIdentifiers.checkTable("table", table);
        this.statements = new JdbcStatements<>(dataSource, "the worker id lease table " + this.table, "worker",
                this.table, initializeSchema, timeout, null, (connection, dialect) -> Sql.of(dialect, this.table));
    }

    @Override
    public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
        checkOwner(owner);
        long ttlMillis = ttl.toMillis();
        long reuseDelayMillis = reuseDelay.toMillis();
        return statements.execute("acquire a worker id", (connection, sql) -> {
            Map<Long, Row> rows = new HashMap<>();
            long now = Long.MIN_VALUE;
            try (PreparedStatement select = statements.prepare(connection, sql.select())) {
                select.setLong(1, maxWorkerId);
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        rows.put(result.getLong(1), new Row(result.getLong(2), result.getLong(3), result.getLong(4)));
                        now = result.getLong(5);
                    }
                }
            }
            for (long workerId = 0; workerId <= maxWorkerId; workerId++) {
                Row row = rows.get(workerId);
                if (row == null) {
                    if (insert(connection, sql, workerId, owner, ttlMillis, -1)) {
                        return Acquisition.granted(workerId, -1);
                    }
                } else if (row.expiresAt() + reuseDelayMillis <= now
                        && take(connection, sql, workerId, owner, ttlMillis, reuseDelayMillis, row.version())) {
                    // The version matched, so the row is exactly as read: its last timestamp is the one to hand on.
                    return Acquisition.granted(workerId, row.lastTimestamp());
                }
            }
            return Acquisition.none(0);
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>A missing row (deleted by hand: a database does not lose rows) is inserted again for a holder that is still
     * valid; the insert fails if anyone else inserted it meanwhile.
     */
    @Override
    public boolean renew(long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp,
            boolean heldValidly) {
        checkOwner(owner);
        if (!heldValidly) {
            return false;
        }
        long ttlMillis = ttl.toMillis();
        return statements.execute("renew worker id " + workerId, (connection, sql) -> {
            try (PreparedStatement renew = statements.prepare(connection, sql.renew())) {
                renew.setString(1, owner);
                renew.setLong(2, ttlMillis);
                renew.setLong(3, lastTimestamp);
                renew.setLong(4, workerId);
                renew.setString(5, owner);
                if (renew.executeUpdate() > 0) {
                    return true;
                }
            }
            // No row matched: either it is missing, or someone else holds it, in which case the insert fails.
            return insert(connection, sql, workerId, owner, ttlMillis, Math.max(-1, lastTimestamp));
        });
    }

    @Override
    public void release(long workerId, String owner, long lastTimestamp) {
        checkOwner(owner);
        statements.execute("release worker id " + workerId, (connection, sql) -> {
            try (PreparedStatement release = statements.prepare(connection, sql.release())) {
                release.setLong(1, lastTimestamp);
                release.setLong(2, workerId);
                release.setString(3, owner);
                return release.executeUpdate();
            }
        });
    }

    /**
     * Connects, creates the table if configured, and reads from it: the start-up check, so that a missing table is
     * told apart from a store that is not reachable yet (which a leasing assigner waits for).
     *
     * @throws TableMissingException when the database answered but the table is not there
     * @throws dev.idgen.core.StoreUnavailableException when the database cannot be reached
     */
    public void checkAvailable() {
        statements.execute("check availability", (connection, sql) -> {
            statements.probeTable(connection);
            return null;
        });
    }

    /**
     * @return the table the leases live in
     */
    public String table() {
        return table;
    }

    /**
     * @return whether this insert created the row; false when another instance's did
     */
    private boolean insert(Connection connection, Sql sql, long workerId, String owner, long ttlMillis,
            long lastTimestamp) throws SQLException {
        try (PreparedStatement insert = statements.prepare(connection, sql.insert())) {
            insert.setLong(1, workerId);
            insert.setString(2, owner);
            insert.setLong(3, ttlMillis);
            insert.setLong(4, lastTimestamp);
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            // Concurrent inserts of one key deadlock on InnoDB when the first of them rolls back (a timeout); the
            // database let one of the others go ahead, so this one lost the race as surely as with a duplicate key.
            if (JdbcStatements.isDuplicateKey(e) || JdbcStatements.isDeadlock(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * @return whether this update took the expired row; false when another instance changed it since it was read
     */
    private boolean take(Connection connection, Sql sql, long workerId, String owner, long ttlMillis,
            long reuseDelayMillis, long version) throws SQLException {
        try (PreparedStatement take = statements.prepare(connection, sql.take())) {
            take.setString(1, owner);
            take.setLong(2, ttlMillis);
            take.setLong(3, workerId);
            take.setLong(4, version);
            // Checked again, though the version alone proves the row unchanged, so that a row edited by hand
            // without a new version is still never taken while its lease lasts.
            take.setLong(5, reuseDelayMillis);
            return take.executeUpdate() > 0;
        }
    }

    /**
     * The database server's time in epoch milliseconds, the same throughout one statement, so that a statement
     * compares and writes one instant. MySQL and MariaDB count from UTC so that the session's time zone (and its
     * daylight saving hour that repeats) plays no part.
     */
    private static String nowMillis(DatabaseDialect dialect) {
        return switch (dialect) {
            case MYSQL -> "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000)";
            case POSTGRESQL -> "CAST(FLOOR(EXTRACT(EPOCH FROM statement_timestamp()) * 1000) AS BIGINT)";
            case H2 -> "CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)";
        };
    }

    private static void checkOwner(String owner) {
        if (owner == null || owner.isEmpty() || owner.length() > MAX_OWNER_LENGTH) {
            throw new InvalidArgumentException("owner", owner, "owner must be 1 to " + MAX_OWNER_LENGTH
                    + " characters, but was '" + owner + "'");
        }
    }

    @Override
    public String toString() {
        return "JdbcWorkerIdLeaseStore[table=" + table + "]";
    }
}
