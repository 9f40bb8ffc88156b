package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;

/**
 * The ticket server's database answered, but it is neither MySQL nor MariaDB: the ticket statements need
 * {@code LAST_INSERT_ID}. A set-up mistake, not an outage.
 */
public final class UnsupportedTicketDatabaseException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    UnsupportedTicketDatabaseException(String message) {
        super(message);
    }
}
