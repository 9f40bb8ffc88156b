package dev.idgen.core.segment;

/**
 * What every block of a name must lie above, besides what the store itself says: IDs handed out before the store was
 * in use. A generator that switched stores starts each name above what the previous store handed out; one that takes
 * over from an auto-increment column, above the column's highest value. Read on a name's first load in an instance,
 * on the loader's thread, and passed to the store as the floor of every load after it.
 */
@FunctionalInterface
public interface SegmentStartFloor {

    /** No floor: every name starts where its store says. */
    SegmentStartFloor NONE = name -> 0;

    /**
     * @param name the sequence name, already checked
     * @return the highest ID of {@code name} handed out before this store, or 0
     * @throws dev.idgen.core.StoreUnavailableException when it cannot be read now: the load fails and is retried,
     *     and no ID of the name is issued until it is read
     */
    long above(String name);
}
