package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Duration;
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
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;

/**
 * One Flickr ticket server: a MySQL or MariaDB table with one row per name that hands out
 * {@code offset + k * increment} for k = 1, 2, ..., behind a circuit breaker.
 *
 * <p>Every call runs on a connection of its own in real auto-commit, outside any application transaction: the
 * {@code UPDATE} is committed before its ID is handed out, whatever the pool's auto-commit default, and an application
 * transaction that rolls back cannot take an issued ID back. For that the server uses a MyBatis configuration of its
 * own (plain JDBC transactions, no cache) on the DataSource, rather than the application's Spring-managed one.
 *
 * <p>The breaker opens on a failure; once {@code retryAfter} has passed (on the monotonic clock), exactly one caller
 * probes the server, and a success closes it again.
 *
 * <p>Every database call runs on a small executor of the server's own while the caller waits at most the timeout: a
 * database that stops answering (stopped, paused, a dropped network) can hold a connection attempt, a pool's
 * acquisition or its validation, and a socket read far longer than any statement timeout, and none of those is the
 * caller's to wait for. A call that times out is interrupted; its connection goes back to the pool when the driver
 * lets go. Such a call may still have advanced the row: that wastes IDs (a gap), never repeats one.
 */
public final class TicketServer implements AutoCloseable {

    private static final int INSERT_ATTEMPTS = 3;

    /** The most database calls one server runs at once; more wait in line, within their own timeout. */
    private static final int MAX_CONCURRENT_CALLS = 64;

    /** {@link #openUntil} while the breaker is closed. */
    private static final long CLOSED = Long.MIN_VALUE;

    /** MySQL's and MariaDB's SQLState for "table doesn't exist". */
    private static final String NO_SUCH_TABLE = "42S02";

    private final String id;
    private final SqlSessionFactory sessions;
    private final DataSource dataSource;
    private final String table;
    private final int offset;
    private final int increment;
    private final SchemaInitialization schemaInitialization;
    private final long retryAfterNanos;
    private final long timeoutNanos;
    private final TimeSource timeSource;
    private final int networkTimeoutMillis;
    private final ThreadPoolExecutor executor;
    private volatile boolean prepared;

    /** {@link #CLOSED}; otherwise the {@link TimeSource#nanoTime()} from which one probe may go through. */
    private final AtomicLong openUntil = new AtomicLong(CLOSED);
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong issued = new AtomicLong();
    private volatile String lastError;

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param createTable whether to create the table on first use ({@link SchemaInitialization#ALWAYS}) or never
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included
     * @param retryAfter how long the breaker stays open after a failure
     * @param timeSource the clock for the breaker
     */
    public TicketServer(String id, DataSource dataSource, String table, int offset, int increment,
            boolean createTable, Duration timeout, Duration retryAfter, TimeSource timeSource) {
        this(id, dataSource, table, offset, increment, createTable ? SchemaInitialization.ALWAYS
                : SchemaInitialization.NEVER, timeout, retryAfter, timeSource);
    }

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param schemaInitialization when to create the table on first use (MySQL and MariaDB are never embedded)
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included
     * @param retryAfter how long the breaker stays open after a failure
     * @param timeSource the monotonic clock for the breaker
     */
    public TicketServer(String id, DataSource dataSource, String table, int offset, int increment,
            SchemaInitialization schemaInitialization, Duration timeout, Duration retryAfter, TimeSource timeSource) {
        if (increment < 1 || offset < 0 || offset >= increment) {
            throw new IllegalArgumentException("offset must be between 0 and increment - 1 (" + (increment - 1)
                    + "), but was " + offset);
        }
        this.id = id;
        this.dataSource = dataSource;
        this.table = SqlIdentifiers.checkTable("table", table);
        this.offset = offset;
        this.increment = increment;
        this.schemaInitialization = schemaInitialization;
        this.retryAfterNanos = retryAfter.toNanos();
        this.timeoutNanos = timeout.toNanos();
        this.timeSource = timeSource;
        Configuration configuration = new Configuration(
                new Environment("idgen-ticket-" + id, new JdbcTransactionFactory(), dataSource));
        configuration.setCacheEnabled(false);
        // The table is fixed per server, so ${table} is substituted once when the statements are parsed: static SQL,
        // not a dynamic statement rebuilt on every call.
        java.util.Properties variables = new java.util.Properties();
        variables.setProperty("table", this.table);
        configuration.setVariables(variables);
        this.networkTimeoutMillis = (int) Math.max(1, timeout.toMillis());
        configuration.addMapper(TicketMapper.class);
        this.sessions = new SqlSessionFactoryBuilder().build(configuration);
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
        long until = openUntil.get();
        if (until == CLOSED) {
            return true;
        }
        long now = timeSource.nanoTime();
        // Only the caller whose CAS moves the deadline on probes; the others keep skipping the server.
        return now - until >= 0 && openUntil.compareAndSet(until, deadline(now));
    }

    /**
     * @return whether the breaker is open (the last call failed)
     */
    public boolean isOpen() {
        return openUntil.get() != CLOSED;
    }

    private long deadline(long now) {
        long until = now + retryAfterNanos;
        return until == CLOSED ? CLOSED + 1 : until;
    }

    /**
     * Takes {@code count} IDs in one round trip.
     *
     * @return the last of them; the others are {@code last - k * increment} for k from 1 to count - 1
     * @throws StoreUnavailableException when the server fails; the breaker opens
     */
    public long take(String name, int count) {
        calls.incrementAndGet();
        try {
            long last = bounded(() -> {
                try {
                    return takeOnce(name, count);
                } catch (PersistenceException e) {
                    // One retry, for a pooled connection the server closed (after a restart). A retry can waste IDs
                    // (a gap) but never repeat one: each attempt advances the row again.
                    return takeOnce(name, count);
                }
            });
            // Read before write: many threads rewriting these shared words on every call would contend.
            if (openUntil.get() != CLOSED) {
                openUntil.set(CLOSED);
            }
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
     * is reported as such.
     *
     * @throws TicketTableMissingException when the database answered but the table is not there
     * @throws UnsupportedTicketDatabaseException when the database is neither MySQL nor MariaDB
     * @throws StoreUnavailableException when the database could not be reached
     */
    public void checkTable() {
        try {
            bounded(() -> {
                prepare();
                return null;
            });
        } catch (TicketTableMissingException | UnsupportedTicketDatabaseException e) {
            throw e;
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    private StoreUnavailableException failed(RuntimeException e) {
        errors.incrementAndGet();
        lastError = String.valueOf(e.getMessage());
        openUntil.set(deadline(timeSource.nanoTime()));
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

    private long takeOnce(String name, int count) {
        prepare();
        for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
            // One session, one connection, real auto-commit: the UPDATE commits on its own (its row lock lasts this
            // one statement) and LAST_INSERT_ID() reads the value it left on the same connection. Two round trips.
            try (SqlSession session = sessions.openSession(ExecutorType.SIMPLE, true)) {
                bound(session.getConnection());
                TicketMapper tickets = session.getMapper(TicketMapper.class);
                if (tickets.advance(table, name, count, increment) == 1) {
                    return tickets.lastInsertId();
                }
                Integer existing = tickets.incrementOf(table, name);
                if (existing != null && existing != increment) {
                    throw new StoreUnavailableException("The ticket row for '" + name + "' on server " + id
                            + " was written for " + existing + " servers, but " + increment + " are configured now;"
                            + " its IDs would collide with another server's. Migrate the rows before changing the"
                            + " number of servers");
                }
                try {
                    tickets.insert(table, name, offset, increment);
                } catch (PersistenceException e) {
                    if (!(e.getCause() instanceof SQLIntegrityConstraintViolationException)) {
                        throw e;
                    }
                    // Another client created the row first.
                }
            }
        }
        throw new StoreUnavailableException("The row for '" + name + "' in " + table + " could not be created");
    }

    /**
     * Bounds every read on the connection, so a database that stops answering (not just refusing) fails the call
     * instead of hanging it. A socket option, no round trip; the pool restores its own setting on return.
     */
    private void bound(Connection connection) {
        try {
            connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
        } catch (SQLException e) {
            throw new StoreUnavailableException("Could not bound ticket server " + id + "'s connection: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Administrative reset of one name to its start. See {@link TicketIdService#reset(String)}.
     */
    void reset(String name) {
        bounded(() -> {
            prepare();
            try (SqlSession session = sessions.openSession(ExecutorType.SIMPLE, true)) {
                return session.getMapper(TicketMapper.class).reset(table, name, offset, increment);
            }
        });
    }

    private void prepare() {
        if (prepared) {
            return;
        }
        synchronized (this) {
            if (!prepared) {
                try (Connection connection = dataSource.getConnection()) {
                    DatabaseDialect dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
                    if (dialect != DatabaseDialect.MYSQL) {
                        throw new UnsupportedTicketDatabaseException("Ticket server " + id + " is " + dialect
                                + ": the ticket strategy needs MySQL or MariaDB (LAST_INSERT_ID)");
                    }
                    connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
                    if (schemaInitialization.createsTableOn(dialect, connection.getMetaData().getURL())) {
                        try (Statement statement = connection.createStatement()) {
                            statement.execute(dialect.ddl("ticket", table));
                        }
                        if (!connection.getAutoCommit()) {
                            connection.commit();
                        }
                    }
                    checkTableExists(connection);
                    prepared = true;
                } catch (SQLException e) {
                    throw new StoreUnavailableException("Could not prepare ticket server " + id + ": " + e.getMessage(), e);
                }
            }
        }
    }

    private void checkTableExists(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT name FROM " + table + " WHERE 1 = 0").close();
        } catch (SQLException e) {
            if (NO_SUCH_TABLE.equals(e.getSQLState()) || e.getErrorCode() == 1146) {
                throw new TicketTableMissingException(id, table, schemaInitialization, e);
            }
            throw e;
        } finally {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        }
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
