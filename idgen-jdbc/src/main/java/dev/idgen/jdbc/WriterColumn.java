package dev.idgen.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The {@code writer} column of idgen's tables: which database server wrote the row last, so that a write on a
 * promoted copy of the database (a replica that may have lost the primary's last writes) is recognised.
 *
 * <p>Every statement idgen writes a row with stores the server's identity, computed by the server itself inside the
 * statement ({@link #identity}): on MySQL and MariaDB {@code @@server_id}, on PostgreSQL the system identifier and the
 * current timeline. The value travels to replicas as a value (a ROW binlog event, a WAL record), so a replica holds the
 * primary's identity in every row it received; once promoted, its own identity differs (another server id, a new
 * timeline), and the first write to each row sees the difference. What that needs:
 * <ul>
 * <li>MySQL and MariaDB: {@code binlog_format} {@code ROW} or {@code MIXED} on the primary (in {@code STATEMENT} format
 * a replica would evaluate {@code @@server_id} itself and store its own), and distinct {@code server_id}s (replication
 * needs them anyway). No privilege beyond the table's.</li>
 * <li>PostgreSQL: {@code pg_control_system()} and {@code pg_current_wal_lsn()}, which every role may call (no
 * privilege beyond the table's).</li>
 * <li>H2 has no replication: its identity is a constant.</li>
 * </ul>
 * A row whose {@code writer} is {@code null} was written before idgen recorded it (a table from an older version):
 * it is adopted without a jump.
 */
final class WriterColumn {

    /** The column's name. */
    static final String NAME = "writer";

    /**
     * A row of the segment and ticket tables that no application name can take ({@link dev.idgen.core.IdArguments}
     * rules out a leading {@code #}): it records the table's writer, and in its counter how many promotions were seen,
     * so that a name first inserted after a promotion starts beyond anything the lost primary may have handed out.
     */
    static final String MARKER = "#idgen-writer";

    /** The column as a table from an older version of idgen lacks it. */
    static final AddedColumn COLUMN = new AddedColumn(NAME, "VARCHAR(64) NULL");

    private WriterColumn() {}

    /**
     * @return the SQL expression for the identity of the server that runs the statement
     */
    static String identity(DatabaseDialect dialect) {
        return switch (dialect) {
            // As a string: a number compared with the column would convert every value to a number, and MariaDB's
            // strict mode fails an update on a value that is not one. (A string from a number is coercible to the
            // column's collation, checked with a latin1 column on a utf8mb4 connection.)
            case MYSQL -> "CAST(@@server_id AS CHAR)";
            case POSTGRESQL ->
                "((SELECT CAST(system_identifier AS TEXT) FROM pg_control_system()) || ':'"
                        + " || SUBSTR(pg_walfile_name(pg_current_wal_lsn()), 1, 8))";
            case H2 -> "'h2'";
        };
    }

    /**
     * @return why this server's identity cannot be read here (a managed PostgreSQL that withholds
     *         {@code pg_control_system()}), or {@code null} when it can
     */
    static String identityUnreadable(Connection connection, DatabaseDialect dialect, int timeoutSeconds)
            throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.executeQuery("SELECT " + identity(dialect)).close();
            return null;
        } catch (SQLException e) {
            if (SqlStates.isBrokenConnection(e)) {
                throw e;
            }
            return e.getMessage();
        }
    }
}
