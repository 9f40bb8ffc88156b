package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.test.services.OwnMariaDb;
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
import org.junit.jupiter.api.Test;

/**
 * A ticket server whose MariaDB is frozen (SIGSTOP): connections stay open and nothing answers. Every call returns
 * or throws {@link StoreUnavailableException} within the timeout (plus slack for a loaded machine), whatever the
 * pool's own, much longer, connection timeout; then the breaker is open, and after SIGCONT the server serves again
 * without repeating an ID.
 */
class TicketServerPausedTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    /** Generous: 3x the timeout plus 5 s, for a loaded machine. A hang is the pool's 30 s or more. */
    private static final long BOUND_NANOS =
            TIMEOUT.multipliedBy(3).plusSeconds(5).toNanos();

    @Test
    void everyCallEndsWithinTheTimeoutWhileTheDatabaseIsFrozen() throws Exception {
        String table =
                "idgen_ticket_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try (OwnMariaDb own = OwnMariaDb.start();
                HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(own.endpoint().url());
            pool.setUsername(own.endpoint().username());
            pool.setPassword(own.endpoint().password());
            pool.setMaximumPoolSize(4);
            // The pool's defaults: 30 s to borrow, 5 s to validate. idgen must not wait on them.
            TicketIdService ids = new TicketIdService(
                    List.of(new TicketServer(
                            "own", pool, table, 0, 1, true, TIMEOUT, Duration.ofMillis(300), TimeSource.system())),
                    false);
            Set<Long> seen = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 5; i++) {
                assertThat(seen.add(ids.nextId("orders"))).isTrue();
            }

            own.pause();
            try {
                List<Future<Long>> calls = new ArrayList<>();
                for (int i = 0; i < 24; i++) {
                    calls.add(clients.submit(() -> {
                        long start = System.nanoTime();
                        try {
                            long id = ids.nextId("orders");
                            assertThat(seen.add(id))
                                    .as("ID %d handed out twice", id)
                                    .isTrue();
                        } catch (StoreUnavailableException expected) {
                            // The point: it comes back, and soon.
                        }
                        return System.nanoTime() - start;
                    }));
                }
                for (Future<Long> call : calls) {
                    long took = call.get(5, TimeUnit.MINUTES);
                    assertThat(took)
                            .as("one call took %d ms", TimeUnit.NANOSECONDS.toMillis(took))
                            .isLessThan(BOUND_NANOS);
                }
                assertThat(ids.servers().get(0).isOpen())
                        .as("the breaker is open")
                        .isTrue();
                assertThat(ids.servers().get(0).lastError()).contains("did not answer within");
            } finally {
                own.resume();
            }

            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            Long after = null;
            while (after == null) {
                try {
                    after = ids.nextId("orders");
                } catch (StoreUnavailableException e) {
                    assertThat(System.nanoTime() - deadline)
                            .as("the server serves again after SIGCONT: " + e)
                            .isNegative();
                    Thread.sleep(50); // polling the condition, not a fixed wait
                }
            }
            assertThat(seen.add(after)).as("ID %d handed out twice", after).isTrue();
            assertThat(ids.servers().get(0).isOpen()).isFalse();
            ids.close();
        } finally {
            clients.shutdownNow();
        }
    }
}
