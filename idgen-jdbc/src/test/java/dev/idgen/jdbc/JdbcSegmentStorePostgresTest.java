package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The segment store contract on Postgres. */
class JdbcSegmentStorePostgresTest extends JdbcSegmentStoreContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.postgres();
    }
}
