package dev.idgen.zookeeper;

import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import java.nio.charset.StandardCharsets;

/**
 * What a worker's node holds, and how it is written as the node's data: {@code STATE ttl reuseDelay lastTimestamp
 * nonce/grant}, a newline and the owner. Kept apart from {@link ZooKeeperWorkerIdLeaseStore}, which decides when a
 * lease is taken, renewed or released, because the format has rules of its own (older versions read the grant as part
 * of an opaque nonce, and a node they wrote records none) and can be checked without a server.
 *
 * @param nonce random, new with every write, so that a write whose answer was lost can be recognised
 * @param grantedPreviousTtlMillis the {@link Acquisition#previousTtlMillis()} the lease was granted with,
 *        {@link Acquisition#UNKNOWN_TTL} when not recorded
 */
record WorkerLease(
        State state,
        long ttlMillis,
        long reuseDelayMillis,
        long lastTimestamp,
        String nonce,
        long grantedPreviousTtlMillis,
        String owner) {

    private static final byte[] EMPTY = new byte[0];

    /** Separates the nonce from the recorded grant in the nonce token. */
    private static final String GRANT = "/";

    /** The state a worker's node records. */
    enum State {
        HELD,
        RELEASED
    }

    byte[] encode() {
        return (state + " " + ttlMillis + " " + reuseDelayMillis + " " + lastTimestamp + " " + nonce + GRANT
                        + grantedPreviousTtlMillis + "\n" + owner)
                .getBytes(StandardCharsets.UTF_8);
    }

    static WorkerLease decode(byte[] data) {
        String text = new String(data == null ? EMPTY : data, StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        if (newline < 0) {
            return null;
        }
        String[] fields = text.substring(0, newline).split(" ");
        if (fields.length != 5) {
            return null;
        }
        try {
            int grant = fields[4].indexOf(GRANT);
            return new WorkerLease(
                    State.valueOf(fields[0]),
                    Long.parseLong(fields[1]),
                    Long.parseLong(fields[2]),
                    Long.parseLong(fields[3]),
                    grant < 0 ? fields[4] : fields[4].substring(0, grant),
                    grant < 0 ? Acquisition.UNKNOWN_TTL : grantedPreviousTtl(fields[4].substring(grant + 1)),
                    text.substring(newline + 1));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static long grantedPreviousTtl(String recorded) {
        try {
            long millis = Long.parseLong(recorded);
            return millis >= 0 ? millis : Acquisition.UNKNOWN_TTL;
        } catch (NumberFormatException e) {
            return Acquisition.UNKNOWN_TTL;
        }
    }

    Acquisition granted(long workerId) {
        return grantedPreviousTtlMillis == Acquisition.FREE
                ? Acquisition.grantedFree(workerId, lastTimestamp)
                : Acquisition.grantedTakenOver(workerId, lastTimestamp, grantedPreviousTtlMillis);
    }
}
