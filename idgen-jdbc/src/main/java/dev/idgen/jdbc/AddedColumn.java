package dev.idgen.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A column a later version of idgen added to one of its tables: a table an earlier version created lacks it until
 * idgen adds it (where the schema is idgen's to manage) or the operator does, and works without it meanwhile.
 *
 * @param name the column's name
 * @param definition its type and nullability, as {@code ALTER TABLE ... ADD} takes them; nullable, so that adding it
 *        to a table with rows needs no default
 */
record AddedColumn(String name, String definition) {

    /**
     * @return the statement that adds the column to a table from an older version of idgen
     */
    String addStatement(String table) {
        return "ALTER TABLE " + table + " ADD " + name + " " + definition;
    }

    /**
     * Makes sure the table has the column: adds it when the schema is idgen's to manage, otherwise reports it missing.
     *
     * @param manage whether idgen creates the table here ({@link SchemaInitialization})
     * @return whether the column is there now
     */
    boolean ensure(Connection connection, String table, boolean manage, int timeoutSeconds) throws SQLException {
        if (present(connection, table, timeoutSeconds)) {
            return true;
        }
        if (!manage) {
            return false;
        }
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.execute(addStatement(table));
        } catch (SQLException e) {
            // Another instance may have added it at the same moment; or idgen's user may not alter the table (no
            // ALTER privilege, not the owner), which leaves the table as it was, said in the log.
            return present(connection, table, timeoutSeconds);
        }
        return true;
    }

    private boolean present(Connection connection, String table, int timeoutSeconds) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement
                    .executeQuery("SELECT " + name + " FROM " + table + " WHERE 1 = 0")
                    .close();
            return true;
        } catch (SQLException e) {
            if (isMissingColumn(e)) {
                return false;
            }
            throw e;
        }
    }

    /** 42S22 on MySQL and MariaDB, 42703 on PostgreSQL, 42122 on H2. */
    private static boolean isMissingColumn(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.equals("42S22") || state.equals("42703") || state.equals("42122") || e.getErrorCode() == 1054;
    }
}
