package dev.idgen.spring.boot.entityids;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The two real databases the entity-ID tests insert into, and what they share: 10,000 rows from 4 threads, and the
 * check that every row got an ID of its own.
 */
public enum EntityIdDatabase {
    MARIADB,
    POSTGRESQL;

    /** Rows per test, split over {@link #THREADS} threads. */
    public static final int ROWS = 10_000;

    public static final int THREADS = 4;

    public TestServices.JdbcEndpoint endpoint() {
        return this == MARIADB ? TestServices.mariadb() : TestServices.postgres();
    }

    /** @return Spring Boot's DataSource properties for this database */
    public String[] dataSourceProperties() {
        TestServices.JdbcEndpoint endpoint = endpoint();
        return new String[] {
            "spring.datasource.url=" + endpoint.url(),
            "spring.datasource.username=" + endpoint.username(),
            "spring.datasource.password=" + endpoint.password()
        };
    }

    /** Runs SQL statements on a connection of its own (DDL before and after a test). */
    public void execute(String... statements) throws Exception {
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** @return the {@code id} column of every row of the table, {@code null}s included */
    public List<Object> ids(String table) throws Exception {
        List<Object> ids = new ArrayList<>();
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id FROM " + table)) {
            while (rows.next()) {
                ids.add(rows.getObject(1));
            }
        }
        return ids;
    }

    /**
     * Runs {@code insert} on {@link #THREADS} threads at once, each with its thread number, and waits for all of them
     * (a failure in one fails the test).
     */
    public static void onFourThreads(IntConsumer insert) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int thread = 0; thread < THREADS; thread++) {
                int number = thread;
                futures.add(pool.submit((Callable<Void>) () -> {
                    insert.accept(number);
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every row of the table has an ID, and no two the same: {@link #ROWS} rows, {@link #ROWS} distinct IDs. */
    public void assertTenThousandDistinctIds(String table) throws Exception {
        List<Object> ids = ids(table);
        assertThat(ids).hasSize(ROWS).doesNotContainNull();
        assertThat(new HashSet<>(ids)).hasSize(ROWS);
    }
}
