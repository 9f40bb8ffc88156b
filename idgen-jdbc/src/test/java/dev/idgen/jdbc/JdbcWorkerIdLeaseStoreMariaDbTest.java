package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The worker id lease store contract on MariaDB. */
class JdbcWorkerIdLeaseStoreMariaDbTest extends JdbcWorkerIdLeaseStoreContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.mariadb();
    }

    @Override
    protected String urlOn(int port) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/test";
    }

    @Override
    protected String clockQuery() {
        return "SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
    }
}
