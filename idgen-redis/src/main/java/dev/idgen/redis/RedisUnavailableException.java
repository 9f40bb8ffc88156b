package dev.idgen.redis;

import dev.idgen.core.StoreUnavailableException;

/**
 * Redis did not answer in time, could not be reached or failed the command: nothing was issued from it.
 */
public class RedisUnavailableException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
