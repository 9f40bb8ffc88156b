package dev.idgen.core.spi;

import java.time.Duration;

/**
 * Where leased worker ids live (a Redis hash, a database table): the store behind
 * {@link dev.idgen.core.lease.LeasingWorkerIdAssigner}.
 *
 * <p>The contract every implementation keeps, for any number of instances at once:
 * <ul>
 * <li>each operation is atomic (a script or a transaction): two owners never both succeed in taking one worker id;</li>
 * <li>a worker id is free for a new owner only once its lease expired (or was released) at least {@code reuseDelay}
 * ago, by the store's own clock; a grant says whether the id was taken over from a lease that lapsed unreleased
 * (see {@link Acquisition}), so that a store clock that steps never lets two owners issue under one id;</li>
 * <li>the last timestamp an owner recorded outlives its lease, for the next owner, and never goes down;</li>
 * <li>a lease is renewed only by its owner while valid: once it lapsed, the owner has to acquire afresh;</li>
 * <li>an owner that acquires while it holds an unexpired lease gets that lease back, never a second one, granted as
 * it was the first time: so an acquisition whose answer was lost leaves no id held by nobody, the owner never holds
 * two, and a lost take-over still waits for the holder it was taken from.</li>
 * </ul>
 * Operations throw {@link dev.idgen.core.StoreUnavailableException} when the store cannot answer in time.
 */
public interface WorkerIdLeaseStore {

    /**
     * Takes the lowest free worker id; or, when {@code owner} holds an unexpired lease, gives that one back.
     *
     * <p>An owner is made for one acquisition: the instance id plus a random nonce (see
     * {@link dev.idgen.core.lease.RenewingWorkerIdLease#owner()}), kept by the lease it gets for its renewals and its
     * release. So two processes sharing an instance id, and two leases of one process, are different owners, and a
     * late release of a lost lease never frees a later one. An owner acquires while its lease is live only when that
     * acquisition asks again: the answer to its earlier try was lost (the store committed the grant, then the
     * connection dropped), or it lost the lease by its own clock while the store still holds it. The store then gives it that lease back,
     * the same worker id, extended to a ttl from now and with the last timestamp recorded, rather than grant a second
     * id and leave the first held by nobody for a ttl. It is granted as the lost answer granted it, which the store
     * records with the lease (a renewal keeps it, a fresh grant replaces it): {@linkplain Acquisition#grantedFree
     * free} if that was free (the owner, while it acquires, issues under no id), otherwise
     * {@linkplain Acquisition#grantedTakenOver taken over} with the same previous ttl, since the holder it was taken
     * from may still be issuing; {@linkplain Acquisition#UNKNOWN_TTL taken over with an unknown ttl} when the store
     * did not record it. This check and the grant are one atomic step, like every other.
     *
     * @param owner the owner's identity, unique per acquisition (instance id plus nonce)
     * @param maxWorkerId the largest worker id to consider
     * @param ttl how long the lease lasts unrenewed
     * @param reuseDelay how long a worker id stays unused after its lease expired or was released
     * @return the worker id taken, or why none was
     */
    Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay);

    /**
     * Extends {@code owner}'s lease on {@code workerId} by {@code ttl} from now. Refused when another owner holds or
     * held the worker id since, and always when {@code heldValidly} is false: an owner whose lease may have expired
     * must never take it back (another instance may hold it by now, or a store that lost its data may not know), but
     * acquire afresh. A store that lost its data lets an owner that still holds validly take its worker id back. The
     * recorded last timestamp only ever grows: a lower {@code lastTimestamp} than the stored one leaves it as it is.
     *
     * @param workerId the worker id
     * @param owner the owner that holds it, as in {@link #acquire}
     * @param ttl the new lifetime from now
     * @param reuseDelay as in {@link #acquire}
     * @param lastTimestamp the newest timestamp the owner may have used, in epoch milliseconds
     * @param heldValidly whether the owner's lease is still valid by the owner's own clock; when false the renewal is
     *        refused
     * @return whether {@code owner} holds the lease now
     */
    boolean renew(
            long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp, boolean heldValidly);

    /**
     * Ends {@code owner}'s lease now, keeping {@code lastTimestamp} for the next owner; the worker id becomes free after
     * the reuse delay. Does nothing if {@code owner} does not hold it.
     *
     * @param workerId the worker id
     * @param owner the owner that holds it, as in {@link #acquire}
     * @param lastTimestamp the newest timestamp the owner used, in epoch milliseconds
     */
    void release(long workerId, String owner, long lastTimestamp);

    /**
     * The outcome of {@link #acquire}.
     *
     * <p><b>Taken over.</b> A store judges that a lease expired by its own clock, and a store's clock can step (a
     * leader whose clock jumps, a failover to a server whose clock is ahead): a holder that still renews and issues
     * may then look expired. So a grant says whether anybody may still be issuing under the worker id. An id never
     * leased, or released by its holder (which stops before it releases), is {@linkplain #grantedFree free}. An id
     * taken from a lease that lapsed unreleased is {@linkplain #grantedTakenOver taken over}: its holder stops by its
     * own monotonic clock no later than one of its ttls after its last successful renewal was sent, and every such
     * renewal reached the store before the take did, so the new owner waits that ttl plus the reuse delay by its own
     * monotonic clock before it issues, whatever the store's clock did. An id given back to its own owner (whose
     * earlier grant of it was lost, see {@link WorkerIdLeaseStore#acquire}) repeats that grant: free if it was free,
     * else taken over with the same previous ttl (unknown where the store did not record it), as a retry that skipped
     * the wait could issue while the holder it was taken from still does.
     *
     * @param workerId the worker id taken, or -1 when none was
     * @param lastUsedTimestamp the last timestamp a previous owner recorded, or -1 when none is known
     * @param retryAfterMillis when none was taken: how long until one may become free (0 when all are held by live
     *        owners), for example while a store that lost its data waits out the leases it forgot
     * @param previousTtlMillis when taken: {@link #FREE} (0) when nobody may still issue under it, the ttl of the
     *        lapsed lease it was taken from, or {@link #UNKNOWN_TTL} (-1) when taken over from a lease whose ttl the
     *        store did not record (the new owner then assumes its own)
     */
    record Acquisition(long workerId, long lastUsedTimestamp, long retryAfterMillis, long previousTtlMillis) {

        /** {@link #previousTtlMillis()} of an id nobody may still be issuing under. */
        public static final long FREE = 0;

        /** {@link #previousTtlMillis()} of an id taken over from a lease whose ttl is not known. */
        public static final long UNKNOWN_TTL = -1;

        /**
         * The safe grant when a store cannot tell how the id became free: as {@link #grantedTakenOver} with an
         * unknown ttl.
         */
        public static Acquisition granted(long workerId, long lastUsedTimestamp) {
            return grantedTakenOver(workerId, lastUsedTimestamp, UNKNOWN_TTL);
        }

        /**
         * A grant of an id never leased or released by its holder, or given back to the owner of its unexpired lease
         * that was granted free: usable at once.
         */
        public static Acquisition grantedFree(long workerId, long lastUsedTimestamp) {
            return new Acquisition(workerId, lastUsedTimestamp, 0, FREE);
        }

        /**
         * A grant of an id whose lease lapsed unreleased: usable once its holder has surely stopped.
         *
         * @param previousTtlMillis the lapsed lease's ttl, or {@link #UNKNOWN_TTL}
         */
        public static Acquisition grantedTakenOver(long workerId, long lastUsedTimestamp, long previousTtlMillis) {
            return new Acquisition(
                    workerId, lastUsedTimestamp, 0, previousTtlMillis > 0 ? previousTtlMillis : UNKNOWN_TTL);
        }

        public static Acquisition none(long retryAfterMillis) {
            return new Acquisition(-1, -1, Math.max(0, retryAfterMillis), FREE);
        }

        public boolean isGranted() {
            return workerId >= 0;
        }

        /** @return whether a previous holder may still be issuing under the granted id */
        public boolean isTakenOver() {
            return isGranted() && previousTtlMillis != FREE;
        }
    }
}
