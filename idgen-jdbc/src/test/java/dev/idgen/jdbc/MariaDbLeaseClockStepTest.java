package dev.idgen.jdbc;

import dev.idgen.test.services.OwnMariaDb;
import dev.idgen.test.services.ShiftedClock;
import dev.idgen.test.services.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Worker-id leases on a MariaDB server of the test's own whose clock steps 10 minutes back, then ahead. */
class MariaDbLeaseClockStepTest extends JdbcLeaseClockStepContract {

    private static ShiftedClock clock;
    private static OwnMariaDb mariadb;

    @BeforeAll
    static void startMariaDb() throws Exception {
        clock = ShiftedClock.create();
        mariadb = OwnMariaDb.startOn(clock);
    }

    @AfterAll
    static void stopMariaDb() throws Exception {
        closePools();
        if (mariadb != null) {
            mariadb.close();
        }
        clock.close();
    }

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return mariadb.endpoint();
    }

    @Override
    protected ShiftedClock clock() {
        return clock;
    }

    @Override
    protected String clockQuery() {
        return "SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
    }
}
