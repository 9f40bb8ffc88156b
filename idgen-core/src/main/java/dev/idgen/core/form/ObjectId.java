package dev.idgen.core.form;

import dev.idgen.core.InvalidArgumentException;
import java.time.Instant;

/**
 * A MongoDB ObjectId: 12 bytes, written as 24 lowercase hex digits.
 *
 * <pre>
 *  bytes 0-3    seconds since 1970, unsigned big-endian (until 2106-02-07)
 *        4-8    a random value unique to the generator (MongoDB: to the process)
 *        9-11   a counter, starting at a random value
 * </pre>
 *
 * <p>Immutable. Ordered as MongoDB orders ObjectIds: by their bytes, which is also the order of their strings.
 */
public final class ObjectId implements Comparable<ObjectId> {

    private static final int HEX_LENGTH = 24;

    /** Seconds, 32 bits unsigned. */
    private final long seconds;

    /** 40 bits. */
    private final long processUnique;

    /** 24 bits. */
    private final int counter;

    ObjectId(long seconds, long processUnique, int counter) {
        this.seconds = seconds;
        this.processUnique = processUnique;
        this.counter = counter;
    }

    /**
     * @param text 24 lowercase hex digits
     * @return the ObjectId
     * @throws InvalidArgumentException naming {@code id} when the text is null, of another length, or has a
     *         character other than {@code 0-9a-f}
     */
    public static ObjectId parse(String text) {
        if (text == null) {
            throw Forms.invalidId(null, "id must be an ObjectId, 24 lowercase hex digits, but was null");
        }
        if (text.length() != HEX_LENGTH) {
            throw Forms.invalidId(
                    text,
                    "id must be an ObjectId, 24 lowercase hex digits, but " + Forms.shown(text) + " has "
                            + text.length() + " characters");
        }
        return new ObjectId(Forms.parseLowerHex(text, 0, 8), Forms.parseLowerHex(text, 8, 18), (int)
                Forms.parseLowerHex(text, 18, 24));
    }

    /**
     * @return the second it was issued in
     */
    public Instant timestamp() {
        return Instant.ofEpochSecond(seconds);
    }

    /**
     * @return bytes 4-8, the generator's random value, as a number from 0 to 2^40 - 1
     */
    public long processUnique() {
        return processUnique;
    }

    /**
     * @return bytes 9-11, the counter, from 0 to 2^24 - 1
     */
    public int counter() {
        return counter;
    }

    @Override
    public int compareTo(ObjectId other) {
        int bySeconds = Long.compare(seconds, other.seconds);
        if (bySeconds != 0) {
            return bySeconds;
        }
        int byProcess = Long.compare(processUnique, other.processUnique);
        return byProcess != 0 ? byProcess : Integer.compare(counter, other.counter);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ObjectId id
                && seconds == id.seconds
                && processUnique == id.processUnique
                && counter == id.counter;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(seconds * 31 + processUnique) * 31 + counter;
    }

    /**
     * @return 24 lowercase hex digits
     */
    @Override
    public String toString() {
        byte[] chars = new byte[HEX_LENGTH];
        Forms.writeHex(chars, 0, seconds, 8);
        Forms.writeHex(chars, 8, processUnique, 10);
        Forms.writeHex(chars, 18, counter, 6);
        return Forms.latin1(chars);
    }
}
