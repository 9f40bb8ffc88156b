package dev.idgen.spring.boot.faults;

import static dev.idgen.spring.boot.faults.Conditions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.test.services.OwnMariaDb;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Segments on a real MariaDB that is slow or frozen: a name's first segment waits out a slow database at default
 * settings, the health turns DOWN as soon as a name refuses its callers (even while the database answers its
 * health query), recovers by itself, and answers within its bound while the database is frozen.
 */
class SegmentHealthAndFirstLoadTest {

    private static String table() {
        return "idgen_segment_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    /** Holds the row of {@code name} locked (FOR UPDATE) until the returned connection rolls back. */
    private static Connection lockRow(TestServices.JdbcEndpoint endpoint, String table, String name) throws Exception {
        Connection locker = endpoint.connect();
        locker.setAutoCommit(false);
        try (Statement lock = locker.createStatement()) {
            lock.executeQuery("SELECT * FROM " + table + " WHERE name = '" + name + "' FOR UPDATE")
                    .close();
        }
        return locker;
    }

    @Test
    void aNamesFirstSegmentWaitsOutADatabaseSlowerThanTheAwaitTimeoutAtDefaultSettings() throws Exception {
        String table = table();
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        try (HikariDataSource pool = mariadb.pool(2)) {
            // The store's own timeout is set long so that only the generator's wait decides the outcome.
            JdbcSegmentStore store =
                    new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(30));
            store.allocate("orders", 1); // another instance created the row
            try (SegmentIdService ids = SegmentIdService.builder(store)
                            .settings(SegmentSettings.DEFAULTS)
                            .build();
                    Connection locker = lockRow(mariadb, table, "orders")) {
                CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> ids.nextId("orders"));
                eventually(
                        "the first load to start",
                        () -> ids.stats("orders").map(s -> s.loading()).orElse(false));
                // Longer than the 1 s await timeout: on a busy machine, the first load of a name can take this long.
                long slowFor = SegmentSettings.DEFAULTS.awaitTimeout().toMillis() + 1500;
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(slowFor));
                locker.rollback();
                assertThat(first.get(1, TimeUnit.MINUTES))
                        .as("the first ID, after the block another took")
                        .isEqualTo(2);
            }
        }
    }

    @Test
    void healthIsDownWhileANameRefusesItsCallersThoughTheDatabaseAnswersAndUpOnceItServesAgain() throws Exception {
        String table = table();
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        try (HikariDataSource pool = mariadb.pool(3)) {
            JdbcSegmentStore store =
                    new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(30));
            SegmentSettings settings = SegmentSettings.builder()
                    .step(10)
                    .maxStep(10)
                    .awaitTimeout(Duration.ofMillis(300))
                    .build();
            try (SegmentIdService ids =
                            SegmentIdService.builder(store).settings(settings).build();
                    IdgenHealthIndicator indicator = new IdgenHealthIndicator(ids)) {
                ids.nextIds("orders", 5); // past the preload threshold
                eventually(
                        "the next segment preloaded",
                        () -> ids.stats("orders").orElseThrow().nextRemaining() > 0);
                ids.nextIds("orders", 5);
                try (Connection locker = lockRow(mariadb, table, "orders")) {
                    ids.nextIds("orders", 10); // the preloaded segment; its preload now waits for the lock
                    assertThatThrownBy(() -> ids.nextId("orders"))
                            .isInstanceOf(StoreUnavailableException.class)
                            .hasMessageContaining("did not load within 300 ms");
                    // The store check has 1 s; beside stress-ng one missed it though the database answered (it is
                    // only the row that is locked), and the next health request asks again. 20 s: within the store's
                    // 30 s timeout, so the load behind the lock is still waiting and the name still refusing.
                    AtomicReference<Health> answered = new AtomicReference<>();
                    eventually(
                            "a health whose store check found the database answering", Duration.ofSeconds(20), () -> {
                                answered.set(indicator.health());
                                return Boolean.TRUE.equals(
                                        answered.get().getDetails().get("storeAvailable"));
                            });
                    Health refusing = answered.get();
                    assertThat(refusing.getStatus()).as(refusing.toString()).isEqualTo(Status.DOWN);
                    assertThat(refusing.getDetails())
                            .containsEntry("storeAvailable", true)
                            .containsEntry("namesRefusing", 1)
                            .hasEntrySatisfying(
                                    "error",
                                    error -> assertThat(error.toString()).contains("orders"));
                    locker.rollback();
                }
                // No caller comes: the load behind the lock, or a background retry, makes the name serve again.
                eventually(
                        "the health to turn UP",
                        () -> indicator.health().getStatus().equals(Status.UP));
                assertThat(ids.nextId("orders")).isGreaterThan(20);
            }
        }
    }

    @Test
    void healthAnswersWithinItsBoundWhileTheDatabaseIsFrozen() throws Exception {
        String table = table();
        try (OwnMariaDb own = OwnMariaDb.start();
                HikariDataSource pool = own.endpoint().pool(2)) {
            // A store timeout far above the health's 2 s bound: a check that waited for the frozen database would
            // take this long, so the bound is told apart from it with room for a loaded machine. The pool waits
            // longer still to borrow a connection, as a pool at its defaults does (30 s): with a short one the store
            // check would fail fast by itself and a health without its bound would go unnoticed.
            Duration storeTimeout = Duration.ofSeconds(30);
            pool.setConnectionTimeout(storeTimeout.multipliedBy(2).toMillis());
            JdbcSegmentStore store = new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, storeTimeout);
            SegmentSettings settings =
                    SegmentSettings.builder().step(1000).maxStep(1000).build();
            try (SegmentIdService ids =
                            SegmentIdService.builder(store).settings(settings).build();
                    IdgenHealthIndicator indicator = new IdgenHealthIndicator(ids)) {
                ids.nextId("orders");
                own.pause();
                try {
                    for (int i = 0; i < 3; i++) {
                        Supplier<Health> health = indicator::health;
                        long started = System.nanoTime();
                        Health frozen = health.get();
                        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                        // The bound is 2 s; up to half the store timeout is slack for a loaded machine.
                        assertThat(tookMillis)
                                .as(
                                        "health request %d took %d ms, against a store timeout of %s",
                                        i, tookMillis, storeTimeout)
                                .isLessThan(storeTimeout.dividedBy(2).toMillis());
                        assertThat(frozen.getStatus())
                                .as("IDs left in the buffer: still serving")
                                .isEqualTo(Status.UP);
                        assertThat(frozen.getDetails()).containsEntry("storeAvailable", false);
                    }
                    assertThat(ids.nextId("orders")).isEqualTo(2);
                } finally {
                    own.resume();
                }
                eventually(
                        "the store to answer again",
                        () -> Boolean.TRUE.equals(
                                indicator.health().getDetails().get("storeAvailable")));
            }
        }
    }
}
