package dev.idgen.jdbc;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A {@link WorkerIdLeaseStore} on a database table with one row per worker id, through plain JDBC on a
 * {@link DataSource}: MySQL, MariaDB, PostgreSQL and H2, with the DDL in {@code META-INF/idgen/worker-*.sql}.
 *
 * <p>A row holds the worker id's {@code owner}, when its lease ends ({@code expires_at}, epoch milliseconds), the
 * lease's ttl ({@code lease_ms}), the last timestamp its owners recorded ({@code last_timestamp}, -1 for none) and a
 * {@code version} bumped by every change. Expiry is judged by the database server's clock, read inside each statement,
 * so instances whose own clocks disagree still agree on who holds what. That clock may step (or a failover may move to
 * a server whose clock is ahead), and make a live lease look expired: so a row taken while it still names an owner (it
 * lapsed unreleased) is granted as taken over, with the ttl its row records, and its new owner waits that ttl plus the
 * reuse delay by its own monotonic clock before it issues (see {@link Acquisition}); instances sharing one table may
 * use different ttls. A release clears the owner: such a row is granted free. A row written before idgen recorded the
 * ttl (or in a table without the column, which idgen adds where it manages the schema) is granted with an unknown
 * ttl, and its new owner waits its own.
 *
 * <p>A row also records how its lease was granted ({@code grant_ms}: the {@link Acquisition#previousTtlMillis()} the
 * acquisition answered, 0 free), written by an insert or a take and kept by renewals. An owner given its own unexpired
 * lease back (its earlier grant's answer was lost) is granted as it was then: a lost take-over given back free would
 * skip the wait for the holder it was taken from. A row that records no grant (written by an earlier version, or in a
 * table without the column) is given back as taken over with an unknown ttl.
 *
 * <p>After a failover to a promoted copy (recognised by the {@link WriterColumn writer column}), every row the lost
 * primary wrote counts as held for the longest ttl the table records (or the noticing instance's own, where longer)
 * from then on, and no worker id without a row is handed out before then: whoever holds it on the lost primary may have
 * taken it during the copy's lag, with any ttl of the fleet.
 *
 * <p>Every statement commits on its own, and none holds a lock beyond itself. Taking a worker id is optimistic:
 * {@link #acquire} reads the rows, then extends the owner's own unexpired lease if it has one (an earlier acquisition
 * whose answer was lost), or inserts the lowest missing one or takes the lowest expired one, each with an
 * {@code UPDATE} conditional on the version it read; losing a race to another instance only moves it on to the next
 * worker id. {@link #renew} and {@link #release} are one conditional {@code UPDATE} each.
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

    private static final int MAX_OWNER_LENGTH = 255;

    private final JdbcStatements<Sql> statements;
    private final String table;

    /**
     * The worker id of the row that marks a failover to a promoted replica: until its {@code expires_at} (plus the
     * reuse delay) no worker id without a row may be inserted, since the lost primary may have held a lease on it.
     */
    static final long FAILOVER_MARK = -1;

    /**
     * The column that records each lease's ttl in milliseconds, written by every statement that grants or extends a
     * lease: how long whoever holds or last held the worker id goes on issuing after its last renewal. {@code null} in
     * rows written before idgen recorded it.
     */
    static final AddedColumn LEASE_MS = new AddedColumn("lease_ms", "BIGINT NULL");

    /**
     * The column that records how each lease was granted: the {@link Acquisition#previousTtlMillis()} its acquisition
     * answered, written by every statement that grants a lease afresh and kept by renewals. {@code null} where it is
     * not known (rows written before idgen recorded it).
     */
    static final AddedColumn GRANT_MS = new AddedColumn("grant_ms", "BIGINT NULL");

    /**
     * The statements of one dialect, read once the database is known.
     *
     * @param stamped whether the table has the writer column; the statements then stamp and check it
     * @param recordsTtl whether the table has the {@link #LEASE_MS} column; the statements then write it, each with
     *        one parameter more for it, after those of its {@code SET} clause (its {@code VALUES} in an insert)
     * @param recordsGrant whether the table has the {@link #GRANT_MS} column; an insert and a take then write it, with
     *        one parameter more for it, after the one of {@link #LEASE_MS} (where there is one)
     * @param ownerWidth how many characters the table's owner column holds
     * @param widenOwner the statement that widens it to {@link #MAX_OWNER_LENGTH}, or {@code null} where it is wide
     *        enough
     */
    private record Sql(
            boolean stamped,
            boolean recordsTtl,
            boolean recordsGrant,
            int ownerWidth,
            String widenOwner,
            String select,
            String longestTtl,
            String insert,
            String take,
            String reclaim,
            String renew,
            String release,
            String fence,
            String adopt,
            String mark,
            String extendMark) {

        static Sql of(
                DatabaseDialect dialect,
                String table,
                boolean stamped,
                boolean recordsTtl,
                boolean recordsGrant,
                int ownerWidth) {
            String widenOwner = ownerWidth < MAX_OWNER_LENGTH ? ownerWidening(dialect, table) : null;
            String now = nowMillis(dialect);
            String identity = WriterColumn.identity(dialect);
            String writer = stamped ? ", " + WriterColumn.NAME : "";
            String stamp = stamped ? ", " + WriterColumn.NAME + " = " + identity : "";
            String writtenHere = stamped ? " AND " + WriterColumn.NAME + " = " + identity : "";
            String ttl = recordsTtl ? ", " + LEASE_MS.name() + " = ?" : "";
            String ttlColumn = recordsTtl ? ", " + LEASE_MS.name() : "";
            String ttlValue = recordsTtl ? ", ?" : "";
            String grant = recordsGrant ? ", " + GRANT_MS.name() + " = ?" : "";
            String grantColumn = recordsGrant ? ", " + GRANT_MS.name() : "";
            String grantValue = recordsGrant ? ", ?" : "";
            // A fence raises a row's recorded ttl to the fence's: whoever holds the row on the lost primary may have
            // any ttl of the fleet, and a take-over of the row waits the recorded one.
            String atLeastTtl =
                    recordsTtl ? ", " + LEASE_MS.name() + " = GREATEST(COALESCE(" + LEASE_MS.name() + ", 0), ?)" : "";
            return new Sql(
                    stamped,
                    recordsTtl,
                    recordsGrant,
                    ownerWidth,
                    widenOwner,
                    "SELECT worker_id, expires_at, last_timestamp, version, " + now + ", owner, "
                            + (recordsTtl ? LEASE_MS.name() : "NULL") + ", "
                            + (recordsGrant ? GRANT_MS.name() : "NULL")
                            + (stamped ? ", " + WriterColumn.NAME + ", " + identity : "") + " FROM " + table
                            + " WHERE worker_id BETWEEN " + FAILOVER_MARK + " AND ?",
                    recordsTtl ? "SELECT MAX(" + LEASE_MS.name() + ") FROM " + table : null,
                    "INSERT INTO " + table + " (worker_id, owner, expires_at, last_timestamp, version" + writer
                            + ttlColumn + grantColumn + ") VALUES (?, ?, " + now + " + ?, ?, 0"
                            + (stamped ? ", " + identity : "") + ttlValue + grantValue + ")",
                    "UPDATE " + table + " SET owner = ?, expires_at = " + now + " + ?, version = version + 1" + ttl
                            + grant + stamp + " WHERE worker_id = ? AND version = ? AND expires_at + ? <= " + now
                            + writtenHere,
                    "UPDATE " + table + " SET expires_at = " + now + " + ?, version = version + 1" + ttl + stamp
                            + " WHERE worker_id = ? AND version = ? AND owner = ? AND expires_at > " + now
                            + writtenHere,
                    "UPDATE " + table + " SET owner = ?, expires_at = " + now + " + ?,"
                            + " last_timestamp = GREATEST(last_timestamp, ?), version = version + 1" + ttl + stamp
                            + " WHERE worker_id = ? AND owner = ? AND expires_at > " + now + writtenHere,
                    // The owner cleared: a row without one was released by a holder that had stopped. Its ttl stays,
                    // one more sign of the ttls the fleet uses when a failover is fenced.
                    "UPDATE " + table + " SET owner = NULL, expires_at = " + now
                            + ", last_timestamp = GREATEST(last_timestamp, ?), version = version + 1" + stamp
                            + " WHERE worker_id = ? AND owner = ?" + writtenHere,
                    // Every row another server wrote counts as held for one more lease from now: its holder (if
                    // any) either renews it here meanwhile or, its renewals refused, stops before the lease ends.
                    "UPDATE " + table + " SET expires_at = GREATEST(expires_at, " + now + " + ?)" + atLeastTtl
                            + ", version = version + 1" + stamp + " WHERE " + WriterColumn.NAME + " <> " + identity,
                    "UPDATE " + table + " SET " + WriterColumn.NAME + " = " + identity + " WHERE " + WriterColumn.NAME
                            + " IS NULL",
                    "INSERT INTO " + table + " (worker_id, owner, expires_at, last_timestamp, version" + writer
                            + ttlColumn + ") VALUES (" + FAILOVER_MARK + ", NULL, " + now + " + ?, -1, 0"
                            + (stamped ? ", " + identity : "") + ttlValue + ")",
                    "UPDATE " + table + " SET expires_at = GREATEST(expires_at, " + now + " + ?)" + atLeastTtl
                            + ", version = version + 1" + stamp + " WHERE worker_id = " + FAILOVER_MARK);
        }
    }

    /**
     * A row as {@link #acquire} read it.
     *
     * @param owner its holder, or {@code null} when released by its holder (or never held)
     * @param ttlMillis the ttl recorded with its lease, or {@link Acquisition#UNKNOWN_TTL} where none was
     * @param grantedPreviousTtlMillis the {@link Acquisition#previousTtlMillis()} its lease was granted with, or
     *        {@link Acquisition#UNKNOWN_TTL} where none was recorded
     */
    private record Row(
            long expiresAt,
            long lastTimestamp,
            long version,
            String owner,
            long ttlMillis,
            long grantedPreviousTtlMillis) {

        boolean released() {
            return owner == null;
        }
    }

    private final JdbcFailovers failovers;
    /** The longest lease asked for so far: the least a release that finds the table promoted fences it for. */
    private volatile long longestTtlMillis = 60_000;

    /**
     * @param dataSource the database, a plain connection pool; its connection timeout bounds how long an operation
     *        waits for a connection
     * @param table the table, checked by {@link SqlIdentifiers}; {@link #DEFAULT_TABLE} unless configured otherwise
     * @param initializeSchema when to create the table
     * @param timeout the longest one statement may take in the database, rounded up to whole seconds (at least one)
     * @throws InvalidArgumentException naming {@code table} when the table name breaks the rule
     */
    public JdbcWorkerIdLeaseStore(
            DataSource dataSource, String table, SchemaInitialization initializeSchema, Duration timeout) {
        this.table = SqlIdentifiers.checkTable("table", table);
        this.statements = new JdbcStatements<>(
                dataSource,
                "the worker id lease table " + this.table,
                "worker",
                this.table,
                initializeSchema,
                timeout,
                null,
                this::prepare);
        this.failovers = new JdbcFailovers(statements, -1);
    }

    private Sql prepare(Connection connection, DatabaseDialect dialect) throws SQLException {
        boolean stamped = statements.schema().writerColumn(connection, dialect);
        boolean recordsTtl = statements
                .schema()
                .addedColumn(
                        connection,
                        dialect,
                        LEASE_MS,
                        "an id taken over from a lease that lapsed unreleased waits the new owner's ttl, not the"
                                + " lapsed lease's, and a failover is fenced for the ttl of the instance that notices"
                                + " it: instances sharing the table must all use one ttl");
        boolean recordsGrant = statements
                .schema()
                .addedColumn(
                        connection,
                        dialect,
                        GRANT_MS,
                        "an owner given back its own lease after a lost answer waits as after a take-over, its own"
                                + " ttl, even where its lost grant was free");
        return Sql.of(dialect, table, stamped, recordsTtl, recordsGrant, ownerWidth(connection, dialect));
    }

    /**
     * @return how many characters the table's owner column holds: {@link #MAX_OWNER_LENGTH} in a table from this
     *         version, 128 in one from an earlier version, which is logged with the statement that widens it
     */
    private int ownerWidth(Connection connection, DatabaseDialect dialect) throws SQLException {
        int width;
        try (PreparedStatement select = statements.prepare(connection, "SELECT owner FROM " + table + " WHERE 1 = 0");
                ResultSet result = select.executeQuery()) {
            width = result.getMetaData().getPrecision(1);
        }
        if (width <= 0 || width >= MAX_OWNER_LENGTH) {
            return MAX_OWNER_LENGTH;
        }
        System.getLogger(JdbcWorkerIdLeaseStore.class.getName())
                .log(
                        System.Logger.Level.WARNING,
                        () -> "The worker id lease table " + table + " holds owners of up to " + width
                                + " characters, from an earlier version of idgen: an instance whose identity is longer"
                                + " cannot lease a worker id. Widen the column with: " + ownerWidening(dialect, table));
        return width;
    }

    /**
     * @return the statement that widens the owner column of a table from an earlier version of idgen to
     *         {@link #MAX_OWNER_LENGTH} characters, keeping its character set and collation (a change of length only,
     *         which none of the databases rewrites the table for)
     */
    static String ownerWidening(DatabaseDialect dialect, String table) {
        String type = "VARCHAR(" + MAX_OWNER_LENGTH + ")";
        return switch (dialect) {
            case MYSQL ->
                "ALTER TABLE " + table + " MODIFY owner " + type + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL";
            case POSTGRESQL -> "ALTER TABLE " + table + " ALTER COLUMN owner TYPE " + type;
            case H2 -> "ALTER TABLE " + table + " ALTER COLUMN owner SET DATA TYPE " + type;
        };
    }

    /**
     * Refuses an owner the table's owner column cannot hold, rather than let a database that is not in strict mode cut
     * it short, which would leave a lease its owner can never renew or release.
     */
    private void checkOwnerFits(Sql sql, String owner) {
        if (owner.length() > sql.ownerWidth()) {
            throw new InvalidArgumentException(
                    "owner",
                    owner,
                    "owner '" + owner + "' is " + owner.length() + " characters long, but the owner column of the"
                            + " worker id lease table " + table + " holds only " + sql.ownerWidth()
                            + ": widen it with " + sql.widenOwner());
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>An owner that still holds an unexpired lease gets that worker id back, its lease extended, instead of a second
     * one: only a lost answer to its own earlier acquisition leaves it holding one it does not know of.
     */
    @Override
    public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
        checkOwner(owner);
        long ttlMillis = ttl.toMillis();
        long reuseDelayMillis = reuseDelay.toMillis();
        longestTtlMillis = Math.max(longestTtlMillis, ttlMillis);
        return statements.execute("acquire a worker id", (connection, sql) -> {
            checkOwnerFits(sql, owner);
            Map<Long, Row> rows = new HashMap<>();
            long[] now = {Long.MIN_VALUE};
            if (read(connection, sql, maxWorkerId, rows, now) == ELSEWHERE) {
                // Rows another server wrote: this database is a promoted copy. Fence them, then read again.
                fence(connection, sql, ttlMillis);
                rows.clear();
                read(connection, sql, maxWorkerId, rows, now);
            }
            Row mark = rows.get(FAILOVER_MARK);
            for (long workerId = 0; workerId <= maxWorkerId; workerId++) {
                Row row = rows.get(workerId);
                if (row != null
                        && owner.equals(row.owner())
                        && row.expiresAt() > now[0]
                        && reclaim(connection, sql, workerId, owner, ttlMillis, row.version())) {
                    // Nobody but this owner can have issued under it since it was granted, but whoever held it
                    // before may, if it was taken over: granted as then. After a failover, the row may also be a
                    // stale copy of one this owner released on the lost primary, and another took.
                    if (mark == null) {
                        return granted(workerId, row.lastTimestamp(), row.grantedPreviousTtlMillis());
                    }
                    return Acquisition.grantedTakenOver(
                            workerId,
                            row.lastTimestamp(),
                            Math.max(row.grantedPreviousTtlMillis(), Math.max(row.ttlMillis(), mark.ttlMillis())));
                }
            }
            // Until the fence ends, a worker id without a row may still be held by an instance whose lease row only
            // the lost primary had: no such row is inserted before then.
            long fenceLeft = mark == null ? 0 : mark.expiresAt() + reuseDelayMillis - now[0];
            for (long workerId = 0; workerId <= maxWorkerId; workerId++) {
                Row row = rows.get(workerId);
                if (row == null) {
                    // After a failover, an id without a row may have been held on the lost primary, with any ttl
                    // of the fleet: the mark records the longest known.
                    long previousTtl = mark == null ? Acquisition.FREE : takenOverTtl(mark.ttlMillis());
                    if (fenceLeft <= 0 && insert(connection, sql, workerId, owner, ttlMillis, -1, previousTtl)) {
                        return granted(workerId, -1, previousTtl);
                    }
                } else if (row.expiresAt() + reuseDelayMillis <= now[0]) {
                    // Taken if the version matches, so the row is exactly as read: its last timestamp is the one to
                    // hand on, whether it was released or lapsed held by the database's clock (which may have
                    // stepped), and the ttl of the lease that lapsed, which its holder stops within.
                    long previousTtl =
                            row.released() && mark == null ? Acquisition.FREE : takenOverTtl(row.ttlMillis());
                    if (take(
                            connection,
                            sql,
                            workerId,
                            owner,
                            ttlMillis,
                            reuseDelayMillis,
                            row.version(),
                            previousTtl)) {
                        return granted(workerId, row.lastTimestamp(), previousTtl);
                    }
                }
            }
            return Acquisition.none(Math.max(0, fenceLeft));
        });
    }

    /** @return a take-over's previous ttl: {@code ttlMillis} where known, else {@link Acquisition#UNKNOWN_TTL} */
    private static long takenOverTtl(long ttlMillis) {
        return ttlMillis > 0 ? ttlMillis : Acquisition.UNKNOWN_TTL;
    }

    private static Acquisition granted(long workerId, long lastTimestamp, long previousTtlMillis) {
        return previousTtlMillis == Acquisition.FREE
                ? Acquisition.grantedFree(workerId, lastTimestamp)
                : Acquisition.grantedTakenOver(workerId, lastTimestamp, previousTtlMillis);
    }

    /** Binds a recorded grant: {@code null} for {@link Acquisition#UNKNOWN_TTL}. */
    private static void bindGrant(PreparedStatement statement, int parameter, long previousTtlMillis)
            throws SQLException {
        if (previousTtlMillis < 0) {
            statement.setNull(parameter, Types.BIGINT);
        } else {
            statement.setLong(parameter, previousTtlMillis);
        }
    }

    /**
     * Reads the rows from the failover mark to {@code maxWorkerId} into {@code rows}, the database's time into
     * {@code now[0]}, and stamps rows that carry no writer yet.
     *
     * @return {@link #ELSEWHERE} when a row was written by another server (this database is a promoted copy),
     *         {@link #ADOPTED} when rows without a writer were stamped, otherwise 0
     */
    private int read(Connection connection, Sql sql, long maxWorkerId, Map<Long, Row> rows, long[] now)
            throws SQLException {
        boolean elsewhere = false;
        boolean unstamped = false;
        try (PreparedStatement select = statements.prepare(connection, sql.select())) {
            select.setLong(1, maxWorkerId);
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    long recordedTtl = result.getLong(7);
                    long ttlMillis = result.wasNull() || recordedTtl <= 0 ? Acquisition.UNKNOWN_TTL : recordedTtl;
                    long recordedGrant = result.getLong(8);
                    long grant = result.wasNull() || recordedGrant < 0 ? Acquisition.UNKNOWN_TTL : recordedGrant;
                    rows.put(
                            result.getLong(1),
                            new Row(
                                    result.getLong(2),
                                    result.getLong(3),
                                    result.getLong(4),
                                    result.getString(6),
                                    ttlMillis,
                                    grant));
                    now[0] = result.getLong(5);
                    if (sql.stamped()) {
                        String writer = result.getString(9);
                        unstamped |= writer == null;
                        elsewhere |= writer != null && !writer.equals(result.getString(10));
                    }
                }
            }
        }
        if (elsewhere) {
            return ELSEWHERE;
        }
        return unstamped && update(connection, sql.adopt()) > 0 ? ADOPTED : 0;
    }

    private static final int ADOPTED = 1;
    private static final int ELSEWHERE = 2;

    /**
     * Treats every row another server wrote as held for one more lease from now, and marks the table so that no
     * missing row is inserted before then. The lease is the longest the table records, or {@code ttlMillis} where
     * that is longer: whoever holds a row on the lost primary may have taken it there, during the replica's lag, with
     * any ttl the fleet uses, and not the one (if any) the promoted copy records for that row.
     */
    private void fence(Connection connection, Sql sql, long ttlMillis) throws SQLException {
        long fenceMillis = Math.max(ttlMillis, longestRecordedTtl(connection, sql));
        // The mark first, each statement committing on its own: once any row is stamped with this server, an
        // instance that reads the table sees no sign of the promotion but the mark, so the mark must already be there
        // (and if this instance dies between the two, the rows still show the promotion to the next one).
        int marked;
        try (PreparedStatement extend = statements.prepare(connection, sql.extendMark())) {
            bindFence(sql, extend, fenceMillis);
            marked = extend.executeUpdate();
        }
        if (marked == 0) {
            try (PreparedStatement mark = statements.prepare(connection, sql.mark())) {
                bindFence(sql, mark, fenceMillis);
                mark.executeUpdate();
            } catch (SQLException e) {
                // Another instance marked it at the same moment; its fence reaches as far.
                if (!SqlStates.isDuplicateKey(e) && !SqlStates.isDeadlock(e)) {
                    throw e;
                }
            }
        }
        int fenced;
        try (PreparedStatement fence = statements.prepare(connection, sql.fence())) {
            bindFence(sql, fence, fenceMillis);
            fenced = fence.executeUpdate();
        }
        update(connection, sql.adopt());
        if (fenced == 0) {
            return; // another instance fenced them first
        }
        failovers.record("The worker id lease table " + table + " holds " + fenced + " rows another database server"
                + " wrote: this one is a promoted copy that may have lost leases, so every such worker id counts as"
                + " held for " + fenceMillis + " ms more (the longest ttl the table records, or this instance's where"
                + " longer), and none without a row is handed out before then");
    }

    private static void bindFence(Sql sql, PreparedStatement statement, long fenceMillis) throws SQLException {
        statement.setLong(1, fenceMillis);
        if (sql.recordsTtl()) {
            statement.setLong(2, fenceMillis);
        }
    }

    /**
     * @return the longest ttl recorded in the table (the failover mark's included, which keeps the longest of an
     *         earlier fence), or 0 where none is
     */
    private long longestRecordedTtl(Connection connection, Sql sql) throws SQLException {
        if (!sql.recordsTtl()) {
            return 0;
        }
        try (PreparedStatement select = statements.prepare(connection, sql.longestTtl());
                ResultSet result = select.executeQuery()) {
            return result.next() ? Math.max(0, result.getLong(1)) : 0;
        }
    }

    private int update(Connection connection, String sql) throws SQLException {
        try (PreparedStatement update = statements.prepare(connection, sql)) {
            return update.executeUpdate();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>A missing row (deleted by hand: a database does not lose rows) is inserted again for a holder that is still
     * valid; the insert fails if anyone else inserted it meanwhile.
     */
    @Override
    public boolean renew(
            long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp, boolean heldValidly) {
        checkOwner(owner);
        if (!heldValidly) {
            return false;
        }
        long ttlMillis = ttl.toMillis();
        return statements.execute("renew worker id " + workerId, (connection, sql) -> {
            checkOwnerFits(sql, owner);
            if (renewOnce(connection, sql, workerId, owner, ttlMillis, lastTimestamp)) {
                return true;
            }
            // On a promoted copy the row may carry another server's (or no) stamp: stamp the table, then try again.
            if (sql.stamped()
                    && fenceIfPromoted(connection, sql, ttlMillis)
                    && renewOnce(connection, sql, workerId, owner, ttlMillis, lastTimestamp)) {
                return true;
            }
            // No row matched: either it is missing, or someone else holds it, in which case the insert fails. How
            // the lost row's lease was granted is not known.
            return insert(
                    connection, sql, workerId, owner, ttlMillis, Math.max(-1, lastTimestamp), Acquisition.UNKNOWN_TTL);
        });
    }

    /**
     * @return whether {@code owner} still held the row, written by this server, and extended it
     */
    private boolean renewOnce(
            Connection connection, Sql sql, long workerId, String owner, long ttlMillis, long lastTimestamp)
            throws SQLException {
        try (PreparedStatement renew = statements.prepare(connection, sql.renew())) {
            int parameter = 1;
            renew.setString(parameter++, owner);
            renew.setLong(parameter++, ttlMillis);
            renew.setLong(parameter++, lastTimestamp);
            if (sql.recordsTtl()) {
                renew.setLong(parameter++, ttlMillis);
            }
            renew.setLong(parameter++, workerId);
            renew.setString(parameter, owner);
            return renew.executeUpdate() > 0;
        }
    }

    @Override
    public void release(long workerId, String owner, long lastTimestamp) {
        checkOwner(owner);
        statements.execute("release worker id " + workerId, (connection, sql) -> {
            checkOwnerFits(sql, owner);
            for (int attempt = 0; attempt < 2; attempt++) {
                try (PreparedStatement release = statements.prepare(connection, sql.release())) {
                    release.setLong(1, lastTimestamp);
                    release.setLong(2, workerId);
                    release.setString(3, owner);
                    if (release.executeUpdate() > 0
                            || !sql.stamped()
                            || !fenceIfPromoted(connection, sql, longestTtlMillis)) {
                        return null;
                    }
                }
            }
            return null;
        });
    }

    /**
     * Fences the table if a row in it was written by another server, or carries no writer yet.
     *
     * @return whether rows were stamped with this server, so that a statement restricted to this server's rows may
     *         now match
     */
    private boolean fenceIfPromoted(Connection connection, Sql sql, long ttlMillis) throws SQLException {
        int found = read(connection, sql, Long.MAX_VALUE, new HashMap<>(), new long[] {Long.MIN_VALUE});
        if (found == ELSEWHERE) {
            fence(connection, sql, ttlMillis);
        }
        return found != 0;
    }

    /**
     * @return what this store knows about failovers of its database to a promoted replica
     */
    public JdbcFailovers failovers() {
        return failovers;
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
            statements.schema().probeTable(connection);
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
     * @param previousTtlMillis the grant to record, see {@link #GRANT_MS}
     * @return whether this insert created the row; false when another instance's did
     */
    private boolean insert(
            Connection connection,
            Sql sql,
            long workerId,
            String owner,
            long ttlMillis,
            long lastTimestamp,
            long previousTtlMillis)
            throws SQLException {
        try (PreparedStatement insert = statements.prepare(connection, sql.insert())) {
            int parameter = 1;
            insert.setLong(parameter++, workerId);
            insert.setString(parameter++, owner);
            insert.setLong(parameter++, ttlMillis);
            insert.setLong(parameter++, lastTimestamp);
            if (sql.recordsTtl()) {
                insert.setLong(parameter++, ttlMillis);
            }
            if (sql.recordsGrant()) {
                bindGrant(insert, parameter, previousTtlMillis);
            }
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            // Concurrent inserts of one key deadlock on InnoDB when the first of them rolls back (a timeout); the
            // database let one of the others go ahead, so this one lost the race as surely as with a duplicate key.
            if (SqlStates.isDuplicateKey(e) || SqlStates.isDeadlock(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * @param previousTtlMillis the grant to record, see {@link #GRANT_MS}
     * @return whether this update took the expired row; false when another instance changed it since it was read
     */
    private boolean take(
            Connection connection,
            Sql sql,
            long workerId,
            String owner,
            long ttlMillis,
            long reuseDelayMillis,
            long version,
            long previousTtlMillis)
            throws SQLException {
        try (PreparedStatement take = statements.prepare(connection, sql.take())) {
            int parameter = 1;
            take.setString(parameter++, owner);
            take.setLong(parameter++, ttlMillis);
            if (sql.recordsTtl()) {
                take.setLong(parameter++, ttlMillis);
            }
            if (sql.recordsGrant()) {
                bindGrant(take, parameter++, previousTtlMillis);
            }
            take.setLong(parameter++, workerId);
            take.setLong(parameter++, version);
            // Checked again, though the version alone proves the row unchanged, so that a row edited by hand
            // without a new version is still never taken while its lease lasts.
            take.setLong(parameter, reuseDelayMillis);
            return take.executeUpdate() > 0;
        }
    }

    /**
     * @return whether {@code owner} still held the row, unchanged since it was read, and extended its lease
     */
    private boolean reclaim(Connection connection, Sql sql, long workerId, String owner, long ttlMillis, long version)
            throws SQLException {
        try (PreparedStatement reclaim = statements.prepare(connection, sql.reclaim())) {
            int parameter = 1;
            reclaim.setLong(parameter++, ttlMillis);
            if (sql.recordsTtl()) {
                reclaim.setLong(parameter++, ttlMillis);
            }
            reclaim.setLong(parameter++, workerId);
            reclaim.setLong(parameter++, version);
            reclaim.setString(parameter, owner);
            return reclaim.executeUpdate() > 0;
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
            throw new InvalidArgumentException(
                    "owner", owner, "owner must be 1 to " + MAX_OWNER_LENGTH + " characters, but was '" + owner + "'");
        }
    }

    @Override
    public String toString() {
        return "JdbcWorkerIdLeaseStore[table=" + table + "]";
    }
}
