package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The IdService contract for segments from MariaDb. */
class JdbcSegmentIdServiceContractMariaDbTest extends JdbcSegmentIdServiceContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.mariadb();
    }
}
