package dev.idgen.jdbc;

import java.util.Locale;

/**
 * The ticket server's database answered, but the ticket table is not there and idgen was not told to create it: a
 * set-up mistake that no retry will mend, unlike a database that is down.
 */
public final class TicketTableMissingException extends TableMissingException {

    private static final long serialVersionUID = 1L;

    private final String server;

    TicketTableMissingException(
            String server,
            String table,
            SchemaInitialization schemaInitialization,
            String ddlResource,
            Throwable cause) {
        super(
                "The ticket table " + table + " does not exist on ticket server " + server + " (schema initialization "
                        + schemaInitialization.name().toLowerCase(Locale.ROOT) + "); create it from " + ddlResource,
                table,
                "ticket",
                ddlResource,
                cause);
        this.server = server;
    }

    /**
     * @return the ticket server's id
     */
    public String server() {
        return server;
    }
}
