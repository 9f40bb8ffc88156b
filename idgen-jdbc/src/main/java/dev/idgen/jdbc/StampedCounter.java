package dev.idgen.jdbc;

import dev.idgen.core.IdArguments;
import dev.idgen.jdbc.RowCounterSql.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The counter column of a table with one row per name (segments, tickets) that moves past what a lost primary may
 * have handed out when the database fails over to a replica that lagged behind.
 *
 * <p>Every write stamps the row with the server that made it ({@link WriterColumn}). The hot path advances only rows
 * this server wrote, so one statement serves as before. A row written by another server means this one is a promoted
 * copy: the blocks or tickets the old primary handed out after the last write that reached this copy are lost to it,
 * and the row lies behind them. Its next advance adds {@code jump} as well, in the same statement that stamps this
 * server on it (so exactly one instance of the fleet jumps each row, once per promotion); from then on it is this
 * server's row again. A name that has no row yet may have had one on the old primary: once the table has seen a
 * promotion (its {@link WriterColumn#MARKER marker row} counts them), new rows start {@code jump} beyond the initial
 * value.
 *
 * <p>Every advance also raises the counter to at least the caller's {@code floor} first ({@code GREATEST}): an
 * instance that still holds values from the lost primary above the promoted row pushes the row past them, so its own
 * values never come back, whatever the jump.
 *
 * <p>How far {@code jump} must reach: the values the whole fleet took from the old primary during the replica's lag,
 * that is the lag at promotion times the fleet's rate (for segments, blocks are taken ahead: add one prefetch of
 * blocks per instance).
 */
final class StampedCounter {

    private final String table;
    private final String what;
    private final RowCounter any;
    private final RowCounter here;
    private final RowCounter elsewhere;
    private final RowCounter unstamped;
    private final String markerElsewhere;
    private final String markerUnstamped;
    private final String markerRead;
    private final String markerInsert;
    private final String foreignRows;
    private final boolean stamped;

    /** Where each row this instance moves past a promotion is counted. */
    private final JdbcFailovers failovers;

    /**
     * @param table a checked table name
     * @param key the column holding the row's name
     * @param column the counter column
     * @param guard a column the row must also match, or {@code null}
     * @param fromReply see {@link RowCounter#of(DatabaseDialect, String, String, String, String, boolean, Rows)}
     * @param stamped whether the table has the writer column; without it the counter advances any row
     * @param markerInsert the insert of the marker row, whose parameters are its name and its counter; its writer is
     *        this server
     * @param what the rows in words, for the log, e.g. {@code "segment"}
     * @param failovers where the rows moved past a promotion are counted
     */
    StampedCounter(
            DatabaseDialect dialect,
            String table,
            String key,
            String column,
            String guard,
            boolean fromReply,
            boolean stamped,
            String markerInsert,
            String what,
            JdbcFailovers failovers) {
        this.failovers = failovers;
        this.table = table;
        this.what = what;
        this.stamped = stamped;
        this.any = RowCounter.of(dialect, table, key, column, guard, fromReply, Rows.ANY);
        this.here = RowCounter.of(dialect, table, key, column, guard, fromReply, Rows.WRITTEN_HERE);
        this.elsewhere = RowCounter.of(dialect, table, key, column, guard, false, Rows.WRITTEN_ELSEWHERE);
        this.unstamped = RowCounter.of(dialect, table, key, column, guard, false, Rows.UNSTAMPED);
        String identity = WriterColumn.identity(dialect);
        this.markerElsewhere = "UPDATE " + table + " SET " + column + " = " + column + " + 1, " + WriterColumn.NAME
                + " = " + identity + " WHERE " + key + " = ? AND " + WriterColumn.NAME + " <> " + identity;
        this.markerUnstamped = "UPDATE " + table + " SET " + WriterColumn.NAME + " = " + identity + " WHERE " + key
                + " = ? AND " + WriterColumn.NAME + " IS NULL";
        this.markerRead = "SELECT " + column + " FROM " + table + " WHERE " + key + " = ?";
        this.markerInsert = markerInsert;
        this.foreignRows = "SELECT COUNT(*) FROM " + table + " WHERE " + WriterColumn.NAME + " <> " + identity;
    }

    /**
     * @return whether the table has the writer column (failover detection on)
     */
    boolean stamped() {
        return stamped;
    }

    /**
     * @return how many statements the hot path sends (see {@link RowCounter#statementsPerAdvance()})
     */
    int statementsPerAdvance() {
        return (stamped ? here : any).statementsPerAdvance();
    }

    /**
     * Advances the name's row: {@code GREATEST(value, floor) + delta}, plus {@code jump} on a row another server wrote.
     *
     * @return the new value, or {@link JdbcStatements#NO_ROW} when the name has no row yet
     */
    long advance(
            JdbcStatements<?> statements,
            Connection connection,
            String name,
            long floor,
            long delta,
            int guardValue,
            long jump,
            boolean queryTimeout)
            throws SQLException {
        if (!stamped) {
            return any.advance(statements, connection, name, floor, delta, guardValue, queryTimeout);
        }
        long value = here.advance(statements, connection, name, floor, delta, guardValue, queryTimeout);
        if (value != JdbcStatements.NO_ROW) {
            return value;
        }
        value = elsewhere.advance(
                statements, connection, name, floor, Math.addExact(delta, jump), guardValue, queryTimeout);
        if (value != JdbcStatements.NO_ROW) {
            if (IdArguments.isName(name)) {
                // Counted and told by the rows of names: a store's own rows (the marks of a store switch, see the
                // starter's docs/switching.md) jump the same way, and a failover is one event, not one per such row.
                failovers.record("The " + what + " row '" + name + "' in " + table + " was last written by another"
                        + " database server: this one is a promoted copy that may have lost the old primary's last"
                        + " writes, so the row jumped " + jump + " ahead (to " + value + ")");
            }
            // Known to be a promoted copy: a marker created now starts with this promotion counted.
            promotionsSeen(statements, connection, queryTimeout, true);
            return value;
        }
        return unstamped.advance(statements, connection, name, floor, delta, guardValue, queryTimeout);
    }

    /**
     * The value a new row starts from: {@code initial} plus one jump per promotion the table has seen (a row the lost
     * primary had for this name may not have reached this copy, and after a second promotion the rows created after
     * the first may be lost too). Stamps the marker row on the way.
     */
    long initialValue(
            JdbcStatements<?> statements, Connection connection, long initial, long jump, boolean queryTimeout)
            throws SQLException {
        if (!stamped) {
            return initial;
        }
        long promotions = promotionsSeen(statements, connection, queryTimeout, false);
        return Math.addExact(initial, Math.multiplyExact(promotions, jump));
    }

    /**
     * Brings the marker row to this server, counting a promotion if another server wrote it, and reads the count.
     *
     * @param promoted whether the caller already knows this copy was promoted (it just moved a row written elsewhere):
     *        a marker created now then counts that promotion even if no other row shows it any more
     */
    private long promotionsSeen(
            JdbcStatements<?> statements, Connection connection, boolean queryTimeout, boolean promoted)
            throws SQLException {
        for (int attempt = 0; attempt < 3; attempt++) {
            if (update(statements, connection, markerElsewhere, queryTimeout) == 0) {
                update(statements, connection, markerUnstamped, queryTimeout);
            }
            try (PreparedStatement read = statements.prepare(connection, markerRead, queryTimeout)) {
                read.setString(1, WriterColumn.MARKER);
                try (ResultSet result = read.executeQuery()) {
                    if (result.next()) {
                        return result.getLong(1);
                    }
                }
            }
            // A table without a marker: created now, or by an older version. If any row was written by another
            // server, the table was promoted before the marker existed here: it starts with that promotion counted.
            long promotions = promoted ? 1 : 0;
            try (PreparedStatement count = statements.prepare(connection, foreignRows, queryTimeout);
                    ResultSet result = count.executeQuery()) {
                if (result.next() && result.getLong(1) > 0) {
                    promotions = 1;
                }
            }
            try (PreparedStatement insert = statements.prepare(connection, markerInsert, queryTimeout)) {
                insert.setString(1, WriterColumn.MARKER);
                insert.setLong(2, promotions);
                insert.executeUpdate();
            } catch (SQLException e) {
                if (!SqlStates.isDuplicateKey(e) && !SqlStates.isDeadlock(e)) {
                    throw e;
                }
            }
        }
        throw new SQLException("The marker row of " + table + " could not be created");
    }

    private static int update(JdbcStatements<?> statements, Connection connection, String sql, boolean queryTimeout)
            throws SQLException {
        try (PreparedStatement update = statements.prepare(connection, sql, queryTimeout)) {
            update.setString(1, WriterColumn.MARKER);
            return update.executeUpdate();
        }
    }
}
