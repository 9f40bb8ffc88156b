package dev.idgen.core.segment;

import java.util.List;
import java.util.Optional;

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
     * Allocates the next {@code step} IDs of {@code name}, all above {@code floor}: the caller already served IDs up to
     * {@code floor} and must never get them again, even from a store that went back (a database that failed over to a
     * replica which lagged behind).
     *
     * <p>A store that can raise its counter to {@code floor} in the same write (a database's {@code GREATEST}), and
     * that moves past what other instances may have taken from the data it lost (a failover jump), overrides this.
     * The default ignores {@code floor} and allocates: passing its own floor alone would not keep a store that went
     * back from handing out IDs another instance served, so the caller refuses a block at or below the IDs it served
     * instead.
     *
     * @param name the sequence name, already checked by the caller
     * @param step how many IDs, at least 1
     * @param floor the highest ID the caller has served for {@code name}, or 0
     * @return the block; above {@code floor} when the store overrides this
     * @throws dev.idgen.core.StoreUnavailableException when the store cannot allocate now
     */
    default Segment allocateAbove(String name, long step, long floor) {
        return allocate(name, step);
    }

    /**
     * Checks that the store can be reached now, without allocating; the health check behind the starter's
     * {@code idgen} contributor. The default assumes it can.
     *
     * @throws dev.idgen.core.StoreUnavailableException when it cannot
     */
    default void checkAvailable() {}

    /**
     * The names this store holds, without allocating: for a store switch, which raises each of them in the new store
     * above what this one handed out, all at once. Only names a caller could have used (letters or digits first):
     * never the store's own rows. The default cannot list them: a switch then reads each name from this store on the
     * name's first load.
     *
     * @return the names, or empty when this store cannot list them
     * @throws dev.idgen.core.StoreUnavailableException when the store cannot answer now
     */
    default Optional<List<String>> names() {
        return Optional.empty();
    }
}
