package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * {@code idgen.snowflake.switch.*} and the peer presets: every refusal at start-up, as the failure report shows it,
 * and the start-ups that pass. Tables on real MariaDB.
 */
class SnowflakeSwitchTest {

    /** Hutool's epoch, 1288834974657, minus the default one-minute clock margin and one millisecond. */
    private static final String LATEST_EPOCH_ABOVE_HUTOOL = "2010-11-04T01:41:54.656Z";

    private final String table =
            "idgen_switch_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final String workerTable = table + "_w";

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class));

    private final ApplicationContextRunner jdbcRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password());

    @AfterEach
    void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + workerTable);
        }
    }

    private static FailureAnalysis report(ApplicationContextRunner runner, String... properties) {
        AtomicReference<FailureAnalysis> analysis = new AtomicReference<>();
        AtomicReference<ConfigurableEnvironment> environment = new AtomicReference<>();
        runner.withInitializer(context -> environment.set(context.getEnvironment()))
                .withPropertyValues(properties)
                .run(context -> analysis.set(FailureReports.report(context, environment.get())));
        return analysis.get();
    }

    private void createTable(long... ids) throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY)");
            for (long id : ids) {
                statement.execute("INSERT INTO " + table + " VALUES (" + id + ")");
            }
        }
    }

    @Test
    void sonyflakePresetIsRefusedNamingTheProperty() {
        FailureAnalysis analysis = report(runner, "idgen.snowflake.preset=sonyflake");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.preset")
                .contains("sonyflake")
                .contains("cannot produce");
        assertThat(analysis.getAction()).contains("idgen.snowflake.switch.from=sonyflake");
    }

    @Test
    void uidGeneratorsExhaustedPresetIsRefusedWithItsDate() {
        FailureAnalysis analysis = report(runner, "idgen.snowflake.preset=uid-generator");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.preset")
                .contains("ran out on 2024-11-20T13:24:16Z");
    }

    @Test
    void aPeerPresetKeepsTheLibrarysLayoutAndEpoch() {
        runner.withPropertyValues("idgen.snowflake.preset=hutool", "idgen.snowflake.worker-id=5")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SnowflakeGenerator.class).layout())
                            .isEqualTo(SnowflakePreset.HUTOOL.layout().orElseThrow());
                    long id = context.getBean(IdService.class).nextId("orders");
                    assertThat(SnowflakePreset.HUTOOL.decode(id).workerId()).isEqualTo(5);
                });
    }

    @Test
    void aStaticWorkerIdInsideTheOldWorkerIdsIsRefusedNamingBoth() {
        FailureAnalysis analysis = report(
                runner,
                "idgen.snowflake.preset=hutool",
                "idgen.snowflake.switch.from=hutool",
                "idgen.snowflake.switch.old-worker-ids=0-3,40",
                "idgen.snowflake.worker-id=40");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.worker-id")
                .contains("idgen.snowflake.switch.old-worker-ids=0-3,40");
        runner.withPropertyValues(
                        "idgen.snowflake.preset=hutool",
                        "idgen.snowflake.switch.from=hutool",
                        "idgen.snowflake.switch.old-worker-ids=0-3,40",
                        "idgen.snowflake.worker-id=4")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anOrdinalWorkerIdInsideTheOldWorkerIdsIsRefused() {
        FailureAnalysis analysis = report(
                runner,
                "idgen.snowflake.preset=hutool",
                "idgen.snowflake.switch.from=hutool",
                "idgen.snowflake.switch.old-worker-ids=0-3",
                "idgen.snowflake.worker-id-assigner=ordinal",
                "HOSTNAME=orders-2");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.worker-id-assigner=ordinal gave worker id 2")
                .contains("idgen.snowflake.switch.old-worker-ids=0-3");
        assertThat(analysis.getAction()).contains("idgen.snowflake.ordinal.offset");
    }

    @Test
    void oldWorkerIdsInADifferentLayoutAreRefusedNamingTheProperties() {
        FailureAnalysis analysis = report(
                runner,
                "idgen.snowflake.switch.from=hutool",
                "idgen.snowflake.switch.old-worker-ids=0-3",
                "idgen.snowflake.worker-id=5");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.switch.old-worker-ids")
                .contains("idgen.snowflake.switch.from=hutool")
                .contains("only within one layout");
        assertThat(analysis.getAction()).contains("idgen.snowflake.preset=hutool");
        // Same epoch and bits, one worker bit moved to the sequence: still another layout.
        assertThat(report(
                                runner,
                                "idgen.snowflake.preset=hutool",
                                "idgen.snowflake.worker-bits=9",
                                "idgen.snowflake.sequence-bits=13",
                                "idgen.snowflake.switch.from=hutool",
                                "idgen.snowflake.switch.old-worker-ids=0-3",
                                "idgen.snowflake.worker-id=5")
                        .getDescription())
                .contains("only within one layout");
    }

    @Test
    void leasedWorkerIdsKeepOutOfTheOldOnes() {
        jdbcRunner
                .withPropertyValues(
                        "idgen.snowflake.preset=hutool",
                        "idgen.snowflake.switch.from=hutool",
                        "idgen.snowflake.switch.old-worker-ids=0-3",
                        "idgen.snowflake.worker-id-assigner=jdbc",
                        "idgen.jdbc.worker-table=" + workerTable,
                        "idgen.jdbc.initialize-schema=always")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SnowflakeGenerator.class).workerId())
                            .isEqualTo(4);
                });
    }

    @Test
    void startAboveIsRefusedWhileIdgensSmallestIdNowIsNotAboveIt() {
        FailureAnalysis analysis = report(runner, "idgen.snowflake.switch.start-above=" + (1L << 62));
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.switch.start-above")
                .contains("not above " + (1L << 62));
        assertThat(analysis.getAction()).contains("idgen.snowflake.epoch: at most ");
        runner.withPropertyValues("idgen.snowflake.switch.start-above=1000000").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(IdService.class).nextId("orders")).isGreaterThan(1000000);
        });
    }

    @Test
    void switchingFromHutoolNeedsAnEpochAtLeastTheClockMarginEarlierThanHutools() {
        FailureAnalysis analysis = report(runner, "idgen.snowflake.switch.from=hutool");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.switch.from")
                .contains("not above");
        assertThat(analysis.getAction()).contains("at most " + LATEST_EPOCH_ABOVE_HUTOOL);
        // Exact: one millisecond later is refused, the reported epoch starts.
        assertThat(report(
                                runner,
                                "idgen.snowflake.switch.from=hutool",
                                "idgen.snowflake.epoch=2010-11-04T01:41:54.657Z")
                        .getDescription())
                .contains("idgen.snowflake.switch.from");
        runner.withPropertyValues(
                        "idgen.snowflake.switch.from=hutool", "idgen.snowflake.epoch=" + LATEST_EPOCH_ABOVE_HUTOOL)
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void switchingFromYitterAllowsForTheMillisecondsItRunsAhead() {
        // yitter's worker and sequence bits in 41 bits of milliseconds (so that yitter's 51 outlive them): its epoch
        // 2020-02-19T18:20:02Z minus the minute of clock margin, minus the 2,000 ms it may borrow ahead and one more.
        String[] shape = {
            "idgen.snowflake.switch.from=yitter",
            "idgen.snowflake.timestamp-bits=41",
            "idgen.snowflake.worker-bits=6",
            "idgen.snowflake.sequence-bits=6"
        };
        assertThat(report(runner.withPropertyValues(shape)).getAction())
                .contains("idgen.snowflake.epoch: at most 2020-02-19T18:18:59.999Z");
        assertThat(report(runner.withPropertyValues(shape), "idgen.snowflake.epoch=2020-02-19T18:19:00Z")
                        .getDescription())
                .contains("idgen.snowflake.switch.from");
        runner.withPropertyValues(shape)
                .withPropertyValues("idgen.snowflake.epoch=2020-02-19T18:18:59.999Z")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void anEpochAboveTheOldFleetNowButNotAtALaterStopByIsRefusedNamingIt() {
        // Above every Hutool ID up to now plus the margin, but Hutool writers running another hour reach past it.
        String stopBy = Instant.now().plus(Duration.ofHours(1)).toString();
        FailureAnalysis analysis = report(
                runner,
                "idgen.snowflake.switch.from=hutool",
                "idgen.snowflake.switch.old-writers-stop-by=" + stopBy,
                "idgen.snowflake.epoch=" + LATEST_EPOCH_ABOVE_HUTOOL);
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.switch.from")
                .contains("idgen.snowflake.switch.old-writers-stop-by=" + stopBy);
        assertThat(analysis.getAction()).contains("idgen.snowflake.epoch: at most ");
        // The hour further back starts: the stop-by is less than an hour away by the time it starts.
        runner.withPropertyValues(
                        "idgen.snowflake.switch.from=hutool",
                        "idgen.snowflake.switch.old-writers-stop-by=" + stopBy,
                        "idgen.snowflake.epoch="
                                + Instant.parse(LATEST_EPOCH_ABOVE_HUTOOL).minus(Duration.ofHours(1)))
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aStopByMoreThan366DaysAheadIsRefusedNamingTheProperty() {
        FailureAnalysis analysis = report(
                runner,
                "idgen.snowflake.switch.from=hutool",
                "idgen.snowflake.switch.old-writers-stop-by=" + Instant.now().plus(Duration.ofDays(367)),
                "idgen.snowflake.epoch=2000-01-01T00:00:00Z");
        assertThat(analysis.getDescription())
                .contains("idgen.snowflake.switch.old-writers-stop-by")
                .contains("366 days");
    }

    @Test
    void aMaximumThatMovesWhileStartingIsRefusedWithoutSwitchFrom() throws Exception {
        createTable(1);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch writing = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (Connection connection = TestServices.mariadb().connect();
                    Statement statement = connection.createStatement()) {
                for (long id = 2; !stop.get(); id++) {
                    statement.execute("INSERT INTO " + table + " VALUES (" + id + ")");
                    writing.countDown();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        try {
            assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
            FailureAnalysis analysis = report(
                    jdbcRunner,
                    "idgen.snowflake.switch.start-above-max-of=" + table + ".id",
                    "idgen.snowflake.switch.recheck-interval=200ms");
            assertThat(analysis.getDescription())
                    .contains("idgen.snowflake.switch.start-above-max-of")
                    .contains("moved from");
            assertThat(analysis.getAction()).contains("Stop the old writers").contains("idgen.snowflake.switch.from");
        } finally {
            stop.set(true);
            writer.join();
        }
        // Still: the maximum holds, and idgen starts above it.
        jdbcRunner
                .withPropertyValues(
                        "idgen.snowflake.switch.start-above-max-of=" + table + ".id",
                        "idgen.snowflake.switch.recheck-interval=50ms")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void startAboveMaxOfIsRefusedWhileIdgensSmallestIdIsNotAboveTheMaximum() throws Exception {
        createTable(1L << 62);
        assertThat(report(
                                jdbcRunner,
                                "idgen.snowflake.switch.start-above-max-of=" + table + ".id",
                                "idgen.snowflake.switch.recheck-interval=10ms")
                        .getDescription())
                .contains("idgen.snowflake.switch.start-above-max-of")
                .contains("not above " + (1L << 62));
    }

    @Test
    void aBadOrMissingTableOrNoDataSourceIsRefusedClearly() {
        assertThat(report(jdbcRunner, "idgen.snowflake.switch.start-above-max-of=orders; DROP TABLE x.id")
                        .getDescription())
                .contains("idgen.snowflake.switch.start-above-max-of")
                .contains("must be table.column");
        assertThat(report(jdbcRunner, "idgen.snowflake.switch.start-above-max-of=" + table + ".id")
                        .getDescription())
                .contains("idgen.snowflake.switch.start-above-max-of=" + table + ".id could not be read")
                .contains(table);
        assertThat(report(runner, "idgen.snowflake.switch.start-above-max-of=orders.id")
                        .getDescription())
                .contains("idgen.snowflake.switch.start-above-max-of=orders.id needs a DataSource");
    }
}
