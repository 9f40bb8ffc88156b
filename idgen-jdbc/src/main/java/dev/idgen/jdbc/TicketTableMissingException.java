package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import java.util.Locale;

/**
 * The ticket server's database answered, but the ticket table is not there and idgen was not told to create it: a
 * set-up mistake that no retry will mend, unlike a database that is down.
 */
public final class TicketTableMissingException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    private final String server;

    private final String table;

    private final String ddlResource;

    TicketTableMissingException(String server, String table, SchemaInitialization schemaInitialization,
            String ddlResource, Throwable cause) {
        super("The ticket table " + table + " does not exist on ticket server " + server + " (schema initialization "
                + schemaInitialization.name().toLowerCase(Locale.ROOT) + "); create it from " + ddlResource, cause);
        this.server = server;
        this.table = table;
        this.ddlResource = ddlResource;
    }

    /**
     * @return the ticket server's id
     */
    public String server() {
        return server;
    }

    /**
     * @return the missing table
     */
    public String table() {
        return table;
    }

    /**
     * @return the class path resource of the DDL for the server's database, e.g.
     *         {@code META-INF/idgen/ticket-postgresql.sql} (see {@link DatabaseDialect#ddlResource})
     */
    public String ddlResource() {
        return ddlResource;
    }
}
