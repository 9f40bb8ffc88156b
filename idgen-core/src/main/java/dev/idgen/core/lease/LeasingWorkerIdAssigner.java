package dev.idgen.core.lease;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.snowflake.WorkerIdRanges;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Leases worker ids from a {@link WorkerIdLeaseStore} with a time to live and a heartbeat.
 *
 * <p>The lease it hands out fences its generator: the generator stops issuing IDs once {@code ttl - safetyMargin}
 * has passed since the last renewal was <em>sent</em>, by this process's monotonic clock. The store starts the
 * lease's lifetime when the renewal <em>arrives</em>, later, and a worker id is handed to someone else only
 * {@code reuseDelay} after that lifetime ends; so a generator has stopped for at least {@code safetyMargin +
 * reuseDelay} before another may start with its worker id. The margin covers the store's clock running faster than
 * this one over one lease; the reuse delay covers the wall clocks of two hosts disagreeing, and the heartbeat records
 * the newest timestamp in use (plus the most a generator can run ahead of its clock) for the next holder.
 *
 * <p>All of that assumes the store's clock runs true. It may not: a store judges expiry by its own wall clock (a
 * ZooKeeper leader's, a database server's, Redis's), and one that steps forward, or fails over to a server whose clock
 * is ahead, sees live leases as expired. So an id the store grants from a lease that lapsed unreleased is not used at
 * once: {@link #acquire} waits that lease's ttl plus the reuse delay by this process's monotonic clock (see
 * {@link Acquisition}), by when its holder has stopped whatever the store's clock did. Ids never leased, or released,
 * are used at once. Taking over a crashed holder's id thus costs one ttl and one reuse delay more; a store clock that
 * stepped back delays it by the step.
 *
 * <p><b>Owner.</b> The store knows each lease by its owner: the {@linkplain #instanceId() instance id} plus a random
 * nonce made for that one {@link #acquire} call, and kept by the lease for its renewals and its release. Two processes
 * configured with one instance id (or a pod replaced while the old one is only frozen), and two leases of one
 * assigner, are thus two owners, and never share a worker id; a store that granted an id whose answer was lost (the
 * connection dropped after the store committed) gives that same id back when the call asks again, rather than leave
 * it held by nobody for a ttl and grant a second one; and a late release of a lost lease never frees a later one.
 *
 * <p><b>Excluded worker ids.</b> While another fleet issues IDs in the same layout under worker ids of its own (a
 * rolling switch to idgen), {@link Builder#excludedWorkerIds} keeps this assigner out of them without asking anything
 * new of the stores, which only know "the lowest free id up to a maximum": a grant of an excluded id is not used, and
 * a fresh owner asks again, which the store answers with the next free id. The skipped grant is released when it was
 * free (nobody issues under it; it is free again after the reuse delay), and left to lapse unrenewed when it was taken
 * over (a release would mark it free while the holder it was taken from may still issue). No IDs are ever issued under
 * a skipped id, so the stores' invariants hold as for any lease that is released or lapses.
 */
public final class LeasingWorkerIdAssigner implements WorkerIdAssigner {

    /** The most a Snowflake generator's timestamps run ahead of its clock (see its {@code maxBorrow}). */
    static final long MAX_AHEAD_MILLIS = 1000;

    /** The longest instance id: with the separator and the nonce, an owner fits the lease stores' 128 characters. */
    public static final int MAX_INSTANCE_ID_LENGTH = 115;

    private static final char OWNER_SEPARATOR = '#';

    private static final int NONCE_BYTES = 6;

    private static final SecureRandom NONCES = new SecureRandom();

    private static final System.Logger LOG = System.getLogger(LeasingWorkerIdAssigner.class.getName());

    private final WorkerIdLeaseStore store;
    private final String instanceId;
    private final Duration ttl;
    private final Duration renewInterval;
    private final Duration safetyMargin;
    private final Duration reuseDelay;
    private final Duration acquireTimeout;
    private final TimeSource timeSource;
    private final WorkerIdRanges excludedWorkerIds;
    private final LongAdder renewals = new LongAdder();
    private final LongAdder renewalFailures = new LongAdder();

    private LeasingWorkerIdAssigner(Builder builder) {
        this.store = builder.store;
        this.instanceId = builder.instanceId != null ? builder.instanceId : defaultInstanceId();
        this.ttl = builder.ttl;
        this.renewInterval = builder.renewInterval != null ? builder.renewInterval : ttl.dividedBy(3);
        this.safetyMargin =
                builder.safetyMargin != null ? builder.safetyMargin : max(Duration.ofMillis(500), ttl.dividedBy(10));
        this.reuseDelay = builder.reuseDelay;
        // Long enough for the longest wait a store imposes on newcomers: 2 ttl + reuse delay after a Redis failover.
        // The wait for the previous holder of an id taken over comes on top, bounded by that holder's ttl.
        this.acquireTimeout = builder.acquireTimeout != null
                ? builder.acquireTimeout
                : ttl.multipliedBy(2).plus(reuseDelay).plusSeconds(5);
        this.timeSource = builder.timeSource;
        this.excludedWorkerIds = builder.excludedWorkerIds;
        check(
                "ttl",
                ttl,
                ttl.compareTo(Duration.ofSeconds(1)) >= 0 && ttl.compareTo(Duration.ofDays(1)) <= 0,
                "between 1s and 1d");
        check(
                "safetyMargin",
                safetyMargin,
                !safetyMargin.isNegative() && safetyMargin.compareTo(ttl.dividedBy(2)) <= 0,
                "between 0 and half the ttl (" + ttl + ")");
        check(
                "renewInterval",
                renewInterval,
                renewInterval.toMillis() >= 100
                        && renewInterval.compareTo(ttl.minus(safetyMargin).dividedBy(2)) <= 0,
                "between 100ms and half of ttl minus safety-margin ("
                        + ttl.minus(safetyMargin).dividedBy(2) + ")");
        check(
                "reuseDelay",
                reuseDelay,
                reuseDelay.toMillis() >= MAX_AHEAD_MILLIS && reuseDelay.compareTo(Duration.ofHours(1)) <= 0,
                "between 1s and 1h");
        check(
                "acquireTimeout",
                acquireTimeout,
                !acquireTimeout.isNegative() && acquireTimeout.compareTo(Duration.ofHours(1)) <= 0,
                "between 0 and 1h");
        if (instanceId.isBlank() || instanceId.length() > MAX_INSTANCE_ID_LENGTH) {
            throw new InvalidArgumentException(
                    "instanceId",
                    instanceId,
                    "instanceId must be 1 to " + MAX_INSTANCE_ID_LENGTH + " characters, but was '" + instanceId + "'");
        }
    }

    /**
     * @param store where the leases live
     * @return a builder with a 30 s ttl renewed every 10 s, a 3 s safety margin, a 5 s reuse delay and an instance id
     *         of host name, process id and a random part
     */
    public static Builder builder(WorkerIdLeaseStore store) {
        return new Builder(Objects.requireNonNull(store, "store"));
    }

    /**
     * The default instance identity: host name and process id for people to read, and a random UUID because in
     * containers both repeat (every container's process is PID 1, and cloned hosts share names and addresses).
     *
     * @return {@code host/pid/uuid}, cut from the front to {@value #MAX_INSTANCE_ID_LENGTH} characters
     */
    public static String defaultInstanceId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception | Error e) {
            host = "unknown-host";
        }
        String id = host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID();
        return id.length() <= MAX_INSTANCE_ID_LENGTH ? id : id.substring(id.length() - MAX_INSTANCE_ID_LENGTH);
    }

    /** @return the instance id, '#', and a random nonce of 12 hex digits: an owner no other lease has */
    private String newOwner() {
        byte[] nonce = new byte[NONCE_BYTES];
        NONCES.nextBytes(nonce);
        return instanceId + OWNER_SEPARATOR + HexFormat.of().formatHex(nonce);
    }

    @Override
    public WorkerIdLease acquire(long maxWorkerId) {
        // One owner for this call, retries included: a retry after a lost answer gets that grant back.
        String owner = newOwner();
        long started = timeSource.nanoTime();
        long timeoutNanos = acquireTimeout.toNanos();
        if (excludedWorkerIds.countUpTo(maxWorkerId) > maxWorkerId) {
            throw new WorkerIdsExhaustedException("No worker id from 0 to " + maxWorkerId + " is free: all of them are"
                    + " excluded (" + excludedWorkerIds + ").");
        }
        long excludedCount = excludedWorkerIds.countUpTo(maxWorkerId);
        long skipped = 0;
        for (; ; ) {
            long sent = timeSource.nanoTime();
            Acquisition acquisition;
            try {
                acquisition = store.acquire(owner, maxWorkerId, ttl, reuseDelay);
            } catch (StoreUnavailableException e) {
                // A store that is still starting, or a first connection that is slow, is worth waiting for.
                if (timeSource.nanoTime() - started >= timeoutNanos) {
                    throw new StoreUnavailableException(
                            "The worker id lease store could not be reached within the" + " acquire timeout of "
                                    + acquireTimeout + ": " + e.getMessage(),
                            e);
                }
                LOG.log(
                        System.Logger.Level.INFO,
                        "The worker id lease store is unavailable (" + e.getMessage() + "); retrying");
                acquisition = Acquisition.none(200);
            }
            if (acquisition.isGranted() && excludedWorkerIds.contains(acquisition.workerId())) {
                skipExcluded(owner, acquisition);
                // A new owner: asked again, the store would give the same owner the lease it holds back.
                owner = newOwner();
                // Each excluded id is skipped once per walk (a released one waits out its reuse delay, a lapsing one
                // is held): more skips mean the walk took longer than a reuse delay, and it gives up.
                if (++skipped > excludedCount) {
                    throw new WorkerIdsExhaustedException("No worker id from 0 to " + maxWorkerId + " outside the"
                            + " excluded " + excludedWorkerIds + " was granted: the store kept granting excluded ids.");
                }
                continue;
            }
            if (acquisition.isGranted()) {
                long grantedAt = timeSource.nanoTime();
                LOG.log(
                        System.Logger.Level.INFO,
                        "Leased worker id " + acquisition.workerId() + " as '" + owner + "' for " + ttl
                                + ", renewed every " + renewInterval);
                RenewingWorkerIdLease lease = new RenewingWorkerIdLease(
                        this, owner, acquisition.workerId(), acquisition.lastUsedTimestamp(), sent);
                if (!acquisition.isTakenOver() || awaitPreviousHolder(lease, acquisition, grantedAt)) {
                    return lease;
                }
                continue; // lost while waiting: the loop acquires afresh, within the acquire timeout
            }
            long waited = timeSource.nanoTime() - started;
            if (acquisition.retryAfterMillis() <= 0 || waited >= timeoutNanos) {
                String why = acquisition.retryAfterMillis() > 0
                        ? "the lease store is waiting out leases it may have forgotten (it lost its data, or failed"
                                + " over to a replica that may lack the latest leases) for another "
                                + acquisition.retryAfterMillis() + " ms, longer than the acquire timeout of "
                                + acquireTimeout + ": start again later, or raise the acquire timeout"
                        : "all of them are held by live instances or wait out their reuse delay of " + reuseDelay
                                + ". Stop an instance, or give the layout more worker bits";
                throw new WorkerIdsExhaustedException(
                        "No worker id from 0 to " + maxWorkerId + " is free for '" + owner + "': " + why + ".");
            }
            long sleepNanos =
                    Math.min(TimeUnit.MILLISECONDS.toNanos(acquisition.retryAfterMillis()), timeoutNanos - waited);
            LOG.log(System.Logger.Level.INFO, "No worker id free yet; retrying in " + sleepNanos / 1_000_000 + " ms");
            LockSupport.parkNanos(Math.max(1_000_000, sleepNanos));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IdGenerationException("Interrupted while waiting for a free worker id");
            }
        }
    }

    /**
     * Gives up a grant of an excluded worker id without issuing under it: released when it was granted free, so that it
     * is free again after the reuse delay; left to lapse when taken over, as a release would let the next owner use it
     * at once while the holder it was taken from may still issue.
     */
    private void skipExcluded(String owner, Acquisition acquisition) {
        LOG.log(
                System.Logger.Level.DEBUG,
                "Worker id " + acquisition.workerId() + " is excluded (" + excludedWorkerIds + "); asking again");
        if (acquisition.isTakenOver()) {
            return;
        }
        try {
            store.release(acquisition.workerId(), owner, acquisition.lastUsedTimestamp());
        } catch (StoreUnavailableException e) {
            // Unreleased, it lapses after its ttl: held by nobody meanwhile, which costs a free id, not uniqueness.
            LOG.log(System.Logger.Level.DEBUG, "Could not release excluded worker id " + acquisition.workerId(), e);
        }
    }

    /**
     * Waits until the holder of a lease that lapsed unreleased has surely stopped: one of its ttls plus the reuse delay
     * after the grant, by this process's monotonic clock. That holder's last successful renewal reached the store
     * before this grant did (the take is conditional on the lease as read, so a renewal after it is refused), it was
     * sent earlier still, and the holder stops by its own monotonic clock a ttl minus its safety margin after sending
     * it. The store's clock plays no part, so a store whose clock stepped forward, and judged a live lease expired,
     * still never has two owners issue under one id; the reuse delay is the margin for the two hosts' wall clocks, as
     * for a released id. Meanwhile the heartbeat renews the new lease.
     *
     * A wait cut short (the lease lost, the thread interrupted) abandons the lease without releasing it: a release
     * would mark the id free, and the next owner would use it at once while the previous holder may still issue.
     *
     * @return whether the lease is still held; false when it was lost meanwhile (abandoned here)
     */
    private boolean awaitPreviousHolder(RenewingWorkerIdLease lease, Acquisition acquisition, long grantedAt) {
        long previousTtlNanos = acquisition.previousTtlMillis() > 0
                ? TimeUnit.MILLISECONDS.toNanos(acquisition.previousTtlMillis())
                : ttl.toNanos();
        long until = grantedAt + previousTtlNanos + reuseDelay.toNanos();
        LOG.log(
                System.Logger.Level.INFO,
                "Worker id " + acquisition.workerId() + " was taken over from a lease that lapsed unreleased"
                        + (acquisition.previousTtlMillis() > 0
                                ? " (ttl " + acquisition.previousTtlMillis() + " ms)"
                                : " (ttl unknown; assumed " + ttl + ")")
                        + ": no IDs are issued under it for " + TimeUnit.NANOSECONDS.toMillis(until - grantedAt)
                        + " ms, until its previous holder has surely stopped, whatever the store's clock did");
        while (true) {
            if (lease.isLost()) {
                lease.abandon();
                return false;
            }
            long left = until - timeSource.nanoTime();
            if (left <= 0) {
                return true;
            }
            // Short naps, so that a lease lost meanwhile is noticed and a test's manual clock is followed.
            LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            if (Thread.interrupted()) {
                lease.abandon();
                Thread.currentThread().interrupt();
                throw new IdGenerationException("Interrupted while waiting for the previous holder of worker id "
                        + acquisition.workerId() + " to stop");
            }
        }
    }

    /**
     * @return how many renewals succeeded, over every lease this assigner handed out
     */
    public long renewals() {
        return renewals.sum();
    }

    /**
     * @return how many renewals failed (the store could not be reached, or refused), over every lease this assigner
     *         handed out
     */
    public long renewalFailures() {
        return renewalFailures.sum();
    }

    void countRenewal(boolean succeeded) {
        (succeeded ? renewals : renewalFailures).increment();
    }

    WorkerIdLeaseStore store() {
        return store;
    }

    /**
     * @return the configured (or {@linkplain #defaultInstanceId() default}) instance identity, as people name this
     *         process
     */
    public String instanceId() {
        return instanceId;
    }

    public Duration ttl() {
        return ttl;
    }

    public Duration renewInterval() {
        return renewInterval;
    }

    public Duration safetyMargin() {
        return safetyMargin;
    }

    public Duration reuseDelay() {
        return reuseDelay;
    }

    TimeSource timeSource() {
        return timeSource;
    }

    @Override
    public String toString() {
        return "LeasingWorkerIdAssigner[store=" + store + ", instanceId=" + instanceId + ", ttl=" + ttl + "]";
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static void check(String argument, Duration value, boolean valid, String range) {
        if (!valid) {
            throw new InvalidArgumentException(argument, value, argument + " must be " + range + ", but was " + value);
        }
    }

    /**
     * Builds a {@link LeasingWorkerIdAssigner}.
     */
    public static final class Builder {

        private final WorkerIdLeaseStore store;
        private String instanceId;
        private Duration ttl = Duration.ofSeconds(30);
        private Duration renewInterval;
        private Duration safetyMargin;
        private Duration reuseDelay = Duration.ofSeconds(5);
        private Duration acquireTimeout;
        private TimeSource timeSource = TimeSource.system();
        private WorkerIdRanges excludedWorkerIds = WorkerIdRanges.none();

        private Builder(WorkerIdLeaseStore store) {
            this.store = store;
        }

        /**
         * @param instanceId this process's identity, 1 to {@value LeasingWorkerIdAssigner#MAX_INSTANCE_ID_LENGTH}
         *        characters, best unique among running processes (the store tells processes apart by a nonce added to
         *        it, see {@link RenewingWorkerIdLease#owner()}); null for the {@linkplain #defaultInstanceId()
         *        default}
         * @return this builder
         */
        public Builder instanceId(String instanceId) {
            this.instanceId = instanceId;
            return this;
        }

        /**
         * @param ttl how long a lease lasts unrenewed, from 1 s to 1 day
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            this.ttl = Objects.requireNonNull(ttl, "ttl");
            return this;
        }

        /**
         * @param renewInterval how often the heartbeat renews; null for a third of the ttl
         * @return this builder
         */
        public Builder renewInterval(Duration renewInterval) {
            this.renewInterval = renewInterval;
            return this;
        }

        /**
         * @param safetyMargin how long before the lease could expire the generator stops; null for a tenth of the ttl
         *        (at least 500 ms)
         * @return this builder
         */
        public Builder safetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
            return this;
        }

        /**
         * @param reuseDelay how long an expired or released worker id stays unused, at least 1 s
         * @return this builder
         */
        public Builder reuseDelay(Duration reuseDelay) {
            this.reuseDelay = Objects.requireNonNull(reuseDelay, "reuseDelay");
            return this;
        }

        /**
         * @param acquireTimeout how long {@link #acquire} waits for a worker id the store expects to free soon; null
         *        for 2 ttl + reuse delay + 5 s
         * @return this builder
         */
        public Builder acquireTimeout(Duration acquireTimeout) {
            this.acquireTimeout = acquireTimeout;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
            return this;
        }

        /**
         * @param excludedWorkerIds worker ids never to lease, such as those of another fleet that issues IDs in the
         *        same layout; none by default
         * @return this builder
         */
        public Builder excludedWorkerIds(WorkerIdRanges excludedWorkerIds) {
            this.excludedWorkerIds = Objects.requireNonNull(excludedWorkerIds, "excludedWorkerIds");
            return this;
        }

        public LeasingWorkerIdAssigner build() {
            return new LeasingWorkerIdAssigner(this);
        }
    }
}
