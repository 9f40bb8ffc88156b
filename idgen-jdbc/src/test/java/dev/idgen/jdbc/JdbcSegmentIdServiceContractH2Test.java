package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The IdService contract for segments from H2. */
class JdbcSegmentIdServiceContractH2Test extends JdbcSegmentIdServiceContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint("jdbc:h2:mem:idgen-id-service-contract;DB_CLOSE_DELAY=-1", "sa", "");
    }
}
