package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import cn.hutool.core.lang.Snowflake;
import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * A fleet switching from Hutool's {@code cn.hutool.core.lang.Snowflake} to idgen while both write into one MariaDB
 * table with a primary key, so that a repeated ID is a failed insert: both ways of {@code idgen.snowflake.switch.*}.
 */
class SnowflakeSwitchFromHutoolTest {

    /**
     * Hutool's epoch minus one millisecond: with no clock margin, idgen's IDs at t are above every Hutool ID up to t,
     * but equal to Hutool's at t + 1 ms for the same worker and sequence.
     */
    private static final String EPOCH_BELOW_HUTOOL = "2010-11-04T01:42:54.656Z";

    private static final Pattern AT_MOST = Pattern.compile("idgen\\.snowflake\\.epoch: at most (\\S+) ");

    private static final int BATCH = 100;

    private final String table =
            "idgen_hutool_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    private final List<Thread> threads = new ArrayList<>();

    /** Stops every writer: set when a test ends, whichever way. */
    private final AtomicBoolean stopped = new AtomicBoolean();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password());

    @BeforeEach
    void createTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, writer VARCHAR(16) NOT NULL)");
        }
    }

    @AfterEach
    void dropTables() throws Exception {
        stopped.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + table + "_w");
        }
    }

    /**
     * Way 1: idgen keeps Hutool's layout and epoch (preset hutool) and leases worker ids outside the old fleet's 0 to 3;
     * four Hutool writers and two idgen instances insert at once, and no insert repeats a key.
     */
    @Test
    void aRollingSwitchWithDisjointWorkerIdsNeverRepeatsAnId() throws Exception {
        String[] rolling = {
            "idgen.snowflake.preset=hutool",
            "idgen.snowflake.switch.from=hutool",
            "idgen.snowflake.switch.old-worker-ids=0-3",
            "idgen.snowflake.worker-id-assigner=jdbc",
            "idgen.jdbc.worker-table=" + table + "_w",
            "idgen.jdbc.initialize-schema=always"
        };
        int batches = 20;
        runner.withPropertyValues(rolling)
                .run(first -> runner.withPropertyValues(rolling).run(second -> {
                    assertThat(first).hasNotFailed();
                    assertThat(second).hasNotFailed();
                    List<Long> workers = List.of(
                            first.getBean(SnowflakeGenerator.class).workerId(),
                            second.getBean(SnowflakeGenerator.class).workerId());
                    assertThat(workers).containsExactlyInAnyOrder(4L, 5L);
                    CountDownLatch start = new CountDownLatch(1);
                    for (long worker = 0; worker < 4; worker++) {
                        Snowflake hutool = new Snowflake(worker, 0);
                        writer(start, "hutool" + worker, hutool::nextId, batches, () -> false);
                    }
                    IdService a = first.getBean(IdService.class);
                    IdService b = second.getBean(IdService.class);
                    writer(start, "idgen" + workers.get(0), () -> a.nextId("orders"), batches, () -> false);
                    writer(start, "idgen" + workers.get(1), () -> b.nextId("orders"), batches, () -> false);
                    start.countDown();
                    for (Thread thread : threads) {
                        thread.join();
                    }
                    assertThat(failures).isEmpty();
                    assertThat(count("1 = 1")).isEqualTo(6L * batches * BATCH);
                    for (long worker : workers) {
                        for (long id : ids("writer = 'idgen" + worker + "'")) {
                            assertThat(SnowflakePreset.HUTOOL.decode(id).workerId())
                                    .isEqualTo(worker);
                        }
                    }
                }));
    }

    /**
     * Way 2: Hutool writers keep inserting while idgen starts with switch.from=hutool, start-above-max-of and
     * old-writers-stop-by four seconds ahead; the writers stop before then, idgen keeps inserting, and no key repeats.
     * The clock margin is 0 (one host), so that the epoch right below Hutool's, above every Hutool ID now but reached by
     * Hutool writers a millisecond later, is refused naming old-writers-stop-by; the epoch the refusal gives starts.
     */
    @Test
    void aSwitchAboveTheOldIdsWhileOldWritersKeepInsertingUntilTheyStop() throws Exception {
        long stopBy = System.currentTimeMillis() + 4000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> hutools = new ArrayList<>();
        for (long worker = 0; worker < 2; worker++) {
            Snowflake hutool = new Snowflake(worker, 0);
            // Stops before old-writers-stop-by, whichever batch it is in.
            hutools.add(writer(
                    start,
                    "hutool",
                    hutool::nextId,
                    Integer.MAX_VALUE,
                    () -> System.currentTimeMillis() >= stopBy - 500));
        }
        start.countDown();
        awaitRows();
        String[] above = {
            "idgen.snowflake.switch.from=hutool",
            "idgen.snowflake.switch.start-above-max-of=" + table + ".id",
            "idgen.snowflake.switch.clock-margin=0s",
            "idgen.snowflake.switch.old-writers-stop-by=" + Instant.ofEpochMilli(stopBy)
        };
        AtomicReference<ConfigurableEnvironment> environment = new AtomicReference<>();
        AtomicReference<String> epoch = new AtomicReference<>();
        runner.withInitializer(context -> environment.set(context.getEnvironment()))
                .withPropertyValues(above)
                .withPropertyValues("idgen.snowflake.epoch=" + EPOCH_BELOW_HUTOOL)
                .run(context -> {
                    FailureAnalysis report = FailureReports.report(context, environment.get());
                    assertThat(report.getDescription())
                            .contains("idgen.snowflake.switch.from")
                            .contains("idgen.snowflake.switch.old-writers-stop-by");
                    Matcher latest = AT_MOST.matcher(report.getAction());
                    assertThat(latest.find()).as(report.getAction()).isTrue();
                    epoch.set(latest.group(1));
                });
        // Up to four seconds of Hutool IDs (less the time since) further back.
        assertThat(Instant.parse(epoch.get()))
                .isBefore(Instant.parse(EPOCH_BELOW_HUTOOL))
                .isAfter(Instant.parse(EPOCH_BELOW_HUTOOL).minusMillis(4001));
        long maxBeforeStart = max("writer = 'hutool'");
        runner.withPropertyValues(above)
                .withPropertyValues("idgen.snowflake.epoch=" + epoch.get())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    CountDownLatch now = new CountDownLatch(1);
                    // Until the Hutool writers have stopped, then 20 batches more.
                    AtomicBoolean oldStopped = new AtomicBoolean();
                    Thread idgen = writer(now, "idgen", () -> ids.nextId("orders"), Integer.MAX_VALUE, oldStopped::get);
                    now.countDown();
                    for (Thread hutool : hutools) {
                        hutool.join();
                    }
                    oldStopped.set(true);
                    idgen.join();
                    Thread after = writer(now, "idgen", () -> ids.nextId("orders"), 20, () -> false);
                    after.join();
                });
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
        assertThat(count("writer = 'idgen'")).isGreaterThanOrEqualTo(20L * BATCH);
        assertThat(max("writer = 'hutool'")).isGreaterThan(maxBeforeStart); // Hutool kept writing meanwhile
    }

    /**
     * Inserts {@code batches} batches of {@link #BATCH} IDs, each one multi-row INSERT, until {@code stop} says so.
     */
    private Thread writer(CountDownLatch start, String name, LongSupplier ids, int batches, BooleanSupplier stop) {
        Thread thread = new Thread(
                () -> {
                    try (Connection connection = TestServices.mariadb().connect();
                            Statement statement = connection.createStatement()) {
                        start.await();
                        for (int batch = 0; batch < batches && !stop.getAsBoolean() && !stopped.get(); batch++) {
                            StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id, writer) VALUES ");
                            for (int i = 0; i < BATCH; i++) {
                                sql.append(i == 0 ? "" : ", ")
                                        .append('(')
                                        .append(ids.getAsLong())
                                        .append(", '")
                                        .append(name)
                                        .append("')");
                            }
                            statement.execute(sql.toString());
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                },
                "writer-" + name);
        threads.add(thread);
        thread.start();
        return thread;
    }

    private void awaitRows() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count("1 = 1") == 0) {
            assertThat(System.nanoTime()).as("rows inserted within 10 s").isLessThan(deadline);
            assertThat(failures).isEmpty();
            Thread.onSpinWait();
        }
    }

    private long count(String where) throws Exception {
        return query("SELECT COUNT(*) FROM " + table + " WHERE " + where).get(0);
    }

    private long max(String where) throws Exception {
        return query("SELECT MAX(id) FROM " + table + " WHERE " + where).get(0);
    }

    private List<Long> ids(String where) throws Exception {
        return query("SELECT id FROM " + table + " WHERE " + where);
    }

    private static List<Long> query(String sql) throws Exception {
        List<Long> values = new ArrayList<>();
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                values.add(result.getLong(1));
            }
        }
        return values;
    }
}
