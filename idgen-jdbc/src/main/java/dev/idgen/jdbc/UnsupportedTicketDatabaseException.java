package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;

/**
 * The ticket server's database answered, but it is none of those idgen has ticket statements for (MySQL, MariaDB,
 * PostgreSQL, H2). A set-up mistake, not an outage.
 */
public final class UnsupportedTicketDatabaseException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    UnsupportedTicketDatabaseException(String message) {
        super(message);
    }
}
