package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * How every idgen store reaches its table: plain JDBC on a {@link DataSource}, one borrowed connection per operation,
 * in auto-commit, with bounded waits.
 *
 * <p>Each operation borrows a connection of its own and switches it to auto-commit while it works, so every statement
 * commits on its own, before its result is handed out: idgen never joins, and is never rolled back with, an
 * application's transaction, whatever the pool's auto-commit default. (The DataSource must therefore be a plain pool,
 * not a proxy that hands out the connection of the caller's transaction.) What the operation changed on the
 * connection is put back before it returns to the pool.
 *
 * <p>On the first connection the database is identified ({@link DatabaseDialect}), the table created if
 * {@link SchemaInitialization} says so ({@link TableSchema}, which also checks the columns later versions added), and
 * the store's statements built once for that database by its {@link Preparation}; a failed preparation is tried again by the next operation, so a store starts while its
 * database is down.
 *
 * <p>Every statement has a query timeout of {@code timeout} rounded up to whole seconds (unless its caller has bounded
 * the connection's reads more tightly itself: {@link #prepare(Connection, String, boolean)}). A query timeout is
 * enforced by the server (MariaDB's {@code max_statement_time}) or by a cancel request (PostgreSQL), which does
 * nothing while the server or the network is silent; so the connection's socket reads are bounded too, a little later
 * (the query timeout, which leaves the connection usable, normally fires first), unless its pool or driver already
 * bounds them as tightly. Setting it is a socket option, not a round trip.
 *
 * <p>Failures become {@link StoreUnavailableException} naming the operation and the table; a table that is not
 * there, {@link TableMissingException} naming the DDL to create it from. What a failed statement means (a missing
 * table, a broken connection, a duplicate key) is read by {@link SqlStates}; the statement that advances a counter row
 * and reads its new value back is {@link RowCounter}, its text per dialect {@link RowCounterSql}.
 *
 * @param <S> the store's statements for one database
 */
final class JdbcStatements<S> {

    /** Builds a store's statements once the database is known; may run checks of its own on the connection. */
    @FunctionalInterface
    interface Preparation<S> {
        S prepare(Connection connection, DatabaseDialect dialect) throws SQLException;
    }

    /** One operation's work on a borrowed connection. */
    @FunctionalInterface
    interface Work<S, T> {
        T run(Connection connection, S statements) throws SQLException;
    }

    /** Only used to abort a connection whose network timeout ran out, which needs no thread of its own. */
    static final Executor IN_CALLER = Runnable::run;

    /** What {@link RowCounter#advance} returns when no row matched. */
    static final long NO_ROW = Long.MIN_VALUE;

    private final DataSource dataSource;
    private final String description;
    private final String kind;
    private final String table;
    private final SchemaInitialization schemaInitialization;
    private final Function<String, StoreUnavailableException> unsupportedDatabase;
    private final Preparation<S> preparation;
    private final int timeoutSeconds;
    private final int networkTimeoutMillis;
    private final TableSchema schema;
    private volatile S statements;
    /** The database, once a connection has identified it: names the DDL when the table turns out to be missing. */
    private volatile DatabaseDialect dialect;

    /**
     * @param dataSource the database, a plain connection pool
     * @param description the table in words for messages, e.g. {@code "the segment table idgen_segment"}
     * @param kind which DDL to create: {@code segment}, {@code ticket} or {@code worker}
     * @param table the table, already checked by {@link SqlIdentifiers}
     * @param schemaInitialization when to create the table
     * @param timeout the longest one statement may take, rounded up to whole seconds (at least one)
     * @param unsupportedDatabase the failure for a database idgen has no statements for, given the reason; with
     *        {@code null} such a database fails the operation like any other error
     * @param preparation builds the store's statements for the database found
     */
    JdbcStatements(
            DataSource dataSource,
            String description,
            String kind,
            String table,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            Function<String, StoreUnavailableException> unsupportedDatabase,
            Preparation<S> preparation) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.description = description;
        this.kind = kind;
        this.table = table;
        this.schemaInitialization = Objects.requireNonNull(schemaInitialization, "schemaInitialization");
        this.unsupportedDatabase = unsupportedDatabase;
        this.preparation = preparation;
        this.timeoutSeconds = timeoutSeconds(timeout);
        this.networkTimeoutMillis = (timeoutSeconds + 2) * 1000;
        this.schema = new TableSchema(description, kind, table, this.schemaInitialization, timeoutSeconds);
    }

    /**
     * @param timeout a store's timeout
     * @return it in whole seconds, rounded up, at least one and small enough to add to
     */
    private static int timeoutSeconds(Duration timeout) {
        long millis = Objects.requireNonNull(timeout, "timeout").toMillis();
        return (int) Math.min(Integer.MAX_VALUE / 1000 - 2, Math.max(1, (millis + 999) / 1000));
    }

    /**
     * Runs {@code work} on a connection of its own in auto-commit.
     *
     * @param operation what it does, for the message: "Could not <i>operation</i> in <i>description</i>"
     * @return what {@code work} returned
     * @throws StoreUnavailableException when the database could not be reached or a statement failed
     */
    <T> T execute(String operation, Work<S, T> work) {
        return execute(operation, work, false);
    }

    /**
     * Like {@link #execute}, but makes a second attempt on another connection when no connection could be borrowed or
     * the one borrowed turned out to be broken: after a database restart the pool's first connection often is, and a
     * pool still reconnecting may not lend one in time. A statement that merely timed out or failed is not repeated.
     * Only for work whose repetition can waste values (a gap) but never hand one out twice: each attempt advances
     * the row again.
     */
    <T> T executeRetryingOnce(String operation, Work<S, T> work) {
        return execute(operation, work, true);
    }

    private <T> T execute(String operation, Work<S, T> work, boolean retry) {
        return retryingOnce(operation, retry, again -> attempt(work));
    }

    /** One attempt at a call; {@code again} says it is the second. */
    @FunctionalInterface
    interface Attempt<T> {
        T run(boolean again) throws SQLException, Retryable;
    }

    /**
     * Runs {@code attempt}, and when {@code retry} and it failed with {@link Retryable} (no connection, or a broken
     * one), once more; reports the failure, the first one's suppressed under the second's, as the store does.
     */
    <T> T retryingOnce(String operation, boolean retry, Attempt<T> attempt) {
        Exception failure;
        try {
            return attempt.run(false);
        } catch (Retryable first) {
            failure = first.getCause();
            if (retry) {
                try {
                    return attempt.run(true);
                } catch (Retryable second) {
                    second.getCause().addSuppressed(failure);
                    failure = second.getCause();
                } catch (SQLException | RuntimeException second) {
                    second.addSuppressed(failure);
                    failure = second;
                }
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
        }
        throw unavailable(operation, failure);
    }

    /**
     * @param operation what failed, for the message: "Could not <i>operation</i> in <i>description</i>"
     * @return {@code failure} as the store reports it
     */
    StoreUnavailableException unavailable(String operation, Exception failure) {
        if (failure instanceof StoreUnavailableException unavailable) {
            return unavailable;
        }
        DatabaseDialect known = dialect;
        if (failure instanceof SQLException sql && SqlStates.isMissingTable(sql) && known != null) {
            String resource = known.ddlResource(kind);
            return new TableMissingException(
                    Character.toUpperCase(description.charAt(0)) + description.substring(1)
                            + " does not exist (schema initialization "
                            + schemaInitialization.name().toLowerCase(Locale.ROOT) + "); create it from " + resource
                            + " (could not "
                            + operation + ": " + sql.getMessage() + ")",
                    table,
                    kind,
                    resource,
                    failure);
        }
        // Pools report a database they cannot reach with unchecked exceptions too (Hikari's first connection).
        return new StoreUnavailableException(
                "Could not " + operation + " in " + description + ": " + failure.getMessage(), failure);
    }

    /** A failure worth one more attempt on another connection: none could be borrowed, or the one borrowed broke. */
    static final class Retryable extends Exception {

        private static final long serialVersionUID = 1L;

        Retryable(Exception cause) {
            super(cause.getMessage(), cause, false, false);
        }

        @Override
        public synchronized Exception getCause() {
            return (Exception) super.getCause();
        }
    }

    private <T> T attempt(Work<S, T> work) throws SQLException, Retryable {
        Connection borrowed;
        try {
            borrowed = dataSource.getConnection();
        } catch (SQLException | RuntimeException e) {
            throw new Retryable(e);
        }
        try (Connection connection = borrowed) {
            boolean autoCommit = connection.getAutoCommit();
            int networkTimeout = networkTimeout(connection);
            boolean bound = networkTimeout == 0 || networkTimeout > networkTimeoutMillis;
            T result;
            try {
                if (!autoCommit) {
                    // Each statement must commit at once, so that no other instance waits on a lock it holds and no
                    // later rollback (ours or the application's) undoes a value already handed out.
                    connection.setAutoCommit(true);
                }
                if (bound) {
                    connection.setNetworkTimeout(IN_CALLER, networkTimeoutMillis);
                }
                result = work.run(connection, statements(connection));
            } catch (SQLException e) {
                restore(connection, autoCommit, bound ? networkTimeout : -1, e);
                if (SqlStates.isBrokenConnection(e)) {
                    throw new Retryable(e);
                }
                throw e;
            } catch (RuntimeException e) {
                restore(connection, autoCommit, bound ? networkTimeout : -1, e);
                throw e;
            }
            restore(connection, autoCommit, bound ? networkTimeout : -1, null);
            return result;
        }
    }

    /**
     * Puts back what {@link #attempt} changed, as the pool lent it; a failure there is added to {@code failure}
     * rather than hiding it.
     */
    private static void restore(Connection connection, boolean autoCommit, int networkTimeout, Exception failure)
            throws SQLException {
        try {
            if (networkTimeout >= 0) {
                connection.setNetworkTimeout(IN_CALLER, networkTimeout);
            }
            if (!autoCommit) {
                connection.setAutoCommit(false);
            }
        } catch (SQLException | RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /**
     * @return the connection's network timeout, or -1 when its driver has none to set
     */
    static int networkTimeout(Connection connection) throws SQLException {
        try {
            return connection.getNetworkTimeout();
        } catch (SQLFeatureNotSupportedException | AbstractMethodError e) {
            return -1;
        }
    }

    /**
     * @return the table in words, e.g. {@code "the segment table idgen_segment"}
     */
    String description() {
        return description;
    }

    /** The database product and URL (without credentials), read once with the first connection's metadata. */
    private volatile String database;

    /**
     * For descriptions ({@code toString}), never a database call.
     *
     * @return for example {@code MariaDB jdbc:mariadb://127.0.0.1:3306/test}, or {@code a database not reached yet}
     *         before a connection has identified it
     */
    String database() {
        String known = database;
        return known != null ? known : "a database not reached yet";
    }

    /**
     * @return the store's table as idgen creates and checks it
     */
    TableSchema schema() {
        return schema;
    }

    /**
     * @return the store's statements once a connection has prepared them, otherwise {@code null}
     */
    S prepared() {
        return statements;
    }

    /**
     * @return the store's statements, prepared on {@code connection} (identifying the database, creating the table)
     *         the first time
     */
    S statements(Connection connection) throws SQLException {
        S known = statements;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (statements == null) {
                DatabaseMetaData metaData = connection.getMetaData();
                DatabaseDialect dialect;
                try {
                    dialect = DatabaseDialect.of(metaData.getDatabaseProductName());
                } catch (IllegalStateException e) {
                    if (unsupportedDatabase == null) {
                        throw e;
                    }
                    throw unsupportedDatabase.apply(e.getMessage());
                }
                this.dialect = dialect;
                this.database =
                        metaData.getDatabaseProductName() + " " + JdbcUrls.withoutCredentials(metaData.getURL());
                if (schemaInitialization.createsTableOn(dialect, metaData.getURL())) {
                    schema.createTable(connection, dialect);
                }
                statements = preparation.prepare(connection, dialect);
            }
            return statements;
        }
    }

    /**
     * @return a statement of the connection with this store's query timeout; the caller closes it
     */
    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        return prepare(connection, sql, true);
    }

    /**
     * @param queryTimeout whether to give the statement this store's query timeout: not when the caller has bounded
     *        the connection's reads more tightly already (a query timeout costs on every statement: MariaDB's driver
     *        prefixes it as {@code SET STATEMENT max_statement_time=n FOR}, PostgreSQL's schedules a timer task)
     * @return a statement of the connection; the caller closes it
     */
    PreparedStatement prepare(Connection connection, String sql, boolean queryTimeout) throws SQLException {
        PreparedStatement prepared = connection.prepareStatement(sql);
        if (queryTimeout) {
            prepared.setQueryTimeout(timeoutSeconds);
        }
        return prepared;
    }

    /**
     * @return like {@link #prepare(Connection, String, boolean)}, a statement whose update reports its generated keys
     */
    PreparedStatement prepareReturningKeys(Connection connection, String sql, boolean queryTimeout)
            throws SQLException {
        PreparedStatement prepared = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
        if (queryTimeout) {
            prepared.setQueryTimeout(timeoutSeconds);
        }
        return prepared;
    }
}
