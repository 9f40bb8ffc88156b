package dev.idgen.core.form;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;

/**
 * Random bits for a generator's hot path, drawn in blocks from one {@link SecureRandom}. One {@code nextBytes} call
 * fills {@value #LONGS_PER_FILL} longs, so most calls only read the buffer: {@link SecureRandom#nextLong()} would
 * allocate a byte array per call, and a SecureRandom per call (or a reseed per call) would cost a system call and
 * gain nothing, since the SecureRandom reseeds itself as its algorithm requires.
 *
 * <p>Not thread-safe: each generator uses its own under its lock.
 */
final class RandomBuffer {

    private static final int LONGS_PER_FILL = 64;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final SecureRandom random;

    private final byte[] buffer = new byte[LONGS_PER_FILL * Long.BYTES];

    private int position = buffer.length;

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
