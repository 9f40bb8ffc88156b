package dev.idgen.core.lease;

import dev.idgen.core.LeaseLostException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A worker id lease from {@link LeasingWorkerIdAssigner}, renewed by a heartbeat thread of its own until it is lost
 * or closed.
 *
 * <p>{@link #checkValid()} is the fence: one volatile read and one monotonic clock read. A renewal that fails to
 * reach the store leaves the deadline where it was, so the generator keeps issuing until the lease could expire and
 * then stops. The lease is <em>lost</em> for good, and never renewed again, once the store refuses a renewal (someone
 * else may hold the worker id) or the deadline passes before a renewal succeeded (the store may have expired it and
 * handed it on). Renewing it after that could give two live holders one worker id: a store that came back empty
 * after a restart, say, would let it take the id back while the instance that leased it meanwhile still holds it.
 * The actions registered with {@link #whenLost} run then, so the generator can acquire a fresh worker id.
 *
 * <p>Renewals and the release run one at a time under the lease's lock, so a renewal already in flight when
 * {@link #close()} is called reaches the store before the release does, never after it.
 */
public final class RenewingWorkerIdLease implements WorkerIdLease {

    private static final System.Logger LOG = System.getLogger(RenewingWorkerIdLease.class.getName());

    private final LeasingWorkerIdAssigner assigner;
    private final WorkerIdLeaseStore store;
    private final TimeSource timeSource;
    private final long workerId;
    private final String owner;
    private final long previousTimestamp;
    private final long validityNanos;
    private final ScheduledExecutorService heartbeat;
    /** The newest timestamp in use, only ever raised (by the generator and the heartbeat at once). */
    private final AtomicLong newestTimestamp;

    private final List<Runnable> lostActions = new ArrayList<>();

    /** Monotonic deadline: IDs may be issued while {@code nanoTime() - validUntilNanos < 0}. */
    private volatile long validUntilNanos;

    private volatile boolean closed;
    /** Set once, under the lock: the lease is never renewed again. */
    private volatile boolean lost;

    private volatile String lastProblem;

    RenewingWorkerIdLease(
            LeasingWorkerIdAssigner assigner, String owner, long workerId, long previousTimestamp, long sentNanos) {
        this.assigner = assigner;
        this.owner = owner;
        this.store = assigner.store();
        this.timeSource = assigner.timeSource();
        this.workerId = workerId;
        this.previousTimestamp = previousTimestamp;
        this.validityNanos = assigner.ttl().minus(assigner.safetyMargin()).toNanos();
        this.validUntilNanos = sentNanos + validityNanos;
        this.newestTimestamp = new AtomicLong(previousTimestamp);
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
        newestTimestamp.accumulateAndGet(epochMillis, Math::max);
    }

    @Override
    public void checkValid() {
        if (timeSource.nanoTime() - validUntilNanos >= 0) {
            throw new LeaseLostException("The lease on worker id " + workerId + " held by '" + owner
                    + "' is not known to be valid ("
                    + (lost
                            ? lastProblem
                            : closed ? "closed" : lastProblem != null ? lastProblem : "not renewed in time")
                    + "); no IDs are issued under"
                    + " it"
                    + (lost
                            ? " (it is lost for good: a new worker id is being acquired)"
                            : closed ? "" : " until it is renewed"));
        }
    }

    @Override
    public boolean isValid() {
        return timeSource.nanoTime() - validUntilNanos < 0;
    }

    /**
     * @return whether the lease is lost for good: refused by the store, or expired unrenewed
     */
    public boolean isLost() {
        return lost;
    }

    /**
     * @return how long IDs may still be issued without another renewal; zero or negative once fenced
     */
    public Duration remaining() {
        return Duration.ofNanos(validUntilNanos - timeSource.nanoTime());
    }

    /**
     * @return how many renewals succeeded, over every lease of this lease's assigner
     */
    public long renewals() {
        return assigner.renewals();
    }

    /**
     * @return how many renewals failed (the store could not be reached, or refused), over every lease of this lease's
     *         assigner
     */
    public long renewalFailures() {
        return assigner.renewalFailures();
    }

    /**
     * @return the owner the lease is held under in the store: the instance id, {@code '#'}, and a random nonce of 12
     *         hex digits made for the acquisition that granted it, which no other lease has
     */
    public String owner() {
        return owner;
    }

    /**
     * @return why the lease is not valid, or null while nothing went wrong
     */
    public String lastProblem() {
        return lastProblem;
    }

    @Override
    public void whenLost(Runnable action) {
        boolean runNow;
        synchronized (this) {
            runNow = lost;
            if (!runNow) {
                lostActions.add(action);
            }
        }
        if (runNow) {
            action.run();
        }
    }

    /**
     * Renews once, now, on the calling thread; the heartbeat calls it on its own.
     *
     * @return whether the lease is held after the attempt
     */
    public boolean renewNow() {
        List<Runnable> toRun;
        synchronized (this) {
            if (closed || lost) {
                return false;
            }
            long sent = timeSource.nanoTime();
            if (sent - validUntilNanos >= 0) {
                // Past the deadline the store may already have expired the lease and given the worker id to someone
                // else; this process cannot tell, so it never claims the id again.
                toRun = lose("it expired unrenewed (the last successful renewal was sent more than "
                        + Duration.ofNanos(validityNanos) + " ago)");
            } else {
                long record = Math.max(
                        newestTimestamp.get(),
                        timeSource.currentTimeMillis() + LeasingWorkerIdAssigner.MAX_AHEAD_MILLIS);
                boolean held;
                try {
                    held = store.renew(workerId, owner, assigner.ttl(), assigner.reuseDelay(), record, true);
                } catch (RuntimeException e) {
                    lastProblem = "the last renewal failed: " + e.getMessage();
                    assigner.countRenewal(false);
                    LOG.log(System.Logger.Level.WARNING, "Renewing the lease on worker id " + workerId + " failed", e);
                    return false;
                }
                if (held && timeSource.nanoTime() - validUntilNanos >= 0) {
                    // The answer came after the deadline: meanwhile the generator had stopped, and the store may have
                    // expired the lease and handed it on (to an instance under the same identity, say). Never revive
                    // a lease that was not valid throughout.
                    toRun = lose("the renewal sent at the last moment answered only after the lease's deadline");
                } else if (held) {
                    recordTimestamp(record);
                    // Only this method, under the lock, moves the deadline; `sent` grows, so it only moves on.
                    validUntilNanos = sent + validityNanos;
                    if (lastProblem != null) {
                        LOG.log(System.Logger.Level.INFO, "Lease on worker id " + workerId + " renewed again");
                    }
                    lastProblem = null;
                    assigner.countRenewal(true);
                    return true;
                } else {
                    toRun = lose("the store refused the renewal: another instance holds worker id " + workerId
                            + ", or the lease expired there");
                }
            }
        }
        for (Runnable action : toRun) {
            try {
                action.run();
            } catch (RuntimeException | Error e) {
                LOG.log(
                        System.Logger.Level.ERROR,
                        "An action on losing the lease on worker id " + workerId + " failed",
                        e);
            }
        }
        return false;
    }

    /**
     * Stops the heartbeat and releases the worker id, keeping the newest recorded timestamp for the next holder. A
     * renewal in flight finishes first, so it cannot reach the store after the release.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (!stop()) {
                return;
            }
            try {
                // The store only releases for this owner, so a lost lease that someone else took is left alone.
                store.release(workerId, owner, newestTimestamp.get());
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Releasing worker id " + workerId + " failed; it frees itself when" + " the lease expires",
                        e);
            }
        }
    }

    /**
     * Stops the heartbeat without releasing the worker id: the lease lapses in the store by itself. For a lease taken
     * over whose wait for the previous holder was cut short, which a release would mark free while that holder may
     * still issue.
     */
    void abandon() {
        synchronized (this) {
            stop();
        }
    }

    /**
     * Called under the lock: ends the lease's validity and its heartbeat.
     *
     * @return false when it was already over
     */
    private boolean stop() {
        if (closed) {
            return false;
        }
        closed = true;
        validUntilNanos = timeSource.nanoTime();
        heartbeat.shutdown();
        lostActions.clear();
        return true;
    }

    @Override
    public String toString() {
        return "RenewingWorkerIdLease[workerId=" + workerId + ", owner=" + owner + "]";
    }

    /** Called under the lock: fences the lease for good and hands back the actions to run outside it. */
    private List<Runnable> lose(String why) {
        lost = true;
        validUntilNanos = Math.min(validUntilNanos, timeSource.nanoTime());
        lastProblem = why;
        assigner.countRenewal(false);
        heartbeat.shutdown();
        LOG.log(
                System.Logger.Level.WARNING,
                "Lost the lease on worker id " + workerId + " for good: " + why
                        + "; it is never renewed again, a new worker id is to be acquired");
        List<Runnable> toRun = List.copyOf(lostActions);
        lostActions.clear();
        return toRun;
    }

    private void scheduleRenewal(Duration delay) {
        if (closed || lost) {
            return;
        }
        try {
            heartbeat.schedule(
                    () -> {
                        boolean held = false;
                        try {
                            held = renewNow();
                        } finally {
                            // Even after an Error, so that the heartbeat never dies silently and leaves a lease that
                            // expired
                            // unnoticed. A failed renewal retries sooner, so a short outage costs little of the lease.
                            scheduleRenewal(
                                    held
                                            ? assigner.renewInterval()
                                            : assigner.renewInterval().dividedBy(4));
                        }
                    },
                    delay.toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed or lost meanwhile
        }
    }
}
