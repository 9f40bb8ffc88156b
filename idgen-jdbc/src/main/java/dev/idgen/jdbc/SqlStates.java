package dev.idgen.jdbc;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;

/**
 * What a failed statement means, read from its {@link SQLException}'s SQLState (and, where the state is not enough, its
 * class or vendor code) the way MySQL, MariaDB, PostgreSQL and H2 report it: a duplicate key, a deadlock, a missing
 * table or a broken connection. Kept apart from {@link JdbcStatements}, which runs the statements, because every store
 * classifies its own failures with the same rules, and because the rules are pure logic that can be checked against
 * each driver's states without a database.
 */
final class SqlStates {

    private SqlStates() {}

    /** SQLState class 23, integrity constraint violation: for idgen's tables, only ever the primary key. */
    static boolean isDuplicateKey(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("23");
    }

    /** 40001 is a deadlock on MySQL and MariaDB (and a serialization failure elsewhere), 40P01 one on PostgreSQL. */
    static boolean isDeadlock(SQLException e) {
        return "40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState());
    }

    /**
     * @return whether the table (or its schema) does not exist: 42S02 on MySQL, MariaDB and H2 (42S03 and 42S04 are
     *         H2's variants, 90079 its missing schema), 42P01 and 3F000 on PostgreSQL
     */
    static boolean isMissingTable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return switch (state) {
            case "42S02", "42S03", "42S04", "90079", "42P01", "3F000" -> true;
            default -> e.getErrorCode() == 1146;
        };
    }

    /**
     * SQLState class 08 is a connection failure on every driver; 57P01 to 57P03 are PostgreSQL's server shutting down
     * or restarting under an open connection.
     */
    static boolean isBrokenConnection(SQLException e) {
        String state = e.getSQLState();
        return e instanceof SQLNonTransientConnectionException
                || e instanceof SQLRecoverableException
                || state != null && (state.startsWith("08") || state.startsWith("57P0"));
    }
}
