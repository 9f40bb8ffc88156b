package dev.idgen.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * A Tinyid server's database side, replayed: the statements {@code DbSegmentIdServiceImpl} sends through
 * {@code TinyIdInfoDAOImpl} when it takes a segment, as recorded from a running Tinyid server (MariaDB general log),
 * in the same transaction ({@code READ_COMMITTED}), with its three attempts at the version check and its random choice
 * of database. Only the table's name differs. Not Tinyid's code: its behaviour, as the recording shows it.
 */
final class TinyidSegmentReplay {

    /** Tinyid's {@code Constants.RETRY}. */
    static final int RETRY = 3;

    private final List<DataSource> databases;
    private final String select;
    private final String update;

    /** A segment: the IDs in {@code (currentId, maxId]} that leave {@code remainder} divided by {@code delta}. */
    record Taken(long currentId, long maxId, int delta, int remainder) {}

    TinyidSegmentReplay(List<DataSource> databases, String table) {
        this.databases = databases;
        this.select = "select id, biz_type, begin_id, max_id, step, delta, remainder, create_time, update_time, version"
                + " from " + table + " where biz_type = ?";
        this.update = "update " + table + " set max_id= ?, update_time=now(), version=version+1"
                + " where id=? and max_id=? and version=? and biz_type=?";
    }

    /**
     * @return the segment, or {@code null} when all three attempts lost their compare-and-set (Tinyid then throws
     *         "get next segmentId conflict")
     */
    Taken nextSegment(String bizType) throws SQLException {
        DataSource database = databases.get(ThreadLocalRandom.current().nextInt(databases.size()));
        try (Connection connection = database.getConnection()) {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            try {
                for (int i = 0; i < RETRY; i++) {
                    long id;
                    long maxId;
                    int step;
                    int delta;
                    int remainder;
                    long version;
                    try (PreparedStatement read = connection.prepareStatement(select)) {
                        read.setString(1, bizType);
                        try (ResultSet row = read.executeQuery()) {
                            if (!row.next()) {
                                throw new SQLException("can not find biztype:" + bizType);
                            }
                            id = row.getLong("id");
                            maxId = row.getLong("max_id");
                            step = row.getInt("step");
                            delta = row.getInt("delta");
                            remainder = row.getInt("remainder");
                            version = row.getLong("version");
                        }
                    }
                    long newMaxId = maxId + step;
                    int moved;
                    try (PreparedStatement write = connection.prepareStatement(update)) {
                        write.setLong(1, newMaxId);
                        write.setLong(2, id);
                        write.setLong(3, maxId);
                        write.setLong(4, version);
                        write.setString(5, bizType);
                        moved = write.executeUpdate();
                    }
                    if (moved == 1) {
                        connection.commit();
                        return new Taken(newMaxId - step, newMaxId, delta, remainder);
                    }
                }
                connection.commit();
                return null;
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                connection.setAutoCommit(true);
            }
        }
    }
}
