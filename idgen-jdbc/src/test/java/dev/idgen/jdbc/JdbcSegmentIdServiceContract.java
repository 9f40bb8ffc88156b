package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.test.IdServiceContract;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;

/**
 * The {@link IdService} contract for segments from a real database, through the plain-Java builder, on a table of
 * the test's own.
 */
abstract class JdbcSegmentIdServiceContract extends IdServiceContract {

    private final String table =
            "idgen_segment_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    /** The service's loader, ours so that the table is dropped only once no load can still be running on it. */
    private final ScheduledExecutorService loader = Executors.newScheduledThreadPool(2);

    private HikariDataSource pool;

    protected abstract TestServices.JdbcEndpoint endpoint();

    @Override
    protected IdService service() {
        pool = endpoint().pool(4);
        return SegmentIdService.builder(store(pool)).loader(loader).build();
    }

    /** The only line here that knows how a {@link JdbcSegmentStore} is built. */
    private JdbcSegmentStore store(HikariDataSource pool) {
        return new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }

    @AfterEach
    void dropTable() throws Exception {
        loader.shutdownNow();
        assertThat(loader.awaitTermination(30, TimeUnit.SECONDS))
                .as("the loads in flight end")
                .isTrue();
        if (pool == null) {
            return;
        }
        try (HikariDataSource pool = this.pool;
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
