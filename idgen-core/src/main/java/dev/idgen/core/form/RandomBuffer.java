package dev.idgen.core.form;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Random bits for a generator's hot path, drawn in blocks from one {@link SecureRandom}. One {@code nextBytes} call
 * fills {@value #LONGS_PER_FILL} longs, so most calls only read the buffer: {@link SecureRandom#nextLong()} would
 * allocate a byte array per call, and a SecureRandom per call (or a reseed per call) would cost a system call and
 * gain nothing, since the SecureRandom reseeds itself as its algorithm requires.
 *
 * <p>The default source is {@link #defaultSource()}, the JDK's NIST SP 800-90A DRBG: in blocks of 4 KiB it costs
 * about 17 ns per long here, where {@code new SecureRandom()} (NativePRNG on Linux, which mixes every read from
 * {@code /dev/urandom} through SHA1PRNG) costs about 65 ns per long at any block size.
 *
 * <p>Not thread-safe: each generator uses its own under its lock.
 */
final class RandomBuffer {

    private static final int LONGS_PER_FILL = 512;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final SecureRandom random;

    private final byte[] buffer = new byte[LONGS_PER_FILL * Long.BYTES];

    private int position = buffer.length;

    /**
     * @return a new {@code SecureRandom.getInstance("DRBG")}, seeded from the operating system's entropy and reseeded
     *         as SP 800-90A requires, or {@code new SecureRandom()} on a JDK without DRBG
     */
    static SecureRandom defaultSource() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    RandomBuffer(SecureRandom random) {
        this.random = random;
    }

    /**
     * @return 64 random bits
     */
    long nextLong() {
        if (position == buffer.length) {
            random.nextBytes(buffer);
            position = 0;
        }
        long value = (long) LONGS.get(buffer, position);
        position += Long.BYTES;
        return value;
    }
}
