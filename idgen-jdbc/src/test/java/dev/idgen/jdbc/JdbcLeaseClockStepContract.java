package dev.idgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.test.LeaseStoreClockStepContract;
import dev.idgen.test.services.ShiftedClock;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;

/**
 * The clock-step test on a database server of the test's own whose clock it steps: leases are judged by the server's
 * {@code NOW()}.
 */
abstract class JdbcLeaseClockStepContract extends LeaseStoreClockStepContract {

    protected static final String TABLE = "idgen_clock_step_lease";

    private static final List<HikariDataSource> POOLS = new CopyOnWriteArrayList<>();

    /** @return the database, started on {@link #clock()} */
    protected abstract TestServices.JdbcEndpoint endpoint();

    protected abstract ShiftedClock clock();

    /** @return a query of the server's clock in epoch milliseconds, as the store reads it */
    protected abstract String clockQuery();

    @AfterAll
    static void closePools() {
        POOLS.forEach(HikariDataSource::close);
        POOLS.clear();
    }

    @Override
    protected WorkerIdLeaseStore newStoreClient() {
        HikariDataSource pool = endpoint().pool(2);
        POOLS.add(pool);
        return new JdbcWorkerIdLeaseStore(pool, TABLE, SchemaInitialization.ALWAYS, Duration.ofSeconds(2));
    }

    @Override
    protected void setStoreClock(Duration offset) throws Exception {
        clock().shiftTo(offset);
    }

    @Override
    protected long storeTimeMillis() throws Exception {
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(clockQuery())) {
            row.next();
            return row.getLong(1);
        }
    }
}
