package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;

/**
 * The ticket server's database answered, but the ticket table is not there and idgen was not told to create it: a
 * set-up mistake that no retry will mend, unlike a database that is down.
 */
public final class TicketTableMissingException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    private final String server;

    private final String table;

    TicketTableMissingException(String server, String table, SchemaInitialization schemaInitialization,
            Throwable cause) {
        super("The ticket table " + table + " does not exist on ticket server " + server + " (schema initialization "
                + schemaInitialization.name().toLowerCase(java.util.Locale.ROOT) + ")", cause);
        this.server = server;
        this.table = table;
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
}
