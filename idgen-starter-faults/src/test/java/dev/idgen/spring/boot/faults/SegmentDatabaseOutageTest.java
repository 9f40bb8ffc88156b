package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.test.services.OwnMariaDb;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The segment strategy while its database goes away and comes back: a MariaDB of the test's own, stopped and started.
 */
class SegmentDatabaseOutageTest {

    private static OwnMariaDb database;

    @BeforeAll
    static void startDatabase() throws Exception {
        database = OwnMariaDb.start();
    }

    @AfterAll
    static void removeDatabase() throws Exception {
        database.close();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 20 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void servesFromTheBuffersWhileTheDatabaseIsDownThenFailsFastAndRecoversWithoutARestart() throws Exception {
        try (HikariDataSource pool = database.endpoint().pool(2)) {
            // A first connection to a fresh server takes over the pool's 500 ms on a loaded machine (seen under
            // stress-ng): the outage below is what this test is about, not a slow start.
            pool.setConnectionTimeout(Duration.ofSeconds(5).toMillis());
            JdbcSegmentStore store = new JdbcSegmentStore(
                    pool, "idgen_segment_outage", 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(2));
            // An await timeout far above the store's 2 s timeout, so that failing fast (on the failed load) and
            // waiting the await timeout out are told apart with room for a loaded machine.
            Duration awaitTimeout = Duration.ofSeconds(30);
            try (SegmentIdService ids = SegmentIdService.builder(store)
                    .settings(SegmentSettings.builder()
                            .step(1000)
                            .maxStep(1000)
                            .awaitTimeout(awaitTimeout)
                            .build())
                    .build()) {
                long[] first = ids.nextIds("orders", 300); // past the 20% preload threshold
                long last = first[299];
                eventually(() -> ids.stats("orders")
                                .map(SegmentBufferStats::nextRemaining)
                                .orElse(0L)
                        == 1000);

                database.stop();
                for (int i = 300; i < 2000; i++) {
                    long id = ids.nextId("orders");
                    assertThat(id).isGreaterThan(last);
                    last = id;
                }
                long started = System.nanoTime();
                assertThatThrownBy(() -> ids.nextId("orders")).isInstanceOf(StoreUnavailableException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as(
                                "failed fast, on the failed load, rather than waiting out the await timeout of %s",
                                awaitTimeout)
                        .isLessThan(awaitTimeout.dividedBy(2));

                database.startServer();
                long[] afterOutage = new long[1];
                eventually(() -> {
                    try {
                        afterOutage[0] = ids.nextId("orders");
                        return true;
                    } catch (StoreUnavailableException stillRecovering) {
                        return false; // a load that failed during the outage may still be answering
                    }
                });
                assertThat(afterOutage[0]).isGreaterThan(last);
            }
        }
    }

    @Test
    void startsWhileTheDatabaseIsDownWithHealthDownAndRecoversWhenItReturns() throws Exception {
        database.stop();
        try {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(
                            DataSourceAutoConfiguration.class,
                            MybatisAutoConfiguration.class,
                            IdgenAutoConfiguration.class,
                            IdgenHealthContributorAutoConfiguration.class))
                    .withPropertyValues(
                            "idgen.strategy=segment",
                            "spring.datasource.url=" + database.url(),
                            "spring.datasource.username=" + database.endpoint().username(),
                            "spring.datasource.password=" + database.endpoint().password(),
                            "spring.datasource.hikari.connection-timeout=500",
                            "idgen.jdbc.initialize-schema=always",
                            "idgen.jdbc.table=idgen_segment_startup",
                            "idgen.segment.await-timeout=3s")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        HealthIndicator health = context.getBean("idgenHealthIndicator", HealthIndicator.class);
                        IdService ids = context.getBean(IdService.class);
                        assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
                        assertThatThrownBy(() -> ids.nextId("orders")).isInstanceOf(StoreUnavailableException.class);

                        database.startServer();
                        // The load that failed during the outage may still be answering on a loaded machine: the
                        // service recovers on its own, and the IDs it lost nothing of start at 1.
                        long[] firstServed = new long[1];
                        eventually(() -> {
                            try {
                                firstServed[0] = ids.nextId("orders");
                                return true;
                            } catch (StoreUnavailableException stillRecovering) {
                                return false;
                            }
                        });
                        assertThat(firstServed[0]).isEqualTo(1);
                        eventually(() -> health.health().getStatus().equals(Status.UP));
                    });
        } finally {
            database.startServer();
        }
    }
}
