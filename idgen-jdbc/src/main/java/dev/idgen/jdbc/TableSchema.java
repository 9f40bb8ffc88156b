package dev.idgen.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A store's table as idgen looks after it on the first connection: created from the dialect's DDL when its
 * {@link SchemaInitialization} says so, probed to see that it is there, and checked for the columns later versions
 * added (the {@link WriterColumn writer column} among them), with a warning naming the statement that adds one that is
 * missing. Kept apart from {@link JdbcStatements}, which lends connections and runs the store's work on them, because
 * none of this is about running a statement: it is the table's DDL, done once, before the store's statements are
 * built.
 */
final class TableSchema {

    private final String description;
    private final String kind;
    private final String table;
    private final SchemaInitialization schemaInitialization;
    private final int timeoutSeconds;
    /** Whether the table has the writer column, once {@link #writerColumn} looked. */
    private volatile Boolean writerColumnPresent;

    /**
     * @param description the table in words for messages, e.g. {@code "the segment table idgen_segment"}
     * @param kind which DDL to create: {@code segment}, {@code ticket} or {@code worker}
     * @param table the table, already checked by {@link SqlIdentifiers}
     * @param schemaInitialization when to create the table and add the columns later versions added
     * @param timeoutSeconds each statement's query timeout
     */
    TableSchema(
            String description,
            String kind,
            String table,
            SchemaInitialization schemaInitialization,
            int timeoutSeconds) {
        this.description = description;
        this.kind = kind;
        this.table = table;
        this.schemaInitialization = schemaInitialization;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * @return whether the table has the writer column, or {@code null} before the database was reached
     */
    Boolean writerColumnPresent() {
        return writerColumnPresent;
    }

    /**
     * Makes sure the table has the {@link WriterColumn writer column}, adding it where idgen manages the schema. A table
     * without it (created by an older version, with schema initialization {@code never}) works as before, without
     * recognising a promoted replica: that is logged once, with the statement that adds the column.
     *
     * @return whether the column is there
     */
    boolean writerColumn(Connection connection, DatabaseDialect dialect) throws SQLException {
        boolean present = addedColumn(
                connection,
                dialect,
                WriterColumn.COLUMN,
                "a failover to a replica that lagged behind cannot be recognised, and could repeat IDs");
        System.Logger log = System.getLogger(JdbcStatements.class.getName());
        String what = Character.toUpperCase(description.charAt(0)) + description.substring(1);
        if (present) {
            String unreadable = WriterColumn.identityUnreadable(connection, dialect, timeoutSeconds);
            if (unreadable != null) {
                present = false;
                log.log(
                        System.Logger.Level.WARNING,
                        () -> what + ": this database does not let idgen's user read"
                                + " the server's identity (" + unreadable
                                + "), so a failover to a replica that lagged behind"
                                + " cannot be recognised, and could repeat IDs");
            }
        }
        writerColumnPresent = present;
        return present;
    }

    /**
     * Makes sure the table has a column a later version of idgen added, adding it where idgen manages the schema. A
     * table without it works without what the column is for: that is logged once, with the statement that adds it.
     *
     * @param withoutIt what is lost without the column, for the log
     * @return whether the column is there
     */
    boolean addedColumn(Connection connection, DatabaseDialect dialect, AddedColumn column, String withoutIt)
            throws SQLException {
        boolean present = column.ensure(
                connection,
                table,
                schemaInitialization.createsTableOn(
                        dialect, connection.getMetaData().getURL()),
                timeoutSeconds);
        if (!present) {
            String what = Character.toUpperCase(description.charAt(0)) + description.substring(1);
            System.getLogger(JdbcStatements.class.getName())
                    .log(
                            System.Logger.Level.WARNING,
                            () -> what + " has no column " + column.name() + ": " + withoutIt + ". Add it with: "
                                    + column.addStatement(table));
        }
        return present;
    }

    void createTable(Connection connection, DatabaseDialect dialect) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.execute(dialect.ddl(kind, table));
        } catch (SQLException e) {
            // PostgreSQL's CREATE TABLE IF NOT EXISTS can still fail when another instance creates the table at the
            // same moment; the table existing now is all that matters.
            try {
                probeTable(connection);
            } catch (SQLException notThere) {
                e.addSuppressed(notThere);
                throw e;
            }
        }
    }

    /**
     * Reads no row from the table, to see that it is there.
     *
     * @throws SQLException when it is not (see {@link SqlStates#isMissingTable}) or the database fails
     */
    void probeTable(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0").close();
        }
    }
}
