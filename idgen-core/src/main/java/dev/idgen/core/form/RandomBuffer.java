package dev.idgen.core.form;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Random bits for a generator's hot path, made {@value #BLOCK_BYTES} bytes at a time, so most calls only read the
 * buffer. Every bit is handed out once.
 *
 * <p><b>By default</b> ({@link #RandomBuffer(SecureRandom)} with {@code null}) the blocks are the keystream of
 * AES-256 in counter mode (the generator at the core of SP 800-90A's CTR_DRBG, without that mechanism's update after
 * each request), under a key and counter block of 48 fresh bytes from the JDK's NIST SP 800-90A DRBG
 * ({@link #defaultSource()}) for every {@value #BLOCKS_PER_KEY} blocks: 4 MiB, 2^18 AES blocks per key, where AES-CTR's
 * output stays indistinguishable from random far beyond that. The reason is cost, measured on this project's 2-core
 * EPYC with JDK 17: the DRBG (Hash_DRBG, SHA-256) makes about 2 ns per byte at any block size, the JDK's AES-CTR,
 * compiled to AES-NI, about 0.07 ns per byte: for a UUIDv7's 4 random bytes, 8 ns against 0.3 (the UUID went from
 * 39.5 to 28.4 ns in JMH). The keystream is made {@value #CHUNK_BYTES} bytes per cipher call because the JIT compiles
 * a cipher call to AES-NI only once the call is hot: at 64 KiB a call that took 3 to 5 seconds of UUIDs, at 4 KiB it is
 * done within JMH's second warm-up second. A key per 4 MiB rather than per block keeps the key schedule's 2 KiB of
 * garbage below 0.01 bytes per 32-bit draw. The cipher must write every byte it is given at once (the JDK's does);
 * one that holds bytes back, one that refuses the key, or a JDK without AES/CTR turns the keystream off for good, and
 * the DRBG fills the blocks itself from then on.
 *
 * <p><b>With a caller's {@link SecureRandom}</b> every block is one {@code nextBytes} call on it, nothing else: it
 * stays the one source of the bits, as the builders promise, and reseeds itself as its algorithm requires.
 * {@link SecureRandom#nextLong()} per call would allocate a byte array per call, and a SecureRandom per call a system
 * call. The DRBG's own garbage is about 200 bytes per {@code nextBytes} call whatever its size, 0.01 bytes per 32-bit
 * draw at 64 KiB.
 *
 * <p>Not thread-safe: each generator uses its own under its lock.
 */
final class RandomBuffer {

    private static final int BLOCK_BYTES = 64 * 1024;

    /** One cipher call's share of a block. */
    private static final int CHUNK_BYTES = 4 * 1024;

    /** Blocks of keystream under one key. */
    private static final int BLOCKS_PER_KEY = 64;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /**
     * What the keystream encrypts, never written: the cipher's output for zeros is the keystream itself. Encrypting
     * the buffer in place would cost a copy of it per call, which the JDK's ciphers make when input and output
     * share an array.
     */
    private static final byte[] ZEROS = new byte[CHUNK_BYTES];

    /** AES-256's key and one counter block. */
    private static final int SEED_BYTES = 32 + 16;

    private final SecureRandom random;

    /** The keystream's cipher, or null where {@link #random} fills the blocks itself. */
    private Cipher keystream;

    private final byte[] seed;

    /** Blocks left under the current key; 0 before the first. */
    private int blocksBeforeRekey;

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

    /**
     * @param random the caller's one source of the bits, or null for the AES keystream keyed from a new DRBG
     */
    RandomBuffer(SecureRandom random) {
        this(random != null ? random : defaultSource(), random != null ? null : aesCtr());
    }

    /**
     * @param random the source of the blocks, or of the keys when there is a keystream
     * @param keystream an AES/CTR cipher, not yet initialised, or null for the source's own bytes
     */
    RandomBuffer(SecureRandom random, Cipher keystream) {
        this.random = random;
        this.keystream = keystream;
        this.seed = new byte[SEED_BYTES];
    }

    private static Cipher aesCtr() {
        try {
            return Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            return null;
        }
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
        if (keystream == null) {
            random.nextBytes(buffer);
        } else {
            try {
                if (blocksBeforeRekey == 0) {
                    random.nextBytes(seed);
                    keystream.init(
                            Cipher.ENCRYPT_MODE,
                            new SecretKeySpec(seed, 0, 32, "AES"),
                            new IvParameterSpec(seed, 32, 16));
                    Arrays.fill(seed, (byte) 0);
                    blocksBeforeRekey = BLOCKS_PER_KEY;
                }
                blocksBeforeRekey--;
                for (int at = 0; at < BLOCK_BYTES; at += CHUNK_BYTES) {
                    // A short write would leave bytes of the last block (or zeros) in the buffer: bits handed out
                    // twice. Cipher's contract allows one; a provider other than the JDK's may do it.
                    if (keystream.update(ZEROS, 0, CHUNK_BYTES, buffer, at) != CHUNK_BYTES) {
                        throw new ShortBufferException("the cipher held bytes back");
                    }
                }
            } catch (GeneralSecurityException e) {
                // A key refused, bytes held back: the DRBG's own bytes are as good, only slower, from now on.
                keystream = null;
                random.nextBytes(buffer);
            }
        }
        position = 0;
    }
}
