package dev.idgen.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one circuit breaker of idgen, for one backend (a ticket server, a Redis bucket, an idgen server of the client):
 * after {@code failureThreshold} failures in a row the backend is skipped for {@code openDuration}, then exactly one
 * caller probes it, and the probe's outcome closes or reopens it. A caller with no other backend left may force a
 * probe early ({@link #forceProbe()}); it takes the probe over, so still only one probe's outcome counts. The stores open at the first failure (a threshold of
 * 1, {@link #CircuitBreaker(Duration, TimeSource)}): a ticket server or a Redis bucket that fails once is skipped at
 * once, as the next one serves as well. The client counts ({@link #CircuitBreaker(Duration, int, TimeSource)}, 3 by
 * default): one lost request over a network says little about a server.
 *
 * <p>A caller asks {@link #tryAcquire()} before each call and reports the outcome with {@link #onSuccess()} or
 * {@link #onFailure()} (or {@link #onAbandoned()} when the call ended for a reason that says nothing about the
 * backend, such as an interrupt). A probe reports on the thread that won it: a probe's outcome reported from another
 * thread is ignored, and the probe is presumed lost once its time is up.
 *
 * <p>A caller that must know whether its call is the probe (to report only a probe's answer, or to give back only its
 * own probe) reads {@link #isOpen()} instead: while it is {@code false} the call goes through unasked, and otherwise
 * {@link #tryProbe()} says whether this caller won the probe.
 *
 * <h2>States and transitions</h2>
 * <ul>
 * <li><b>Closed</b>: every {@link #tryAcquire()} returns {@code true}. A failure opens the breaker once it is the
 * {@code failureThreshold}-th in a row; before that it is counted, and a success while closed forgets the count.</li>
 * <li><b>Open until t</b>: {@link #tryAcquire()} returns {@code false} until the monotonic clock reaches t
 * ({@code openDuration} after the failure). From t on, the first caller whose compare-and-set succeeds moves the
 * breaker to half-open and gets {@code true}; every other caller gets {@code false}.</li>
 * <li><b>Half-open until t</b>: one probe is in flight; every caller gets {@code false}. The probe's success closes
 * the breaker, its failure opens it for another {@code openDuration}. The probe is the thread that won it: only its
 * own reports (on that thread) move a half-open breaker, so a call admitted before the breaker opened that answers,
 * fails or is abandoned meanwhile neither closes, reopens nor resets it (a reset would let a second probe run). A probe that never reports (its caller died) is
 * presumed lost once the clock reaches t, {@code openDuration} after it started, and the next caller may probe.</li>
 * </ul>
 * A failure reported while the breaker is already open leaves its time alone: calls admitted before it opened do not
 * keep extending it. A success reported while it is open does not close it: only a probe, admitted after the open
 * time, says the backend is back.
 *
 * <h2>Invariants</h2>
 * <ul>
 * <li>From one open state, at most one caller wins the probe: the transition is a compare-and-set from that very
 * state object to a new one.</li>
 * <li>No ABA: every open and half-open state is a new immutable object, so a caller that read an older state can
 * never win a compare-and-set against a newer state that happens to hold the same values. Only the closed state is
 * shared (the closed state with no failures counted); a counted failure or a success that forgets the count is a
 * transition to a closed state of its own, so a caller that counted on an older count loses its compare-and-set and
 * counts again.</li>
 * <li>Time is {@link TimeSource#nanoTime()} only, compared by difference ({@code now - t >= 0}), so steps of the
 * wall clock neither keep a backend out longer nor let it back early, and the numeric wrap of nanoTime is harmless.
 * </li>
 * </ul>
 *
 * <h2>Memory ordering</h2>
 * The whole state is one reference in an {@link AtomicReference}: {@code get} is a volatile read and
 * {@code compareAndSet} a volatile read and write, and a state's fields are final. So whatever a thread did before a
 * transition happens-before whatever another thread does after it reads the new state, and a reader never sees a
 * half-written state. The breaker takes no lock, and the call it guards runs outside it: it orders its own states,
 * not the backend's effects.
 *
 * <h2>Cost</h2>
 * While closed, {@link #tryAcquire()}, {@link #isOpen()} and {@link #onSuccess()} are one volatile read each and
 * allocate nothing (a success after counted failures allocates nothing either: it goes back to the shared closed
 * state); the clock is read and a state allocated only on a transition or a counted failure.
 */
public final class CircuitBreaker {

    /** The longest {@code openDuration} accepted: outages are skipped for seconds, and more is a unit mistake. */
    public static final Duration MAX_OPEN_DURATION = Duration.ofDays(1);

    /** The largest {@code failureThreshold} accepted: a breaker that waits for more failures in a row never opens. */
    public static final int MAX_FAILURE_THRESHOLD = 1000;

    /** A breaker's state, for health and metrics. */
    public enum State {
        /** Calls go through. */
        CLOSED,
        /** The last call failed: calls are refused until the open duration has passed. */
        OPEN,
        /** One caller is probing the backend; the others are refused. */
        HALF_OPEN
    }

    /**
     * One state, never changed once published. {@code until} is the {@link TimeSource#nanoTime()} from which a caller
     * may (again) probe; it means nothing while closed. {@code failures} counts a closed breaker's failures in a row.
     */
    private record Snapshot(State state, long until, Thread prober, int failures) {}

    private static final Snapshot CLOSED = new Snapshot(State.CLOSED, 0, null, 0);

    private final AtomicReference<Snapshot> current = new AtomicReference<>(CLOSED);
    private final Duration openDuration;
    private final long openNanos;
    private final int failureThreshold;
    private final TimeSource timeSource;

    /**
     * @param openDuration how long the backend is skipped after a failure, and how long a probe may take before it
     *        is presumed lost; from zero (every caller after a failure may probe at once) to
     *        {@link #MAX_OPEN_DURATION}
     * @param timeSource the monotonic clock, read through {@link TimeSource#nanoTime()}
     * @throws InvalidArgumentException naming {@code openDuration} when it is null, negative or too long
     */
    public CircuitBreaker(Duration openDuration, TimeSource timeSource) {
        this(openDuration, 1, timeSource);
    }

    /**
     * @param openDuration as for {@link #CircuitBreaker(Duration, TimeSource)}
     * @param failureThreshold how many failures in a row open the breaker, from 1 to {@link #MAX_FAILURE_THRESHOLD}
     * @param timeSource the monotonic clock, read through {@link TimeSource#nanoTime()}
     * @throws InvalidArgumentException naming {@code openDuration} or {@code failureThreshold} when it is out of range
     */
    public CircuitBreaker(Duration openDuration, int failureThreshold, TimeSource timeSource) {
        if (failureThreshold < 1 || failureThreshold > MAX_FAILURE_THRESHOLD) {
            throw new InvalidArgumentException(
                    "failureThreshold",
                    failureThreshold,
                    "failureThreshold must be between 1 and " + MAX_FAILURE_THRESHOLD + ", but was "
                            + failureThreshold);
        }
        if (openDuration == null || openDuration.isNegative() || openDuration.compareTo(MAX_OPEN_DURATION) > 0) {
            throw new InvalidArgumentException(
                    "openDuration",
                    openDuration,
                    "openDuration must be between 0 and " + MAX_OPEN_DURATION + ", but was " + openDuration);
        }
        this.openDuration = openDuration;
        this.openNanos = openDuration.toNanos();
        this.failureThreshold = failureThreshold;
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
    }

    /**
     * @return {@code true} when the call may go to the backend: the breaker is closed, or it was open (or its probe
     *         lost) long enough and this caller won the one probe; {@code false} otherwise
     */
    public boolean tryAcquire() {
        Snapshot seen = current.get();
        return seen.state() == State.CLOSED || probe(seen);
    }

    /**
     * Like {@link #tryAcquire()}, but {@code true} only for the probe: for a caller that saw {@link #isOpen()} and
     * has to tell its probe from an ordinary call.
     *
     * @return {@code true} when the breaker was open (or its probe lost) long enough and this caller won the one
     *         probe; {@code false} when it is closed (it closed since the caller looked: the call may go through
     *         unasked), still open, or being probed by someone else
     */
    public boolean tryProbe() {
        Snapshot seen = current.get();
        return seen.state() != State.CLOSED && probe(seen);
    }

    /**
     * A probe although the breaker would refuse one now, for a caller with no other backend left to try: every
     * backend's breaker is open, and trying the one that reopens first ({@link #probeAllowedAt()}) beats failing
     * without trying at all. The caller becomes the probe, taking over from a probe in flight, whose reports then move
     * nothing: still at most one probe counts.
     *
     * @return {@code true} when the breaker is closed (the call goes through as an ordinary one) or this caller is now
     *         its probe, which is always
     */
    public boolean forceProbe() {
        while (true) {
            Snapshot seen = current.get();
            if (seen.state() == State.CLOSED
                    || current.compareAndSet(
                            seen,
                            new Snapshot(
                                    State.HALF_OPEN, timeSource.nanoTime() + openNanos, Thread.currentThread(), 0))) {
                return true;
            }
            // Moved meanwhile (a probe won, a report landed): look again.
        }
    }

    /**
     * @return while open, the {@link TimeSource#nanoTime()} from which a caller may probe; while half-open, when the
     *         probe in flight is presumed lost; meaningless while closed. For choosing, among open breakers, the one
     *         that reopens first.
     */
    public long probeAllowedAt() {
        return current.get().until();
    }

    private boolean probe(Snapshot seen) {
        long now = timeSource.nanoTime();
        if (now - seen.until() < 0) {
            return false;
        }
        return current.compareAndSet(seen, new Snapshot(State.HALF_OPEN, now + openNanos, Thread.currentThread(), 0));
    }

    /**
     * Reports that a call answered. Closes a half-open breaker when the caller is its probe (the probe succeeded); on
     * a closed breaker forgets the failures counted so far (they were not in a row); changes nothing otherwise.
     *
     * @return whether this report closed the breaker, so that a caller can say once that the backend is back
     */
    public boolean onSuccess() {
        Snapshot seen = current.get();
        if (seen.state() == State.CLOSED) {
            // A failure counted meanwhile is retried over, not given way to: this success then comes after it, and
            // the count starts again (given way to, a success racing failures would be lost, and the breaker open
            // before failureThreshold in a row). Stops when the count is gone or a failure opened the breaker.
            while (seen.state() == State.CLOSED && seen != CLOSED && !current.compareAndSet(seen, CLOSED)) {
                seen = current.get();
            }
            return false;
        }
        // Lost only to a transition that is newer than this answer (a failure, or a new probe): that one stands.
        return isProbe(seen) && current.compareAndSet(seen, CLOSED);
    }

    /**
     * @return whether {@code seen} is half-open with this thread as its probe: only the probe's outcome moves a
     *         half-open breaker (another call's was admitted before it opened, and says nothing newer)
     */
    private static boolean isProbe(Snapshot seen) {
        return seen.state() == State.HALF_OPEN && seen.prober() == Thread.currentThread();
    }

    /**
     * Reports that a call failed. Opens a closed breaker when this is the {@code failureThreshold}-th failure in a row
     * (counts it otherwise), or a half-open one when the caller is its probe, for {@code openDuration} from now; an open
     * breaker keeps its time, and a half-open one whose probe is another caller its probe.
     *
     * @return whether this report opened the breaker ({@code false} when it was open already), so that a caller can
     *         say once that the backend failed
     */
    public boolean onFailure() {
        while (true) {
            Snapshot seen = current.get();
            if (seen.state() == State.OPEN || seen.state() == State.HALF_OPEN && !isProbe(seen)) {
                return false;
            }
            if (seen.state() == State.CLOSED && seen.failures() + 1 < failureThreshold) {
                if (current.compareAndSet(seen, new Snapshot(State.CLOSED, 0, null, seen.failures() + 1))) {
                    return false;
                }
                continue;
            }
            if (current.compareAndSet(seen, new Snapshot(State.OPEN, timeSource.nanoTime() + openNanos, null, 0))) {
                return true;
            }
            // Someone else moved it meanwhile (closed it, probed it, opened it): look again.
        }
    }

    /**
     * Reports that a call ended without saying anything about the backend (for example its thread was interrupted).
     * When the caller is the probe of a half-open breaker, it goes back to open with its time already up, so the next
     * caller may probe at once; otherwise nothing changes (another caller's probe is still in flight: resetting it
     * would let a second probe run alongside).
     */
    public void onAbandoned() {
        Snapshot seen = current.get();
        if (isProbe(seen)) {
            current.compareAndSet(seen, new Snapshot(State.OPEN, timeSource.nanoTime(), null, 0));
        }
    }

    /**
     * @return whether calls are being refused or probed: the breaker is open or half-open
     */
    public boolean isOpen() {
        return current.get().state() != State.CLOSED;
    }

    /**
     * @return the current state; an open breaker whose time is up stays {@link State#OPEN} until a caller probes it
     */
    public State state() {
        return current.get().state();
    }

    /**
     * @return how long the backend is skipped after a failure
     */
    public Duration openDuration() {
        return openDuration;
    }

    /**
     * @return how many failures in a row open the breaker
     */
    public int failureThreshold() {
        return failureThreshold;
    }

    @Override
    public String toString() {
        return "CircuitBreaker[" + state() + ", open for " + openDuration
                + (failureThreshold > 1 ? " after " + failureThreshold + " failures in a row" : "") + "]";
    }
}
