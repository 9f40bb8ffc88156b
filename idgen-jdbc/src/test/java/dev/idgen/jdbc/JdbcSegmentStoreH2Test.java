package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** The segment store contract on H2. */
class JdbcSegmentStoreH2Test extends JdbcSegmentStoreContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint("jdbc:h2:mem:idgen-contract;DB_CLOSE_DELAY=-1", "sa", "");
    }
}
