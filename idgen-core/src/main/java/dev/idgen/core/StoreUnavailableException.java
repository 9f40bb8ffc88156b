package dev.idgen.core;

/**
 * The store behind a strategy (Redis, a database) did not answer in time or refused, so no ID was issued.
 */
public class StoreUnavailableException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message) {
        super(message);
    }

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
