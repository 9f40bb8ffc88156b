package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The segment store contract on MariaDb. */
class JdbcSegmentStoreMariaDbTest extends JdbcSegmentStoreContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.mariadb();
    }
}
