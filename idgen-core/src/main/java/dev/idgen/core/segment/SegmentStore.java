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
     * Allocates the next {@code step} IDs of {@code name}, all above {@code floor}: the caller already served IDs up to
     * {@code floor} and must never get them again, even from a store that went back (a database that failed over to a
     * replica which lagged behind, a Redis that lost data).
     *
     * <p>The default allocates, and when the block does not lie above {@code floor}, allocates once more with room to
     * pass it, keeping the part above. A store that can raise its counter to {@code floor} in the same write
     * (a database's {@code GREATEST}) overrides this.
     *
     * @param name the sequence name, already checked by the caller
     * @param step how many IDs, at least 1
     * @param floor the highest ID the caller has served for {@code name}, or 0
     * @return a block above {@code floor}: of {@code step} IDs, unless the store went back (then it may hold fewer or
     *         more)
     * @throws dev.idgen.core.StoreUnavailableException when the store cannot allocate now, or did not pass
     *         {@code floor}
     */
    default Segment allocateAbove(String name, long step, long floor) {
        Segment segment = allocate(name, step);
        if (segment.first() > floor) {
            return segment;
        }
        if (segment.last() <= floor) {
            // Long enough to pass floor whatever others take meanwhile from a store that only moves forward.
            long behind = floor - segment.last();
            if (behind > Long.MAX_VALUE / 4 - step) {
                throw new dev.idgen.core.StoreUnavailableException("The segment store handed out [" + segment.first()
                        + ", " + segment.last() + "] for '" + name + "', far below " + floor + ", the highest ID"
                        + " already served");
            }
            segment = allocate(name, behind + step);
        }
        if (segment.last() <= floor) {
            throw new dev.idgen.core.StoreUnavailableException("The segment store handed out [" + segment.first()
                    + ", " + segment.last() + "] for '" + name + "', below " + floor + ", the highest ID already"
                    + " served; trying again");
        }
        return new Segment(Math.max(segment.first(), floor + 1), segment.last());
    }

    /**
     * Checks that the store can be reached now, without allocating; the health check behind the starter's
     * {@code idgen} contributor. The default assumes it can.
     *
     * @throws dev.idgen.core.StoreUnavailableException when it cannot
     */
    default void checkAvailable() {
    }
}
