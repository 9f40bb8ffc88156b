package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** Ticket servers on MariaDB. */
class TicketServerMariaDbTest extends TicketServerContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.mariadb();
    }

    @Override
    protected String ddlResource() {
        return "META-INF/idgen/ticket-mysql.sql";
    }
}
