package dev.idgen.jdbc;

import dev.idgen.test.services.TestServices;

/** Ticket servers on PostgreSQL. */
class TicketServerPostgresTest extends TicketServerContract {

    @Override
    protected TestServices.JdbcEndpoint endpoint() {
        return TestServices.postgres();
    }

    @Override
    protected String ddlResource() {
        return "META-INF/idgen/ticket-postgresql.sql";
    }
}
