package dev.idgen.core.lease;

import dev.idgen.core.LeaseLostException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A worker id lease from {@link LeasingWorkerIdAssigner}, renewed by a heartbeat thread of its own until closed.
 *
 * <p>{@link #checkValid()} is the fence: one volatile read and one monotonic clock read. A renewal that fails to
 * reach the store leaves the deadline where it was, so the generator keeps issuing until the lease could expire and
 * then stops; a renewal the store refuses (someone else holds the worker id) stops it at once. Either way the
 * heartbeat keeps trying, and IDs flow again as soon as a renewal succeeds.
 */
public final class RenewingWorkerIdLease implements WorkerIdLease {

    private static final System.Logger LOG = System.getLogger(RenewingWorkerIdLease.class.getName());

    private final LeasingWorkerIdAssigner assigner;
    private final WorkerIdLeaseStore store;
    private final TimeSource timeSource;
    private final long workerId;
    private final long previousTimestamp;
    private final long validityNanos;
    private final ScheduledExecutorService heartbeat;
    private final LongAdder renewals = new LongAdder();
    private final LongAdder renewalFailures = new LongAdder();

    /** Monotonic deadline: IDs may be issued while {@code nanoTime() - validUntilNanos < 0}. */
    private volatile long validUntilNanos;
    private volatile long newestTimestamp;
    private volatile boolean closed;
    private volatile String lastProblem;

    RenewingWorkerIdLease(LeasingWorkerIdAssigner assigner, long workerId, long previousTimestamp, long sentNanos) {
        this.assigner = assigner;
        this.store = assigner.store();
        this.timeSource = assigner.timeSource();
        this.workerId = workerId;
        this.previousTimestamp = previousTimestamp;
        this.validityNanos = assigner.ttl().minus(assigner.safetyMargin()).toNanos();
        this.validUntilNanos = sentNanos + validityNanos;
        this.newestTimestamp = previousTimestamp;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "idgen-lease-" + workerId);
            thread.setDaemon(true);
            return thread;
        });
        scheduleRenewal(assigner.renewInterval());
    }

    @Override
    public long workerId() {
        return workerId;
    }

    @Override
    public OptionalLong lastUsedTimestamp() {
        return previousTimestamp >= 0 ? OptionalLong.of(previousTimestamp) : OptionalLong.empty();
    }

    @Override
    public void recordTimestamp(long epochMillis) {
        if (epochMillis > newestTimestamp) {
            newestTimestamp = epochMillis;
        }
    }

    @Override
    public void checkValid() {
        if (timeSource.nanoTime() - validUntilNanos >= 0) {
            throw new LeaseLostException("The lease on worker id " + workerId + " held by '" + assigner.instanceId()
                    + "' is not known to be valid (" + (closed ? "closed" : lastProblem != null ? lastProblem
                            : "not renewed in time") + "); no IDs are issued until it is renewed");
        }
    }

    @Override
    public boolean isValid() {
        return timeSource.nanoTime() - validUntilNanos < 0;
    }

    /**
     * @return how long IDs may still be issued without another renewal; zero or negative once fenced
     */
    public Duration remaining() {
        return Duration.ofNanos(validUntilNanos - timeSource.nanoTime());
    }

    /**
     * @return how many renewals succeeded
     */
    public long renewals() {
        return renewals.sum();
    }

    /**
     * @return how many renewals failed: the store could not be reached, or refused
     */
    public long renewalFailures() {
        return renewalFailures.sum();
    }

    /**
     * @return the instance identity the lease is held under
     */
    public String owner() {
        return assigner.instanceId();
    }

    /**
     * Renews once, now, on the calling thread; the heartbeat calls it on its own.
     *
     * @return whether the lease is held after the attempt
     */
    public boolean renewNow() {
        if (closed) {
            return false;
        }
        long sent = timeSource.nanoTime();
        boolean heldValidly = sent - validUntilNanos < 0;
        long record = Math.max(newestTimestamp, timeSource.currentTimeMillis() + LeasingWorkerIdAssigner.MAX_AHEAD_MILLIS);
        try {
            if (store.renew(workerId, assigner.instanceId(), assigner.ttl(), assigner.reuseDelay(), record,
                    heldValidly)) {
                newestTimestamp = record;
                // Only this thread (or a test calling in) writes the deadline; `sent` grows, so it only moves on.
                validUntilNanos = sent + validityNanos;
                if (lastProblem != null) {
                    LOG.log(System.Logger.Level.INFO, "Lease on worker id " + workerId + " renewed again");
                }
                lastProblem = null;
                renewals.increment();
                return true;
            }
            validUntilNanos = sent;
            lastProblem = "the store says another instance holds worker id " + workerId + " or it is not free yet";
            LOG.log(System.Logger.Level.WARNING, "Lost the lease on worker id " + workerId + ": " + lastProblem);
        } catch (RuntimeException e) {
            lastProblem = "the last renewal failed: " + e.getMessage();
            LOG.log(System.Logger.Level.WARNING, "Renewing the lease on worker id " + workerId + " failed", e);
        }
        renewalFailures.increment();
        return false;
    }

    /**
     * Stops the heartbeat and releases the worker id, keeping the newest recorded timestamp for the next holder.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        validUntilNanos = timeSource.nanoTime();
        heartbeat.shutdownNow();
        try {
            store.release(workerId, assigner.instanceId(), newestTimestamp);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Releasing worker id " + workerId + " failed; it frees itself when"
                    + " the lease expires", e);
        }
    }

    @Override
    public String toString() {
        return "RenewingWorkerIdLease[workerId=" + workerId + ", owner=" + assigner.instanceId() + "]";
    }

    private void scheduleRenewal(Duration delay) {
        if (closed) {
            return;
        }
        try {
            heartbeat.schedule(() -> {
                boolean held = renewNow();
                // A failed renewal retries sooner, so a short outage costs little of the lease.
                scheduleRenewal(held ? assigner.renewInterval() : assigner.renewInterval().dividedBy(4));
            }, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed meanwhile
        }
    }
}
