package dev.idgen.core.form;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Random bits for a generator's hot path, drawn in blocks from one {@link SecureRandom}. One {@code nextBytes} call
 * fills {@value #BLOCK_BYTES} bytes, so most calls only read the buffer: {@link SecureRandom#nextLong()} would
 * allocate a byte array per call, and a SecureRandom per call (or a reseed per call) would cost a system call and
 * gain nothing, since the SecureRandom reseeds itself as its algorithm requires. Every bit is handed out once.
 *
 * <p>The default source is {@link #defaultSource()}, the JDK's NIST SP 800-90A DRBG (Hash_DRBG, SHA-256): about 2 ns
 * per byte here at any block size from 4 KiB up, where {@code new SecureRandom()} (NativePRNG on Linux, which mixes
 * every read from {@code /dev/urandom} through SHA1PRNG) costs about 65 ns per long. What the block size buys is the
 * DRBG's own garbage, about 200 bytes per {@code nextBytes} call whatever its size: at 64 KiB that is 0.01 bytes per
 * 32-bit draw instead of 0.2 at 4 KiB. The price is one refill of about 130 us every 16,384 draws of 32 bits.
 *
 * <p>Not thread-safe: each generator uses its own under its lock.
 */
final class RandomBuffer {

    private static final int BLOCK_BYTES = 64 * 1024;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final SecureRandom random;

    private final byte[] buffer = new byte[BLOCK_BYTES];

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
        if (position > buffer.length - Long.BYTES) {
            refill();
        }
        long value = (long) LONGS.get(buffer, position);
        position += Long.BYTES;
        return value;
    }

    /**
     * Half of {@link #nextLong()}'s cost where 32 bits are all a caller needs: the DRBG's time is per byte drawn.
     *
     * @return 32 random bits, never handed out before
     */
    int nextInt() {
        if (position > buffer.length - Integer.BYTES) {
            refill();
        }
        int value = (int) INTS.get(buffer, position);
        position += Integer.BYTES;
        return value;
    }

    /** Bytes left over from the last block (fewer than a long) are dropped, never handed out again. */
    private void refill() {
        random.nextBytes(buffer);
        position = 0;
    }
}
