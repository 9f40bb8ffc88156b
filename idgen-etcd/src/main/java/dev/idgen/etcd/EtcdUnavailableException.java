package dev.idgen.etcd;

import dev.idgen.core.StoreUnavailableException;

/**
 * etcd did not answer within the store's timeout, could not be reached, or refused the request (no leader, no quorum):
 * nothing was issued from it. The message names the endpoints and what was being done.
 */
public class EtcdUnavailableException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    public EtcdUnavailableException(String message) {
        super(message);
    }

    public EtcdUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
