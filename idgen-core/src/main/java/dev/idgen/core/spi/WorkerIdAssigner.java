package dev.idgen.core.spi;

/**
 * Decides which worker id a Snowflake generator uses. Two live generators must never hold the same worker id: that is
 * the whole of Snowflake's uniqueness across machines.
 *
 * <p>{@link StaticWorkerIdAssigner} takes a configured id and trusts the operator to keep it unique. Leasing
 * implementations (Redis, a database) hand out ids with an expiry and a heartbeat, and remember the last timestamp each
 * id was used at, so a restarted generator can tell that the clock moved backwards while it was down.
 */
@FunctionalInterface
public interface WorkerIdAssigner {

    /**
     * Acquires a worker id.
     *
     * @param maxWorkerId the largest worker id the layout can hold ({@code 2^workerBits - 1})
     * @return a lease on a worker id from 0 to {@code maxWorkerId}
     * @throws IllegalArgumentException when a configured worker id does not fit the layout
     * @throws dev.idgen.core.StoreUnavailableException when the store that hands out leases is unavailable
     */
    WorkerIdLease acquire(long maxWorkerId);
}
