package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The worker id lease store contract on PostgreSQL. */
class JdbcWorkerIdLeaseStorePostgresTest extends JdbcWorkerIdLeaseStoreContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.postgres();
    }

    @Override
    protected String urlOn(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/test";
    }

    @Override
    protected String clockQuery() {
        return "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
    }
}
