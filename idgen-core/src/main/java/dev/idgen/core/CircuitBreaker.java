package dev.idgen.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A circuit breaker for one backend (a ticket server, a Redis bucket): after a failure the backend is skipped for
 * {@code openDuration}, then exactly one caller probes it, and the probe's outcome closes or reopens it.
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
 * <li><b>Closed</b>: every {@link #tryAcquire()} returns {@code true}. A failure opens the breaker.</li>
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
 * shared; the one transition out of it is a failure, which is right whatever happened in between.</li>
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
 * allocate nothing; the clock is read and a state allocated only on a transition.
 */
public final class CircuitBreaker {

    /** The longest {@code openDuration} accepted: outages are skipped for seconds, and more is a unit mistake. */
    public static final Duration MAX_OPEN_DURATION = Duration.ofDays(1);

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
     * may (again) probe; it means nothing while closed.
     */
    private record Snapshot(State state, long until, Thread prober) {}

    private static final Snapshot CLOSED = new Snapshot(State.CLOSED, 0, null);

    private final AtomicReference<Snapshot> current = new AtomicReference<>(CLOSED);
    private final Duration openDuration;
    private final long openNanos;
    private final TimeSource timeSource;

    /**
     * @param openDuration how long the backend is skipped after a failure, and how long a probe may take before it
     *        is presumed lost; from zero (every caller after a failure may probe at once) to
     *        {@link #MAX_OPEN_DURATION}
     * @param timeSource the monotonic clock, read through {@link TimeSource#nanoTime()}
     * @throws InvalidArgumentException naming {@code openDuration} when it is null, negative or too long
     */
    public CircuitBreaker(Duration openDuration, TimeSource timeSource) {
        if (openDuration == null || openDuration.isNegative() || openDuration.compareTo(MAX_OPEN_DURATION) > 0) {
            throw new InvalidArgumentException(
                    "openDuration",
                    openDuration,
                    "openDuration must be between 0 and " + MAX_OPEN_DURATION + ", but was " + openDuration);
        }
        this.openDuration = openDuration;
        this.openNanos = openDuration.toNanos();
        this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
    }

    /**
     * @return {@code true} when the call may go to the backend: the breaker is closed, or it was open (or its probe
     *         lost) long enough and this caller won the one probe; {@code false} otherwise
     */
    public boolean tryAcquire() {
        Snapshot seen = current.get();
        return seen == CLOSED || probe(seen);
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
        return seen != CLOSED && probe(seen);
    }

    private boolean probe(Snapshot seen) {
        long now = timeSource.nanoTime();
        if (now - seen.until() < 0) {
            return false;
        }
        return current.compareAndSet(seen, new Snapshot(State.HALF_OPEN, now + openNanos, Thread.currentThread()));
    }

    /**
     * Reports that a call answered. Closes a half-open breaker when the caller is its probe (the probe succeeded);
     * changes nothing otherwise.
     *
     * @return whether this report closed the breaker, so that a caller can say once that the backend is back
     */
    public boolean onSuccess() {
        Snapshot seen = current.get();
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
     * Reports that a call failed. Opens a closed breaker, or a half-open one when the caller is its probe, for
     * {@code openDuration} from now; an open breaker keeps its time, and a half-open one whose probe is another caller
     * its probe.
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
            if (current.compareAndSet(seen, new Snapshot(State.OPEN, timeSource.nanoTime() + openNanos, null))) {
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
            current.compareAndSet(seen, new Snapshot(State.OPEN, timeSource.nanoTime(), null));
        }
    }

    /**
     * @return whether calls are being refused or probed: the breaker is open or half-open
     */
    public boolean isOpen() {
        return current.get() != CLOSED;
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

    @Override
    public String toString() {
        return "CircuitBreaker[" + state() + ", open for " + openDuration + "]";
    }
}
