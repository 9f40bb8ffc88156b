package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.test.services.OwnMariaDb;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JDBC segment store on a MariaDB frozen (SIGSTOP) mid-use: an allocation on a connection the pool hands out
 * without validating it must not hang on its socket, which a statement timeout (enforced by the frozen server) does
 * not prevent. It ends within the timeout plus generous slack.
 */
class SegmentStorePausedTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private static final long BOUND_NANOS =
            TIMEOUT.multipliedBy(3).plusSeconds(5).toNanos();

    @Test
    void anAllocationEndsWithinTheTimeoutWhileTheDatabaseIsFrozen() throws Exception {
        String table =
                "idgen_segment_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (OwnMariaDb own = OwnMariaDb.start();
                HikariDataSource pool = own.endpoint().pool(1)) {
            JdbcSegmentStore store = new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, TIMEOUT);
            assertThat(store.allocate("orders", 10)).isEqualTo(new Segment(1, 10));
            own.pause();
            try {
                long start = System.nanoTime();
                CompletableFuture<Object> allocation = CompletableFuture.supplyAsync(() -> {
                    try {
                        return store.allocate("orders", 10);
                    } catch (StoreUnavailableException e) {
                        return e;
                    }
                });
                Object outcome = allocation.get(5, TimeUnit.MINUTES);
                long took = System.nanoTime() - start;
                assertThat(took)
                        .as("the allocation took %d ms", TimeUnit.NANOSECONDS.toMillis(took))
                        .isLessThan(BOUND_NANOS);
                assertThat(outcome).isInstanceOf(StoreUnavailableException.class);
            } finally {
                own.resume();
            }
            Segment after = store.allocate("orders", 10);
            assertThat(after.first())
                    .as("never an ID twice; a lost block is only a gap")
                    .isGreaterThan(10);
        }
    }
}
