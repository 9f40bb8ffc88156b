package dev.idgen.zookeeper;

import dev.idgen.core.IdGenerationException;

/**
 * The Leaf node of this instance's address ({@code ip:port}) is in use by another live process: another idgen instance
 * configured with the same address, or a Leaf server still refreshing the node's timestamp. Taking its worker id would
 * issue the same IDs twice, so {@link LeafZooKeeperWorkerIdAssigner} refuses instead.
 */
public class LeafNodeInUseException extends IdGenerationException {

    private static final long serialVersionUID = 1L;

    public LeafNodeInUseException(String message) {
        super(message);
    }
}
