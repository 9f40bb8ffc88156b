package dev.idgen.zookeeper;

import dev.idgen.core.StoreUnavailableException;

/**
 * ZooKeeper did not answer in time (no quorum, no server reachable, the client not connected) or failed the
 * operation: nothing was issued from it. The message names the connect string and what was being done.
 */
public class ZooKeeperUnavailableException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    public ZooKeeperUnavailableException(String message) {
        super(message);
    }

    public ZooKeeperUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
