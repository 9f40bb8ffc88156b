package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * A millisecond timestamp with a counter below it, for the generators whose IDs sort by {@code (millis, counter)}:
 * each call moves to a pair greater than every pair before it.
 * <ul>
 * <li>A new millisecond starts the counter afresh: at a random value with its top bit clear (so at least half the
 * counter's range is left to count up through), or at 0.</li>
 * <li>Within a millisecond, and while the clock is behind the last millisecond used, the counter counts up on that
 * millisecond: the pairs keep increasing, and the clock only has to catch up before the counter runs out.</li>
 * <li>When the counter runs out, the next millisecond is borrowed, at most {@value #MAX_AHEAD_MILLIS} ms ahead of the
 * clock. So the timestamps stay within a second of the clock, and no pair is ever handed out twice.</li>
 * <li>At that limit, callers faster than the counter can serve (an ordered GUID's 14 bits give 8,192 to 16,384 per
 * millisecond, which one thread outruns) wait for the clock: {@link #advance} returns {@code false} and
 * {@link #awaitClock} waits for {@link #resumeMillis()}, a millisecond or so. Throughput then settles at the
 * counter's capacity instead of failing. Only a clock more than {@value #MAX_WAIT_MILLIS} ms short of that point (it
 * stepped back) gets {@link ClockBackwardsException}: waiting for it could take as long as the step.</li>
 * </ul>
 *
 * <p>Not thread-safe: each generator uses its own under its lock, and reads {@link #millis} and {@link #counter} after
 * {@link #advance} under that same lock (two fields, so that nothing is allocated to return them).
 */
final class MillisCounter {

    /** How far ahead of the clock borrowing may take the timestamp. */
    static final long MAX_AHEAD_MILLIS = 1000;

    /** How far short of {@link #resumeMillis()} the clock may be for a caller to wait for it rather than fail. */
    static final long MAX_WAIT_MILLIS = 10;

    /** The longest a caller waits in {@link #awaitClock} for a clock that does not move. */
    static final long MAX_STALL_MILLIS = 1000;

    private final String generator;

    private final long maxCounter;

    private final long seedMask;

    private final long maxMillis;

    /** Seeds each millisecond's counter, or {@code null} to start each millisecond at 0. */
    private final RandomBuffer random;

    private long millis = Long.MIN_VALUE;

    private long counter;

    /**
     * @param generator names the generator in exception messages, for example {@code UUIDv7}
     * @param counterBits the counter's width
     * @param maxMillis the largest timestamp the layout holds
     * @param random seeds each millisecond's counter; {@code null} to start at 0
     */
    MillisCounter(String generator, int counterBits, long maxMillis, RandomBuffer random) {
        this.generator = generator;
        this.maxCounter = (1L << counterBits) - 1;
        this.seedMask = maxCounter >>> 1;
        this.maxMillis = maxMillis;
        this.random = random;
    }

    /**
     * Moves to the next pair, unless the counter ran out at the borrowing limit.
     *
     * @param nowMillis the clock, read under the generator's lock
     * @return {@code true} when {@link #millis} and {@link #counter} hold the next pair; {@code false} when the
     *         caller must release its lock, {@link #awaitClock} the {@link #resumeMillis()}, and call again
     * @throws ClockBackwardsException when the counter ran out and the clock is more than {@value #MAX_WAIT_MILLIS}
     *         ms short of letting the next millisecond be borrowed (so more than {@value #MAX_AHEAD_MILLIS} ms behind)
     * @throws LayoutExhaustedException when the timestamp would not fit the layout
     * @throws IdGenerationException when the clock reads before 1970
     */
    boolean advance(long nowMillis) {
        if (nowMillis > millis) {
            if (nowMillis < 0) {
                throw new IdGenerationException("The clock reads " + Instant.ofEpochMilli(nowMillis) + ", before 1970:"
                        + " " + generator + " timestamps cannot hold it");
            }
            moveTo(nowMillis);
        } else if (counter < maxCounter) {
            counter++;
        } else {
            if (millis + 1 - nowMillis > MAX_AHEAD_MILLIS) {
                if (resumeMillis() - nowMillis > MAX_WAIT_MILLIS) {
                    throw new ClockBackwardsException(
                            "The " + generator + " counter of "
                                    + Instant.ofEpochMilli(millis) + " is used up and the clock is "
                                    + (millis - nowMillis)
                                    + " ms behind it: borrowing the next millisecond would run more than "
                                    + MAX_AHEAD_MILLIS
                                    + " ms ahead of the clock, so no ID is issued until the clock catches up",
                            millis - nowMillis);
                }
                return false;
            }
            if (millis == maxMillis) {
                throw exhausted();
            }
            moveTo(millis + 1);
        }
        return true;
    }

    /**
     * @return the clock reading from which the next millisecond may be borrowed: {@value #MAX_AHEAD_MILLIS} ms before
     *         it
     */
    long resumeMillis() {
        return millis + 1 - MAX_AHEAD_MILLIS;
    }

    /**
     * Waits, outside the generator's lock, until the clock reads {@code targetMillis}: parks a millisecond at a time,
     * so other callers meet the same limit and wait too.
     *
     * @param timeSource the generator's clock
     * @param targetMillis {@link #resumeMillis()}, read under the lock
     * @param generator names the generator in exception messages
     * @throws IdGenerationException when the clock does not get there within {@value #MAX_STALL_MILLIS} ms (of its
     *         own {@link TimeSource#nanoTime()}), or the caller is interrupted
     */
    static void awaitClock(TimeSource timeSource, long targetMillis, String generator) {
        long started = timeSource.nanoTime();
        for (; ; ) {
            if (timeSource.currentTimeMillis() >= targetMillis) {
                return;
            }
            if (timeSource.nanoTime() - started > MAX_STALL_MILLIS * 1_000_000L) {
                throw new IdGenerationException("The " + generator + " counter is used up " + MAX_AHEAD_MILLIS
                        + " ms ahead of the clock, and the clock did not reach " + Instant.ofEpochMilli(targetMillis)
                        + " within " + MAX_STALL_MILLIS + " ms");
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IdGenerationException(
                        "Interrupted while waiting for the clock to issue more " + generator + " IDs");
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    private void moveTo(long newMillis) {
        if (newMillis > maxMillis) {
            throw exhausted();
        }
        millis = newMillis;
        counter = random == null ? 0 : random.nextLong() & seedMask;
    }

    private LayoutExhaustedException exhausted() {
        return new LayoutExhaustedException(
                "The " + generator + " timestamp is used up: it cannot go beyond " + Instant.ofEpochMilli(maxMillis));
    }

    /**
     * @return the millisecond of the pair {@link #advance} moved to
     */
    long millis() {
        return millis;
    }

    /**
     * @return the counter of the pair {@link #advance} moved to
     */
    long counter() {
        return counter;
    }
}
