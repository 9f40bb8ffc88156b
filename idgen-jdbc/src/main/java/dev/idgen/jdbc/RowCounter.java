package dev.idgen.jdbc;

import dev.idgen.jdbc.RowCounterSql.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One statement that adds to a counter column of the row with a given name and reads the new value back, on the
 * same connection: {@code UPDATE ... RETURNING} on PostgreSQL, {@code SELECT ... FROM FINAL TABLE (UPDATE ...)} on
 * H2, and on MySQL and MariaDB an {@code UPDATE} that stores the new value with {@code LAST_INSERT_ID(expr)}
 * followed by {@code SELECT LAST_INSERT_ID()} (a value of the connection, read before anyone else can use it).
 * In auto-commit the row lock lasts the one update: concurrent clients queue rather than deadlock.
 *
 * <p>On MySQL and MariaDB a counter
 * {@linkplain #of(DatabaseDialect, String, String, String, String, boolean, Rows) may read the new value from the
 * update's own reply} instead: the server reports the value {@code LAST_INSERT_ID(expr)} stored
 * in the update's OK packet, which JDBC drivers return as its generated key, so the {@code SELECT} and its round
 * trip are not needed. The first update checks the key against {@code SELECT LAST_INSERT_ID()}; a driver whose key
 * differs, that reports none or that fails to, is never trusted with it again (by this counter) and the
 * {@code SELECT} is kept.
 *
 * <p>A class of its own rather than a part of {@link JdbcStatements}, which lends connections and prepares statements
 * for any store: this is the one statement the counter stores share ({@link StampedCounter} builds four, one per
 * {@link Rows kind of row}), with a state of its own, whether the driver's reply is trusted; its text per dialect is
 * {@link RowCounterSql}.
 */
final class RowCounter {

    private static final int UNCHECKED = 0;
    private static final int TRUSTED = 1;
    private static final int DISTRUSTED = 2;

    /** The statement that advances the row (and, except on MySQL, returns its new value). */
    private final String update;
    /** MySQL's {@code SELECT LAST_INSERT_ID()}, otherwise {@code null}. */
    private final String readBack;
    /** Whether the row must also match a guard column (the ticket's increment). */
    private final boolean byGuard;
    /** Whether to read MySQL's new value from the update's reply (its generated key). */
    private final boolean fromReply;
    /** Whether the driver's generated key has been checked and found right; written once or twice. */
    private volatile int reply = UNCHECKED;

    private RowCounter(String update, String readBack, boolean byGuard, boolean fromReply) {
        this.update = update;
        this.readBack = readBack;
        this.byGuard = byGuard;
        this.fromReply = fromReply && readBack != null;
    }

    /**
     * A counter whose update sets {@code column = GREATEST(column, floor) + delta}: a caller that already holds
     * values up to {@code floor} (from before a failover) never gets them again.
     *
     * @param table a checked table name
     * @param key the column holding the row's name ({@code name} in idgen's tables)
     * @param column the counter column
     * @param guard a column the row must also match, or {@code null}
     * @param fromReply on MySQL and MariaDB, whether to read the new value from the update's reply (one round trip
     *        instead of two, once the driver's answer has been checked)
     * @param rows which rows it advances, by their writer
     * @see RowCounterSql#of
     */
    static RowCounter of(
            DatabaseDialect dialect,
            String table,
            String key,
            String column,
            String guard,
            boolean fromReply,
            Rows rows) {
        RowCounterSql sql = RowCounterSql.of(dialect, table, key, column, guard, rows);
        return new RowCounter(sql.update(), sql.readBack(), guard != null, fromReply);
    }

    /**
     * @return how many statements one advance sends: 1, or 2 on MySQL unless its reply is read
     */
    int statementsPerAdvance() {
        return readBack == null || fromReply && reply == TRUSTED ? 1 : 2;
    }

    /**
     * @param floor the least value the counter is raised to before {@code delta} is added
     * @param guardValue the value the guard column must hold; ignored without a guard
     * @param queryTimeout whether the statements get the store's query timeout (see
     *        {@link JdbcStatements#prepare(Connection, String, boolean)})
     * @return the counter's new value, or {@link JdbcStatements#NO_ROW} when no row matched
     */
    long advance(
            JdbcStatements<?> statements,
            Connection connection,
            String name,
            long floor,
            long delta,
            int guardValue,
            boolean queryTimeout)
            throws SQLException {
        boolean keys = fromReply && reply != DISTRUSTED;
        long key = JdbcStatements.NO_ROW;
        try (PreparedStatement advance = keys
                ? statements.prepareReturningKeys(connection, update, queryTimeout)
                : statements.prepare(connection, update, queryTimeout)) {
            advance.setLong(1, floor);
            advance.setLong(2, delta);
            advance.setString(3, name);
            if (byGuard) {
                advance.setInt(4, guardValue);
            }
            if (readBack == null) {
                try (ResultSet result = advance.executeQuery()) {
                    return result.next() ? result.getLong(1) : JdbcStatements.NO_ROW;
                }
            }
            // Checked first: without a matched row LAST_INSERT_ID() still holds whatever this pooled connection
            // last stored, possibly another name's value.
            if (advance.executeUpdate() != 1) {
                return JdbcStatements.NO_ROW;
            }
            if (keys) {
                key = generatedKey(advance);
                if (key > 0 && reply == TRUSTED) {
                    return key;
                }
            }
        }
        long value;
        try (PreparedStatement read = statements.prepare(connection, readBack, queryTimeout);
                ResultSet result = read.executeQuery()) {
            if (!result.next()) {
                throw new SQLException("SELECT LAST_INSERT_ID() returned no row");
            }
            value = result.getLong(1);
        }
        if (keys) {
            judgeReply(key == value);
        }
        return value;
    }

    /**
     * Settles whether the update's reply can be trusted, from one sample. Synchronized, and a disagreement is
     * final: with several round trips in flight, one that saw the reply agree must not overwrite another that saw
     * it disagree.
     */
    private synchronized void judgeReply(boolean agrees) {
        if (!agrees) {
            reply = DISTRUSTED;
        } else if (reply == UNCHECKED) {
            reply = TRUSTED;
        }
    }

    /**
     * @return the update's one generated key, or {@link JdbcStatements#NO_ROW} when the driver reports none, more than
     *         one, or fails to (a driver or wrapper may throw rather than return none): the value is then read with
     *         {@code SELECT LAST_INSERT_ID()}, still the connection's after the update
     */
    private static long generatedKey(PreparedStatement advance) {
        try (ResultSet generated = advance.getGeneratedKeys()) {
            if (!generated.next()) {
                return JdbcStatements.NO_ROW;
            }
            long key = generated.getLong(1);
            // One row updated, one key expected: anything else is not the value.
            return generated.next() ? JdbcStatements.NO_ROW : key;
        } catch (SQLException | RuntimeException e) {
            return JdbcStatements.NO_ROW;
        }
    }
}
