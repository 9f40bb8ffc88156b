package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * One ticket server's table and the statements a round trip sends to it on a connection it is given: advance the
 * name's row (past a failover, see {@link StampedCounter}), refuse a row written for another number of servers, create
 * a missing row, reset one, and see that the table is there. Kept apart from {@link TicketServer}, which decides when
 * and on which thread a round trip runs (combining callers, the breaker, the deadlines), because what is sent to the
 * table does not depend on any of that: it reads and is tested as the SQL work of one round trip.
 */
final class TicketTable {

    private static final int INSERT_ATTEMPTS = 3;

    private final String id;
    private final String table;
    private final int offset;
    private final int increment;
    private final SchemaInitialization schemaInitialization;
    private final JdbcStatements<Sql> statements;
    private final long failoverJump;
    private final JdbcFailovers failovers;

    /**
     * The statements of one dialect, built once the database is known.
     *
     * @param onCallerThread whether a round trip may run on its caller's thread: the driver bounds socket reads by
     *        the network timeout (not H2)
     */
    record Sql(
            DatabaseDialect dialect,
            StampedCounter advance,
            String incrementOf,
            String insert,
            String reset,
            boolean onCallerThread) {

        static Sql of(
                DatabaseDialect dialect,
                String table,
                boolean onCallerThread,
                boolean stamped,
                JdbcFailovers failovers) {
            // Only id moves on the hot path: nothing reads update_time. The insert, once per name, still fills it,
            // for tables created without its default.
            String writer = stamped ? ", " + WriterColumn.NAME : "";
            String identity = stamped ? ", " + WriterColumn.identity(dialect) : "";
            String markerInsert = "INSERT INTO " + table + " (name, id, increment, update_time" + writer
                    + ") VALUES (?, ?, 0, CURRENT_TIMESTAMP" + identity + ")";
            return new Sql(
                    dialect,
                    new StampedCounter(
                            dialect,
                            table,
                            "name",
                            "id",
                            "increment",
                            true,
                            stamped,
                            markerInsert,
                            "ticket",
                            failovers),
                    "SELECT increment FROM " + table + " WHERE name = ?",
                    "INSERT INTO " + table + " (name, id, increment, update_time" + writer
                            + ") VALUES (?, ?, ?, CURRENT_TIMESTAMP" + identity + ")",
                    "UPDATE " + table + " SET id = ?"
                            + (stamped ? ", " + WriterColumn.NAME + " = " + WriterColumn.identity(dialect) : "")
                            + " WHERE name = ? AND increment = ?",
                    onCallerThread);
        }
    }

    /**
     * @param id the server's name, for messages
     * @param dataSource the server's database, a plain connection pool
     * @param table the table name, already checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param schemaInitialization when to create the table on first use
     * @param timeout each statement's timeout, rounded up to whole seconds
     * @param failoverJump how many tickets a row skips after a failover to a promoted copy, already checked; rounded
     *        up here to a multiple of {@code increment}
     */
    TicketTable(
            String id,
            DataSource dataSource,
            String table,
            int offset,
            int increment,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            long failoverJump) {
        this.id = id;
        this.table = table;
        this.offset = offset;
        this.increment = increment;
        this.schemaInitialization = schemaInitialization;
        this.statements = new JdbcStatements<>(
                dataSource,
                "the ticket table " + this.table + " on ticket server " + id,
                "ticket",
                this.table,
                schemaInitialization,
                timeout,
                reason -> new UnsupportedTicketDatabaseException("Ticket server " + id + ": " + reason),
                this::prepare);
        this.failoverJump = (failoverJump + increment - 1) / increment * increment;
        this.failovers = new JdbcFailovers(statements, this.failoverJump);
    }

    /**
     * @return how the table's statements are run: on a connection of their own, built once the database is known
     */
    JdbcStatements<Sql> statements() {
        return statements;
    }

    /**
     * @return what this table knows about failovers of its database to a promoted replica
     */
    JdbcFailovers failovers() {
        return failovers;
    }

    /**
     * @param queryTimeout whether the statements get a query timeout: not on a connection whose reads the caller has
     *        bounded by the time left
     */
    long takeOnce(Connection connection, Sql sql, String name, long floor, int count, boolean queryTimeout)
            throws SQLException {
        long delta = (long) count * increment;
        try {
            for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
                long last = sql.advance()
                        .advance(statements, connection, name, floor, delta, increment, failoverJump, queryTimeout);
                if (last != JdbcStatements.NO_ROW) {
                    return last;
                }
                int existing = incrementOf(connection, sql, name, queryTimeout);
                if (existing >= 0 && existing != increment) {
                    throw new StoreUnavailableException("The ticket row for '" + name + "' on server " + id
                            + " was written for " + existing + " servers, but " + increment + " are configured now;"
                            + " its IDs would collide with another server's. Migrate the rows before changing the"
                            + " number of servers");
                }
                insertIfAbsent(connection, sql, name, queryTimeout);
            }
        } catch (SQLException e) {
            if (SqlStates.isMissingTable(e)) {
                throw missing(sql.dialect(), e);
            }
            throw e;
        }
        throw new StoreUnavailableException("The row for '" + name + "' in " + table + " could not be created");
    }

    /**
     * @return the row's increment, or -1 when there is no row
     */
    private int incrementOf(Connection connection, Sql sql, String name, boolean queryTimeout) throws SQLException {
        try (PreparedStatement select = statements.prepare(connection, sql.incrementOf(), queryTimeout)) {
            select.setString(1, name);
            try (ResultSet result = select.executeQuery()) {
                return result.next() ? result.getInt(1) : -1;
            }
        }
    }

    private void insertIfAbsent(Connection connection, Sql sql, String name, boolean queryTimeout) throws SQLException {
        try (PreparedStatement insert = statements.prepare(connection, sql.insert(), queryTimeout)) {
            insert.setString(1, name);
            insert.setLong(2, sql.advance().initialValue(statements, connection, offset, failoverJump, queryTimeout));
            insert.setInt(3, increment);
            insert.executeUpdate();
        } catch (SQLException e) {
            // Another client created the row first (concurrent inserts of one key can also end in a deadlock on
            // InnoDB, with one of them through).
            if (!SqlStates.isDuplicateKey(e) && !SqlStates.isDeadlock(e)) {
                throw e;
            }
        }
    }

    /**
     * Administrative reset of one name to its start. See {@link TicketIdService#reset(String)}.
     */
    int reset(Connection connection, Sql sql, String name) throws SQLException {
        try (PreparedStatement reset = statements.prepare(connection, sql.reset())) {
            reset.setLong(1, offset);
            reset.setString(2, name);
            reset.setInt(3, increment);
            return reset.executeUpdate();
        }
    }

    /** Builds the statements once the database is known, after checking that the table is there. */
    private Sql prepare(Connection connection, DatabaseDialect dialect) throws SQLException {
        probe(connection, dialect);
        return Sql.of(
                dialect,
                table,
                TicketServer.boundsItsReads(connection, dialect),
                statements.schema().writerColumn(connection, dialect),
                failovers);
    }

    void probe(Connection connection, DatabaseDialect dialect) throws SQLException {
        try {
            statements.schema().probeTable(connection);
        } catch (SQLException e) {
            if (SqlStates.isMissingTable(e)) {
                throw missing(dialect, e);
            }
            throw e;
        }
    }

    private TicketTableMissingException missing(DatabaseDialect dialect, SQLException cause) {
        return new TicketTableMissingException(id, table, schemaInitialization, dialect.ddlResource("ticket"), cause);
    }
}
