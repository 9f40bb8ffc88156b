package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.test.services.OwnMariaDb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Sixteen callers of one name on a MariaDB of the test's own that freezes (SIGSTOP) while they run: one caller's round
 * trip is in flight and the others are queued behind it when the database stops answering. Every call ends within the
 * timeout (plus slack for a loaded machine), failing with a {@link StoreUnavailableException} that says what happened,
 * whatever the pool's own 30 s connection timeout; after SIGCONT the server serves again, with no ID handed out twice
 * and every call that started after another returned getting a larger ID.
 */
class TicketServerFreezeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    /** Generous: 3x the timeout plus 5 s, for a loaded machine. A hang would be the pool's 30 s or more. */
    private static final long BOUND_NANOS =
            TIMEOUT.multipliedBy(3).plusSeconds(5).toNanos();

    private static final int THREADS = 16;

    /** One call: its start and end, and its ID or failure. */
    private record Outcome(long start, long end, long id, Exception failure) {}

    @Test
    void callersQueuedWhenTheDatabaseFreezesFailWithinTheTimeoutAndNoIdRepeatsAfterwards() throws Exception {
        String table = "idgen_ticket_freeze";
        String name = "orders";
        ExecutorService clients = Executors.newFixedThreadPool(THREADS);
        AtomicBoolean stop = new AtomicBoolean();
        try (OwnMariaDb own = OwnMariaDb.start();
                HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(own.url());
            pool.setUsername("root");
            pool.setPassword("");
            pool.setMaximumPoolSize(THREADS);
            // The pool's defaults otherwise: 30 s to borrow, 5 s to validate. idgen must not wait on them.
            TicketServer server = new TicketServer(
                    "own",
                    pool,
                    table,
                    0,
                    1,
                    SchemaInitialization.ALWAYS,
                    TIMEOUT,
                    Duration.ofMillis(200),
                    TimeSource.system());
            TicketIdService ids = new TicketIdService(List.of(server), false);
            assertThat(ids.nextId(name)).isEqualTo(1);

            AtomicInteger successes = new AtomicInteger();
            AtomicInteger ranOutOfTime = new AtomicInteger();
            List<Future<List<Outcome>>> running = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                running.add(clients.submit(() -> {
                    List<Outcome> outcomes = new ArrayList<>();
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        try {
                            long id = ids.nextId(name);
                            outcomes.add(new Outcome(start, System.nanoTime(), id, null));
                            successes.incrementAndGet();
                        } catch (StoreUnavailableException e) {
                            outcomes.add(new Outcome(start, System.nanoTime(), 0, e));
                            if (!e.getMessage().contains("(circuits open)")) {
                                ranOutOfTime.incrementAndGet();
                            }
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // a client backing off
                        }
                    }
                    return outcomes;
                }));
            }

            until(() -> successes.get() >= 300, "300 IDs before the freeze");
            long callsBefore = successes.get();
            long roundTripsBefore = server.calls();
            assertThat(roundTripsBefore).as("callers share round trips").isLessThan(callsBefore);

            own.pause();
            int ranOutAtPause = ranOutOfTime.get();
            try {
                // The round trip in flight and the callers queued behind it run out of time; then, each time the
                // breaker's retry-after has passed, one probe does (borrowing a connection from a pool that would
                // validate one for 5 s).
                until(() -> ranOutOfTime.get() >= ranOutAtPause + THREADS + 2, "the callers to fail while frozen");
            } finally {
                own.resume();
            }
            int successesAtResume = successes.get();
            until(() -> successes.get() >= successesAtResume + 300, "300 IDs after the database answers again");
            stop.set(true);

            List<Outcome> outcomes = new ArrayList<>();
            for (Future<List<Outcome>> thread : running) {
                outcomes.addAll(thread.get(2, TimeUnit.MINUTES));
            }
            List<dev.idgen.test.CallOrder.Call> calls = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            seen.add(1L);
            for (Outcome outcome : outcomes) {
                assertThat(outcome.end() - outcome.start())
                        .as("one call took %d ms", TimeUnit.NANOSECONDS.toMillis(outcome.end() - outcome.start()))
                        .isLessThan(BOUND_NANOS);
                if (outcome.failure() == null) {
                    assertThat(seen.add(outcome.id()))
                            .as("ID %d handed out twice", outcome.id())
                            .isTrue();
                    calls.add(new dev.idgen.test.CallOrder.Call(outcome.start(), outcome.end(), outcome.id()));
                } else {
                    String message = outcome.failure().getMessage();
                    assertThat(message)
                            .as("a failure that says what happened")
                            .containsAnyOf(
                                    "Ticket server own did not answer within 1000 ms",
                                    "No round trip to ticket server own for 'orders' took this call within 1000 ms",
                                    "(circuits open)");
                }
            }
            // Each thread calls one after another, so every success but a thread's first starts after a success
            // returned: with fewer checked, the order check would have passed on calls it never compared.
            int checked = dev.idgen.test.CallOrder.assertLaterCallsGetLargerIds(calls);
            assertThat(checked)
                    .as("successes that started after another had returned")
                    .isGreaterThanOrEqualTo(calls.size() - THREADS);
            assertThat(server.isOpen()).as("closed again").isFalse();
            ids.close();
        } finally {
            stop.set(true);
            clients.shutdownNow();
        }
    }

    private static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.sleep(10); // polling the condition, within the deadline
        }
    }
}
