package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.TimeSource;
import dev.idgen.core.period.PeriodicIdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.test.PeriodicMidnight;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PeriodicIdService} over the real database stores, across a manual-clock midnight with two instances and
 * several threads each ({@link PeriodicMidnight}): tickets on MariaDB and PostgreSQL, segments on MariaDB, each on a
 * table of the test's own.
 */
class PeriodicIdServiceJdbcTest {

    private static final int THREADS = 4;

    private final String table =
            "idgen_periodic_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<HikariDataSource> pools = new ArrayList<>();

    /** The segment services' loader, ours so that the table is dropped only once no load can still be running. */
    private final ScheduledExecutorService loader = Executors.newScheduledThreadPool(2);

    private TestServices.JdbcEndpoint endpoint;

    @AfterEach
    void dropTable() throws Exception {
        loader.shutdownNow();
        assertThat(loader.awaitTermination(30, TimeUnit.SECONDS))
                .as("the loads in flight end")
                .isTrue();
        try {
            if (endpoint != null) {
                try (Connection connection = endpoint.connect();
                        Statement statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        } finally {
            pools.forEach(HikariDataSource::close);
        }
    }

    @Test
    void ticketsOnMariaDb() throws Exception {
        tickets(TestServices.mariadb());
    }

    @Test
    void ticketsOnPostgres() throws Exception {
        tickets(TestServices.postgres());
    }

    /** One ticket server: each day's numbers are exactly 1 to its count, and the table has one row per day. */
    private void tickets(TestServices.JdbcEndpoint endpoint) throws Exception {
        this.endpoint = endpoint;
        PeriodicMidnight.Drawn drawn = PeriodicMidnight.run(
                () -> new TicketIdService(
                        List.of(new TicketServer(
                                "periodic",
                                pool(),
                                table,
                                0,
                                1,
                                SchemaInitialization.ALWAYS,
                                Duration.ofSeconds(5),
                                Duration.ofSeconds(1),
                                TimeSource.system())),
                        false),
                THREADS,
                50);
        drawn.assertNumbersAreOneToTheCount();
        assertThat(rows("id"))
                .containsExactly(
                        Map.entry(PeriodicMidnight.counterName(PeriodicMidnight.DAY_BEFORE), (long)
                                drawn.dayBeforeCount()),
                        Map.entry(PeriodicMidnight.counterName(PeriodicMidnight.DAY_AFTER), (long)
                                drawn.dayAfterCount()));
    }

    /**
     * Each instance leases blocks of its own per day, so a day's numbers have gaps (the rest of each block); the
     * table has one row per day, covering every number issued.
     */
    @Test
    void segmentsOnMariaDb() throws Exception {
        endpoint = TestServices.mariadb();
        SegmentSettings settings = SegmentSettings.builder()
                .step(100)
                .maxStep(100)
                .awaitTimeout(Duration.ofSeconds(5))
                .build();
        PeriodicMidnight.Drawn drawn = PeriodicMidnight.run(
                () -> SegmentIdService.builder(new JdbcSegmentStore(
                                pool(), table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5)))
                        .settings(settings)
                        .loader(loader)
                        .build(),
                THREADS,
                50);
        Map<String, Long> rows = rows("max_id");
        assertThat(rows)
                .containsOnlyKeys(
                        PeriodicMidnight.counterName(PeriodicMidnight.DAY_BEFORE),
                        PeriodicMidnight.counterName(PeriodicMidnight.DAY_AFTER));
        drawn.numbers()
                .forEach((key, numbers) -> assertThat(numbers.get(numbers.size() - 1))
                        .as("the last number of %d", key)
                        .isLessThanOrEqualTo(rows.get(PeriodicMidnight.counterName(key))));
    }

    private HikariDataSource pool() {
        HikariDataSource pool = endpoint.pool(4);
        pools.add(pool);
        return pool;
    }

    /**
     * @return the table's rows, name to {@code column}, by name; without idgen's own marker row (whose name no
     *         sequence can have)
     */
    private Map<String, Long> rows(String column) throws Exception {
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection connection = endpoint.connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(
                        "SELECT name, " + column + " FROM " + table + " WHERE name NOT LIKE '#%' ORDER BY name")) {
            while (result.next()) {
                rows.put(result.getString(1), result.getLong(2));
            }
        }
        return rows;
    }
}
