package dev.idgen.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The MariaDB the database benchmarks run against: {@code IDGEN_BENCH_MARIADB_URL} (default
 * {@code jdbc:mariadb://127.0.0.1:3306/test}), user {@code IDGEN_BENCH_MARIADB_USER} (default root), no password.
 */
final class MariaDb {

    private MariaDb() {}

    static HikariDataSource pool(int size) {
        Endpoint endpoint = endpoint();
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(endpoint.url());
        pool.setUsername(endpoint.user());
        pool.setPassword(endpoint.password());
        pool.setMaximumPoolSize(size);
        pool.setMinimumIdle(size);
        return pool;
    }

    /**
     * The peer of idgen's tickets: Flickr's ticket on one pooled connection, in plain JDBC, as an application would
     * write it ({@code UPDATE ... LAST_INSERT_ID(id + 1)}, then {@code SELECT LAST_INSERT_ID()}).
     *
     * @return the new ID of the row {@code name}
     */
    static long rawTicket(DataSource pool, String table, String name) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement update = connection.prepareStatement(
                        "UPDATE " + table + " SET id = LAST_INSERT_ID(id + 1) WHERE name = ?");
                PreparedStatement select = connection.prepareStatement("SELECT LAST_INSERT_ID()")) {
            update.setString(1, name);
            update.executeUpdate();
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /** Where the database is, for a process of its own (an idgen server). */
    static Endpoint endpoint() {
        return new Endpoint(
                env("IDGEN_BENCH_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
                env("IDGEN_BENCH_MARIADB_USER", "root"),
                env("IDGEN_BENCH_MARIADB_PASSWORD", ""));
    }

    record Endpoint(String url, String user, String password) {}

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
