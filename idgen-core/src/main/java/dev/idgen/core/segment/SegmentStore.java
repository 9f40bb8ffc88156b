package dev.idgen.core.segment;

/**
 * Where segments come from: a database row or a Redis counter per name, advanced by {@code step} on every allocation.
 *
 * <p>The contract every implementation keeps, for any number of instances at once: an allocation is durable before it
 * returns, and no two allocations for the same name ever overlap. A store that cannot keep it (it lost its data, it
 * cannot be reached) throws instead of answering.
 */
@FunctionalInterface
public interface SegmentStore {

    /**
     * Allocates the next {@code step} IDs of {@code name}. A name seen for the first time starts after the store's
     * initial value.
     *
     * @param name the sequence name, already checked by the caller
     * @param step how many IDs, at least 1
     * @return the block, of exactly {@code step} IDs
     * @throws dev.idgen.core.StoreUnavailableException when the store cannot allocate now
     */
    Segment allocate(String name, long step);

    /**
     * Checks that the store can be reached now, without allocating; the health check behind the starter's
     * {@code idgen} contributor. The default assumes it can.
     *
     * @throws dev.idgen.core.StoreUnavailableException when it cannot
     */
    default void checkAvailable() {
    }
}
