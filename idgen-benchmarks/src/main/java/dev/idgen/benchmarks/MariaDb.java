package dev.idgen.benchmarks;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The MariaDB the database benchmarks run against: {@code IDGEN_BENCH_MARIADB_URL} (default
 * {@code jdbc:mariadb://127.0.0.1:3306/test}), user {@code IDGEN_BENCH_MARIADB_USER} (default root), no password.
 */
final class MariaDb {

    private MariaDb() {
    }

    static HikariDataSource pool(int size) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(env("IDGEN_BENCH_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"));
        pool.setUsername(env("IDGEN_BENCH_MARIADB_USER", "root"));
        pool.setPassword(env("IDGEN_BENCH_MARIADB_PASSWORD", ""));
        pool.setMaximumPoolSize(size);
        pool.setMinimumIdle(size);
        return pool;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
