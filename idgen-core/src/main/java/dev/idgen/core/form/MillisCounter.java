package dev.idgen.core.form;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.LayoutExhaustedException;
import java.time.Instant;

/**
 * A millisecond timestamp with a counter below it, for the generators whose IDs sort by {@code (millis, counter)}:
 * each call moves to a pair greater than every pair before it.
 * <ul>
 * <li>A new millisecond starts the counter afresh: at a random value with its top bit clear (so at least half the
 * counter's range is left to count up through), or at 0.</li>
 * <li>Within a millisecond, and while the clock is behind the last millisecond used, the counter counts up on that
 * millisecond: the pairs keep increasing, and the clock only has to catch up before the counter runs out.</li>
 * <li>When the counter runs out, the next millisecond is borrowed, at most {@value #MAX_AHEAD_MILLIS} ms ahead of the
 * clock; further, {@link ClockBackwardsException} until the clock catches up. So the timestamps stay within a second
 * of the clock, and no pair is ever handed out twice.</li>
 * </ul>
 *
 * <p>Not thread-safe: each generator uses its own under its lock, and reads {@link #millis} and {@link #counter} after
 * {@link #advance} under that same lock (two fields, so that nothing is allocated to return them).
 */
final class MillisCounter {

    /** How far ahead of the clock borrowing may take the timestamp. */
    static final long MAX_AHEAD_MILLIS = 1000;

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
     * Moves to the next pair.
     *
     * @param nowMillis the clock, read under the generator's lock
     * @throws ClockBackwardsException when the counter ran out and the next millisecond is more than
     *         {@value #MAX_AHEAD_MILLIS} ms ahead of the clock
     * @throws LayoutExhaustedException when the timestamp would not fit the layout
     * @throws IdGenerationException when the clock reads before 1970
     */
    void advance(long nowMillis) {
        if (nowMillis > millis) {
            if (nowMillis < 0) {
                throw new IdGenerationException("The clock reads " + Instant.ofEpochMilli(nowMillis) + ", before 1970:"
                        + " " + generator + " timestamps cannot hold it");
            }
            moveTo(nowMillis);
        } else if (counter < maxCounter) {
            counter++;
        } else {
            long ahead = millis + 1 - nowMillis;
            if (ahead > MAX_AHEAD_MILLIS) {
                throw new ClockBackwardsException("The " + generator + " counter of " + Instant.ofEpochMilli(millis)
                        + " is used up and the clock is " + (millis - nowMillis) + " ms behind it: borrowing the next"
                        + " millisecond would run more than " + MAX_AHEAD_MILLIS + " ms ahead of the clock, so no ID"
                        + " is issued until the clock catches up", millis - nowMillis);
            }
            if (millis == maxMillis) {
                throw exhausted();
            }
            moveTo(millis + 1);
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
        return new LayoutExhaustedException("The " + generator + " timestamp is used up: it cannot go beyond "
                + Instant.ofEpochMilli(maxMillis));
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
