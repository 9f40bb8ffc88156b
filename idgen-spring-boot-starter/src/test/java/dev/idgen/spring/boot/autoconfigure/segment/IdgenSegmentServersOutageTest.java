package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.segment.InterleavedSegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.test.services.OwnMariaDb;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Segments over two independent databases with no replication (the machine's PostgreSQL and a MariaDB of the test's
 * own): two instances draw under load, the MariaDB is stopped, both keep serving from PostgreSQL, the MariaDB comes
 * back and serves again, and no ID is ever issued twice.
 */
class IdgenSegmentServersOutageTest {

    private static final long SLOT = 1000;

    private final String table =
            "idgen_seg_out_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private final List<AutoCloseable> closing = new ArrayList<>();

    /** One instance: its own pools, its own store over the two servers, asking {@code first} first. */
    private SegmentIdService instance(OwnMariaDb mariadb, int first) {
        HikariDataSource postgres = TestServices.postgres().pool(4);
        HikariDataSource own = mariadb.endpoint().pool(4);
        closing.add(postgres);
        closing.add(own);
        InterleavedSegmentStore store = InterleavedSegmentStore.builder(SLOT)
                .firstServer(first)
                .server(
                        "postgres",
                        new JdbcSegmentStore(postgres, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5)))
                .server(
                        "mariadb",
                        new JdbcSegmentStore(own, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5)))
                .build();
        SegmentIdService service = SegmentIdService.builder(store)
                .settings(SegmentSettings.builder()
                        .step(50)
                        .maxStep(500)
                        .awaitTimeout(Duration.ofSeconds(2))
                        .build())
                .build();
        closing.add(service);
        return service;
    }

    private static int server(long id) {
        return (int) ((id - 1) / SLOT % 2);
    }

    @Test
    void bothInstancesKeepServingWhenOneDatabaseIsLostAndNothingRepeats() throws Exception {
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        AtomicLong repeats = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        AtomicLong[] fromServer = {new AtomicLong(), new AtomicLong()};
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try (OwnMariaDb mariadb = OwnMariaDb.start()) {
            // Both start on the MariaDB, so losing it moves both.
            SegmentIdService[] instances = {instance(mariadb, 1), instance(mariadb, 1)};
            List<Future<?>> load = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                SegmentIdService ids = instances[t % 2];
                load.add(threads.submit(() -> {
                    long last = 0;
                    while (running.get()) {
                        long id;
                        try {
                            id = ids.nextId("orders");
                        } catch (IdGenerationException e) {
                            refusals.incrementAndGet();
                            continue;
                        }
                        if (!seen.add(id)) {
                            repeats.incrementAndGet();
                        }
                        if (id <= last) {
                            throw new AssertionError(id + " after " + last + " on one thread");
                        }
                        last = id;
                        fromServer[server(id)].incrementAndGet();
                    }
                    return null;
                }));
            }
            awaitWithin(Duration.ofMinutes(2), () -> fromServer[1].get() >= 5_000);

            mariadb.stop();
            long postgresAtStop = fromServer[0].get();
            awaitWithin(
                    Duration.ofMinutes(3),
                    () -> fromServer[0].get() >= postgresAtStop + 10_000
                            && ((InterleavedSegmentStore) instances[0].store()).failovers() >= 1
                            && ((InterleavedSegmentStore) instances[1].store()).failovers() >= 1);
            for (SegmentIdService instance : instances) {
                InterleavedSegmentStore store = (InterleavedSegmentStore) instance.store();
                assertThat(store.servers().get(1).available()).isFalse();
                assertThat(store.servers().get(0).current()).isTrue();
            }

            mariadb.startServer();
            // A third instance that asks the MariaDB first serves from it again, beside the two on PostgreSQL.
            SegmentIdService third = instance(mariadb, 1);
            long mariadbBefore = fromServer[1].get();
            long[] served = new long[1];
            awaitWithin(Duration.ofMinutes(2), () -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        long id = third.nextId("orders");
                        if (!seen.add(id)) {
                            repeats.incrementAndGet();
                        }
                        fromServer[server(id)].incrementAndGet();
                        served[0]++;
                    }
                } catch (IdGenerationException e) {
                    refusals.incrementAndGet();
                }
                return fromServer[1].get() >= mariadbBefore + 5_000;
            });
            running.set(false);
            for (Future<?> thread : load) {
                thread.get(1, TimeUnit.MINUTES);
            }
            assertThat(repeats.get()).as("IDs issued twice").isZero();
            assertThat(seen).hasSize((int) (fromServer[0].get() + fromServer[1].get()));
            System.out.printf(
                    "segment servers outage: %d IDs (%d from PostgreSQL, %d from MariaDB), %d refusals,"
                            + " third instance %d%n",
                    seen.size(), fromServer[0].get(), fromServer[1].get(), refusals.get(), served[0]);
        } finally {
            running.set(false);
            threads.shutdownNow();
            for (int i = closing.size() - 1; i >= 0; i--) {
                closing.get(i).close();
            }
            try (Connection connection = TestServices.postgres().connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static void awaitWithin(Duration deadline, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("Condition not met within " + deadline);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
