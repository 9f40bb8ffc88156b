package dev.idgen.jdbc;

import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * One Flickr ticket server: a table with one row per name, on MySQL, MariaDB, PostgreSQL or H2, that hands out
 * {@code offset + k * increment} for k = 1, 2, ..., behind a {@link CircuitBreaker}. DDL in
 * {@code META-INF/idgen/ticket-*.sql}.
 *
 * <p>A call is one statement that advances the row by {@code count * increment} and reads the new value back on the
 * same connection ({@code UPDATE ... RETURNING} on PostgreSQL, {@code FINAL TABLE} on H2,
 * {@code LAST_INSERT_ID(expr)} and {@code SELECT LAST_INSERT_ID()} on MySQL and MariaDB).
 * The row lock lasts that one statement, so concurrent clients queue instead of
 * deadlocking as Flickr's {@code REPLACE INTO} does on InnoDB.
 *
 * <p>Every call runs on a connection of its own in auto-commit, outside any application transaction: the update is
 * committed before its ID is handed out, whatever the pool's auto-commit default, and an application transaction that
 * rolls back cannot take an issued ID back.
 *
 * <p>Each row records the increment (the number of servers) it was written with, and only a server with that
 * increment advances it: a server count changed without migrating the rows would otherwise hand out IDs another
 * server also hands out.
 *
 * <p>The breaker opens on a failure; once {@code retryAfter} has passed (on the monotonic clock), exactly one caller
 * probes the server, and a success closes it again.
 *
 * <p>Every database call runs on a small executor of the server's own while the caller waits at most the timeout: a
 * database that stops answering (stopped, paused, a dropped network) can hold a connection attempt, a pool's
 * acquisition or its validation far longer than any statement timeout, and none of those is the caller's to wait for.
 * A call that times out is interrupted; its connection goes back to the pool when the driver lets go. Such a call may
 * still have advanced the row: that wastes IDs (a gap), never repeats one.
 */
public final class TicketServer implements AutoCloseable {

    private static final int INSERT_ATTEMPTS = 3;

    /** The most database calls one server runs at once; more wait in line, within their own timeout. */
    private static final int MAX_CONCURRENT_CALLS = 64;

    private final String id;
    private final String table;
    private final int offset;
    private final int increment;
    private final SchemaInitialization schemaInitialization;
    private final long timeoutNanos;
    private final JdbcStatements<Sql> statements;
    private final CircuitBreaker breaker;
    private final ThreadPoolExecutor executor;

    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong issued = new AtomicLong();
    private volatile String lastError;

    /** The statements of one dialect, built once the database is known. */
    private record Sql(DatabaseDialect dialect, JdbcStatements.Counter advance, String incrementOf, String insert,
            String reset) {

        static Sql of(DatabaseDialect dialect, String table) {
            // Only id moves on the hot path: nothing reads update_time. The insert, once per name, still fills it,
            // for tables created without its default.
            return new Sql(dialect, JdbcStatements.Counter.of(dialect, table, "id", "increment"),
                    "SELECT increment FROM " + table + " WHERE name = ?",
                    "INSERT INTO " + table + " (name, id, increment, update_time) VALUES (?, ?, ?, CURRENT_TIMESTAMP)",
                    "UPDATE " + table + " SET id = ? WHERE name = ? AND increment = ?");
        }
    }

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database, a plain connection pool
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param createTable whether to create the table on first use ({@link SchemaInitialization#ALWAYS}) or never
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included
     * @param retryAfter how long the breaker stays open after a failure
     * @param timeSource the monotonic clock for the breaker
     */
    public TicketServer(String id, DataSource dataSource, String table, int offset, int increment,
            boolean createTable, Duration timeout, Duration retryAfter, TimeSource timeSource) {
        this(id, dataSource, table, offset, increment, createTable ? SchemaInitialization.ALWAYS
                : SchemaInitialization.NEVER, timeout, retryAfter, timeSource);
    }

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database, a plain connection pool
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param schemaInitialization when to create the table on first use
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included;
     *        each statement's own timeout is this rounded up to whole seconds
     * @param retryAfter how long the breaker stays open after a failure, from 0 to
     *        {@link CircuitBreaker#MAX_OPEN_DURATION}
     * @param timeSource the monotonic clock for the breaker
     * @throws InvalidArgumentException naming {@code offset}, {@code table} or {@code retryAfter} when it breaks its
     *         rule
     */
    public TicketServer(String id, DataSource dataSource, String table, int offset, int increment,
            SchemaInitialization schemaInitialization, Duration timeout, Duration retryAfter, TimeSource timeSource) {
        if (increment < 1 || offset < 0 || offset >= increment) {
            throw new InvalidArgumentException("offset", offset, "offset must be between 0 and increment - 1 ("
                    + (increment - 1) + "), but was " + offset);
        }
        this.id = Objects.requireNonNull(id, "id");
        this.table = SqlIdentifiers.checkTable("table", table);
        this.offset = offset;
        this.increment = increment;
        this.schemaInitialization = Objects.requireNonNull(schemaInitialization, "schemaInitialization");
        this.timeoutNanos = Objects.requireNonNull(timeout, "timeout").toNanos();
        if (retryAfter == null || retryAfter.isNegative()
                || retryAfter.compareTo(CircuitBreaker.MAX_OPEN_DURATION) > 0) {
            throw new InvalidArgumentException("retryAfter", retryAfter, "retryAfter must be between 0 and "
                    + CircuitBreaker.MAX_OPEN_DURATION + ", but was " + retryAfter);
        }
        this.breaker = new CircuitBreaker(retryAfter, timeSource);
        this.statements = new JdbcStatements<>(dataSource, "the ticket table " + this.table + " on ticket server " + id,
                "ticket", this.table, schemaInitialization, timeout,
                reason -> new UnsupportedTicketDatabaseException("Ticket server " + id + ": " + reason),
                this::prepare);
        AtomicInteger threads = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(MAX_CONCURRENT_CALLS, MAX_CONCURRENT_CALLS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "idgen-ticket-" + id + "-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        this.executor.allowCoreThreadTimeOut(true);
    }

    /**
     * @return whether a call may go to this server now: the breaker is closed, or this caller won the one probe
     *         allowed once the retry-after has passed
     */
    public boolean tryAcquire() {
        return breaker.tryAcquire();
    }

    /**
     * @return whether the breaker is open or being probed (the last call failed)
     */
    public boolean isOpen() {
        return breaker.isOpen();
    }

    /**
     * Takes {@code count} IDs in one statement.
     *
     * @return the last of them; the others are {@code last - k * increment} for k from 1 to count - 1
     * @throws StoreUnavailableException when the server fails; the breaker opens
     */
    public long take(String name, int count) {
        calls.incrementAndGet();
        try {
            // A connection found broken (after a restart) is replaced once: each attempt advances the row again, so
            // a retry can waste IDs (a gap) but never repeat one.
            long last = bounded(() -> statements.executeRetryingOnce("take IDs",
                    (connection, sql) -> takeOnce(connection, sql, name, count)));
            breaker.onSuccess();
            // Read before write: many threads rewriting this shared word on every call would contend.
            if (lastError != null) {
                lastError = null;
            }
            issued.addAndGet(count);
            return last;
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * Connects, creates the table if configured, and checks that it is there, within the timeout: the start-up check.
     * A database that does not answer is a failure like any other call's (the breaker opens); a table that is missing
     * or a database idgen has no statements for is reported as such.
     *
     * @throws TicketTableMissingException when the database answered but the table is not there
     * @throws UnsupportedTicketDatabaseException when the database is not MySQL, MariaDB, PostgreSQL or H2
     * @throws StoreUnavailableException when the database could not be reached
     */
    public void checkTable() {
        try {
            bounded(() -> statements.execute("check the table", (connection, sql) -> {
                probe(connection, sql.dialect());
                return null;
            }));
        } catch (TicketTableMissingException | UnsupportedTicketDatabaseException e) {
            throw e;
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    private StoreUnavailableException failed(RuntimeException e) {
        if (Thread.currentThread().isInterrupted()) {
            // The caller was interrupted: that says nothing about the server.
            breaker.onAbandoned();
        } else {
            errors.incrementAndGet();
            lastError = String.valueOf(e.getMessage());
            breaker.onFailure();
        }
        return e instanceof StoreUnavailableException unavailable ? unavailable
                : new StoreUnavailableException("Ticket server " + id + " failed: " + e.getMessage(), e);
    }

    /**
     * Runs {@code work} on this server's executor and waits at most the timeout for it.
     */
    private <T> T bounded(Callable<T> work) {
        Future<T> future;
        try {
            future = executor.submit(work);
        } catch (RejectedExecutionException e) {
            throw new StoreUnavailableException("Ticket server " + id + " is shut down", e);
        }
        try {
            return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // Interrupting frees a wait for the pool at once; a blocked socket read ends at its network timeout.
            future.cancel(true);
            throw new StoreUnavailableException("Ticket server " + id + " did not answer within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (idgen.jdbc.timeout)", e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while waiting for ticket server " + id, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new StoreUnavailableException("Ticket server " + id + " failed: " + cause.getMessage(), cause);
        }
    }

    /**
     * Stops this server's executor; calls after this fail.
     */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private long takeOnce(Connection connection, Sql sql, String name, int count) throws SQLException {
        long delta = (long) count * increment;
        try {
            for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
                long last = sql.advance().advance(statements, connection, name, delta, increment);
                if (last != JdbcStatements.NO_ROW) {
                    return last;
                }
                int existing = incrementOf(connection, sql, name);
                if (existing >= 0 && existing != increment) {
                    throw new StoreUnavailableException("The ticket row for '" + name + "' on server " + id
                            + " was written for " + existing + " servers, but " + increment + " are configured now;"
                            + " its IDs would collide with another server's. Migrate the rows before changing the"
                            + " number of servers");
                }
                insertIfAbsent(connection, sql, name);
            }
        } catch (SQLException e) {
            if (JdbcStatements.isMissingTable(e)) {
                throw missing(sql.dialect(), e);
            }
            throw e;
        }
        throw new StoreUnavailableException("The row for '" + name + "' in " + table + " could not be created");
    }

    /**
     * @return the row's increment, or -1 when there is no row
     */
    private int incrementOf(Connection connection, Sql sql, String name) throws SQLException {
        try (PreparedStatement select = statements.prepare(connection, sql.incrementOf())) {
            select.setString(1, name);
            try (ResultSet result = select.executeQuery()) {
                return result.next() ? result.getInt(1) : -1;
            }
        }
    }

    private void insertIfAbsent(Connection connection, Sql sql, String name) throws SQLException {
        try (PreparedStatement insert = statements.prepare(connection, sql.insert())) {
            insert.setString(1, name);
            insert.setLong(2, offset);
            insert.setInt(3, increment);
            insert.executeUpdate();
        } catch (SQLException e) {
            // Another client created the row first (concurrent inserts of one key can also end in a deadlock on
            // InnoDB, with one of them through).
            if (!JdbcStatements.isDuplicateKey(e) && !JdbcStatements.isDeadlock(e)) {
                throw e;
            }
        }
    }

    /**
     * Administrative reset of one name to its start. See {@link TicketIdService#reset(String)}.
     */
    void reset(String name) {
        bounded(() -> statements.execute("reset '" + name + "'", (connection, sql) -> {
            try (PreparedStatement reset = statements.prepare(connection, sql.reset())) {
                reset.setLong(1, offset);
                reset.setString(2, name);
                reset.setInt(3, increment);
                return reset.executeUpdate();
            }
        }));
    }

    /** Builds the statements once the database is known, after checking that the table is there. */
    private Sql prepare(Connection connection, DatabaseDialect dialect) throws SQLException {
        probe(connection, dialect);
        return Sql.of(dialect, table);
    }

    private void probe(Connection connection, DatabaseDialect dialect) throws SQLException {
        try {
            statements.probeTable(connection);
        } catch (SQLException e) {
            if (JdbcStatements.isMissingTable(e)) {
                throw missing(dialect, e);
            }
            throw e;
        }
    }

    private TicketTableMissingException missing(DatabaseDialect dialect, SQLException cause) {
        return new TicketTableMissingException(id, table, schemaInitialization, dialect.ddlResource("ticket"), cause);
    }

    public String id() {
        return id;
    }

    public String table() {
        return table;
    }

    public int offset() {
        return offset;
    }

    public long calls() {
        return calls.get();
    }

    public long errors() {
        return errors.get();
    }

    /**
     * @return how many IDs this server has handed out through this instance
     */
    public long issued() {
        return issued.get();
    }

    public String lastError() {
        return lastError;
    }

    @Override
    public String toString() {
        return "TicketServer[" + id + ", offset " + offset + " of " + increment + "]";
    }
}
