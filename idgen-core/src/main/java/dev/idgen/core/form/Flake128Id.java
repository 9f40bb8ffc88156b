package dev.idgen.core.form;

import dev.idgen.core.InvalidArgumentException;
import java.time.Instant;

/**
 * A 128-bit flake ID, as Boundary's flake issues them: 64 bits of Unix milliseconds, a 48-bit worker id and a 16-bit
 * sequence, written as 32 lowercase hex digits in that order.
 *
 * <p>Immutable. Ordered by time, then worker, then sequence: the order of the strings too, as they have a fixed
 * width.
 */
public final class Flake128Id implements Comparable<Flake128Id> {

    private static final int HEX_LENGTH = 32;

    /** The largest worker id, 2^48 - 1. */
    public static final long MAX_WORKER_ID = (1L << 48) - 1;

    /** The largest sequence, 2^16 - 1. */
    public static final int MAX_SEQUENCE = 0xFFFF;

    private final long millis;

    private final long workerId;

    private final int sequence;

    Flake128Id(long millis, long workerId, int sequence) {
        this.millis = millis;
        this.workerId = workerId;
        this.sequence = sequence;
    }

    /**
     * @param text 32 lowercase hex digits, with a timestamp below 2^63 milliseconds (the first digit 0-7)
     * @return the ID
     * @throws InvalidArgumentException naming {@code id} when the text is null, of another length, has a character
     *         other than {@code 0-9a-f}, or a timestamp beyond 2^63 - 1 milliseconds
     */
    public static Flake128Id parse(String text) {
        if (text == null) {
            throw Forms.invalidId(null, "id must be a 128-bit flake ID, 32 lowercase hex digits, but was null");
        }
        if (text.length() != HEX_LENGTH) {
            throw Forms.invalidId(
                    text,
                    "id must be a 128-bit flake ID, 32 lowercase hex digits, but " + Forms.shown(text) + " has "
                            + text.length() + " characters");
        }
        long millis = Forms.parseLowerHex(text, 0, 16);
        if (millis < 0) {
            throw Forms.invalidId(
                    text,
                    "id must have a timestamp below 2^63 milliseconds (a first digit of 0-7)," + " but "
                            + Forms.shown(text) + " starts with '" + text.charAt(0) + "'");
        }
        return new Flake128Id(millis, Forms.parseLowerHex(text, 16, 28), (int) Forms.parseLowerHex(text, 28, 32));
    }

    /**
     * @return the millisecond it was issued in
     */
    public Instant timestamp() {
        return Instant.ofEpochMilli(millis);
    }

    /**
     * @return the worker id, from 0 to {@link #MAX_WORKER_ID}
     */
    public long workerId() {
        return workerId;
    }

    /**
     * @return the sequence within the millisecond, from 0 to {@link #MAX_SEQUENCE}
     */
    public int sequence() {
        return sequence;
    }

    @Override
    public int compareTo(Flake128Id other) {
        int byMillis = Long.compare(millis, other.millis);
        if (byMillis != 0) {
            return byMillis;
        }
        int byWorker = Long.compare(workerId, other.workerId);
        return byWorker != 0 ? byWorker : Integer.compare(sequence, other.sequence);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Flake128Id id
                && millis == id.millis
                && workerId == id.workerId
                && sequence == id.sequence;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(millis * 31 + workerId) * 31 + sequence;
    }

    /**
     * @return 32 lowercase hex digits: 16 of milliseconds, 12 of worker id, 4 of sequence
     */
    @Override
    public String toString() {
        byte[] chars = new byte[HEX_LENGTH];
        Forms.writeHex(chars, 0, millis, 16);
        Forms.writeHex(chars, 16, workerId, 12);
        Forms.writeHex(chars, 28, sequence, 4);
        return Forms.latin1(chars);
    }
}
