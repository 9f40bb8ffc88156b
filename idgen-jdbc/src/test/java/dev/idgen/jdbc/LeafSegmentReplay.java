package dev.idgen.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * A Leaf v1.0.1 segment server's database side, replayed: the statements a Leaf server sends to {@code leaf_alloc}
 * when it loads a segment, as recorded from a running Leaf server (MariaDB general log), in the same transactions,
 * with Leaf's adaptive step. Only the table's name differs (each test has its own table). Not Leaf's code: its
 * behaviour, as the recording and Leaf's documentation show it.
 *
 * <ul>
 * <li>A tag's first two loads: {@code UPDATE leaf_alloc SET max_id = max_id + step WHERE biz_tag = ?} and
 * {@code SELECT biz_tag, max_id, step FROM leaf_alloc WHERE biz_tag = ?}, in one transaction; the step is the row's.
 * <li>Every later load: {@code UPDATE leaf_alloc SET max_id = max_id + ? WHERE biz_tag = ?} with the adaptive step,
 * and the same select. The step doubles (while doubling stays within 1,000,000) when the previous segment lasted
 * under 15 minutes, stays between 15 and 30 minutes, and halves (not below the row's step) after 30.
 * <li>The segment is {@code [max_id - step, max_id - 1]}, with the new {@code max_id} and the step that update used.
 * </ul>
 */
final class LeafSegmentReplay {

    static final long SEGMENT_DURATION_MILLIS = 15 * 60 * 1000L;
    static final int MAX_STEP = 1_000_000;

    private final DataSource dataSource;
    private final String byRowStep;
    private final String byCustomStep;
    private final String select;
    private final LongSupplier clock;
    private final Map<String, Buffer> buffers = new HashMap<>();

    /** A tag's state in one Leaf server: its {@code SegmentBuffer}'s step, minimum step and last update time. */
    private static final class Buffer {
        boolean initOk;
        int step;
        int minStep;
        long updateTimestamp;
    }

    /** One loaded segment, with the step and statement that made it. */
    record Loaded(long first, long last, int step, boolean customStep) {}

    /**
     * @param dataSource the Leaf server's own pool
     * @param table the test's {@code leaf_alloc}
     * @param clock the Leaf server's {@code System.currentTimeMillis()}
     */
    LeafSegmentReplay(DataSource dataSource, String table, LongSupplier clock) {
        this.dataSource = dataSource;
        this.clock = clock;
        this.byRowStep = "UPDATE " + table + " SET max_id = max_id + step WHERE biz_tag = ?";
        this.byCustomStep = "UPDATE " + table + " SET max_id = max_id + ? WHERE biz_tag = ?";
        this.select = "SELECT biz_tag, max_id, step FROM " + table + " WHERE biz_tag = ?";
    }

    /** Loads the tag's next segment, as Leaf's {@code updateSegmentFromDb} does. */
    synchronized Loaded load(String tag) throws SQLException {
        Buffer buffer = buffers.computeIfAbsent(tag, t -> new Buffer());
        long now = clock.getAsLong();
        if (!buffer.initOk || buffer.updateTimestamp == 0) {
            long[] row = update(tag, -1);
            if (buffer.initOk) {
                buffer.updateTimestamp = now;
            }
            buffer.initOk = true;
            buffer.step = (int) row[1];
            buffer.minStep = (int) row[1];
            return new Loaded(row[0] - buffer.step, row[0] - 1, buffer.step, false);
        }
        long duration = now - buffer.updateTimestamp;
        int nextStep = buffer.step;
        if (duration < SEGMENT_DURATION_MILLIS) {
            if (nextStep * 2 <= MAX_STEP) {
                nextStep = nextStep * 2;
            }
        } else if (duration >= SEGMENT_DURATION_MILLIS * 2) {
            nextStep = nextStep / 2 >= buffer.minStep ? nextStep / 2 : nextStep;
        }
        long[] row = update(tag, nextStep);
        buffer.updateTimestamp = now;
        buffer.step = nextStep;
        buffer.minStep = (int) row[1];
        return new Loaded(row[0] - buffer.step, row[0] - 1, buffer.step, true);
    }

    /** @return the row's new {@code max_id} and its {@code step} column */
    private long[] update(String tag, int customStep) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            // MyBatis' openSession(): one transaction for the update and the select, committed at the end.
            connection.setAutoCommit(false);
            try {
                try (PreparedStatement update =
                        connection.prepareStatement(customStep < 0 ? byRowStep : byCustomStep)) {
                    if (customStep < 0) {
                        update.setString(1, tag);
                    } else {
                        update.setInt(1, customStep);
                        update.setString(2, tag);
                    }
                    if (update.executeUpdate() != 1) {
                        throw new SQLException("Leaf has no row for tag " + tag);
                    }
                }
                long[] row;
                try (PreparedStatement read = connection.prepareStatement(select)) {
                    read.setString(1, tag);
                    try (ResultSet result = read.executeQuery()) {
                        result.next();
                        row = new long[] {result.getLong("max_id"), result.getInt("step")};
                    }
                }
                connection.commit();
                return row;
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }
}
