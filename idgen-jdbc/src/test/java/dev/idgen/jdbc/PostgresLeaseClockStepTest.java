package dev.idgen.jdbc;

import dev.idgen.test.services.OwnPostgresReplicaSet;
import dev.idgen.test.services.ShiftedClock;
import dev.idgen.test.services.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Worker-id leases on a PostgreSQL server of the test's own whose clock steps 10 minutes back, then ahead. */
class PostgresLeaseClockStepTest extends JdbcLeaseClockStepContract {

    private static ShiftedClock clock;
    private static OwnPostgresReplicaSet postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        clock = ShiftedClock.create();
        postgres = OwnPostgresReplicaSet.startPrimaryOn(clock);
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        closePools();
        if (postgres != null) {
            postgres.close();
        }
        clock.close();
    }

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint(postgres.primaryUrl(), "postgres", "");
    }

    @Override
    protected ShiftedClock clock() {
        return clock;
    }

    @Override
    protected String clockQuery() {
        return "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
    }
}
