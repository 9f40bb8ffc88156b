package dev.idgen.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import me.ahoo.cosid.segment.IdSegmentDistributor;

/**
 * The peer's database distributor, for CosId {@code SegmentChainId} over the same MariaDB as idgen: {@code cosid-jdbc}
 * is not in the package registry, so this does what its {@code JdbcIdSegmentDistributor} does, on {@code cosid-core}:
 * per fetch one connection from the pool, a transaction, {@code update cosid set last_max_id = (last_max_id + ?),
 * last_fetch_time = unix_timestamp() where name = ?}, then {@code select last_max_id from cosid where name = ?}, then
 * commit. The table is CosId's {@code init-cosid-mysql.sql} shape, under a name of its own.
 */
final class CosIdJdbcDistributor implements IdSegmentDistributor {

    static final String TABLE = "idgen_bench_cosid";

    private final DataSource dataSource;
    private final String name;
    private final long step;

    CosIdJdbcDistributor(DataSource dataSource, String name, long step) throws SQLException {
        this.dataSource = dataSource;
        this.name = name;
        this.step = step;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (name VARCHAR(100) NOT NULL PRIMARY KEY,"
                    + " last_max_id BIGINT UNSIGNED NOT NULL DEFAULT 0, last_fetch_time BIGINT UNSIGNED NOT NULL)"
                    + " ENGINE = InnoDB");
            statement.execute("DELETE FROM " + TABLE + " WHERE name = '" + getNamespacedName() + "'");
            statement.execute("INSERT INTO " + TABLE + " (name, last_max_id, last_fetch_time) VALUES ('"
                    + getNamespacedName() + "', 0, unix_timestamp())");
        }
    }

    @Override
    public String getNamespace() {
        return "bench";
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getStep() {
        return step;
    }

    @Override
    public long nextMaxId(long step) {
        IdSegmentDistributor.ensureStep(step);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement update = connection.prepareStatement("update " + TABLE
                    + " set last_max_id = (last_max_id + ?), last_fetch_time = unix_timestamp() where name = ?")) {
                update.setLong(1, step);
                update.setString(2, getNamespacedName());
                if (update.executeUpdate() == 0) {
                    throw new IllegalStateException("no row " + getNamespacedName());
                }
            }
            long maxId;
            try (PreparedStatement fetch =
                    connection.prepareStatement("select last_max_id from " + TABLE + " where name = ?")) {
                fetch.setString(1, getNamespacedName());
                try (ResultSet row = fetch.executeQuery()) {
                    if (!row.next()) {
                        throw new IllegalStateException("no row " + getNamespacedName());
                    }
                    maxId = row.getLong(1);
                }
            }
            connection.commit();
            return maxId;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
