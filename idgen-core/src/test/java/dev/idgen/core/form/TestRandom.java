package dev.idgen.core.form;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/** SecureRandoms for tests: one that returns the same byte everywhere, one that counts how often it is asked. */
final class TestRandom extends SecureRandom {

    private static final long serialVersionUID = 1L;

    private final Integer constant;

    final AtomicInteger nextBytesCalls = new AtomicInteger();

    private TestRandom(Integer constant) {
        this.constant = constant;
    }

    /** Every random byte is {@code value}: 0xFF seeds every counter at the top of its random range. */
    static TestRandom constant(int value) {
        return new TestRandom(value);
    }

    /** Real random bytes, counting the calls. */
    static TestRandom counting() {
        return new TestRandom(null);
    }

    @Override
    public void nextBytes(byte[] bytes) {
        nextBytesCalls.incrementAndGet();
        if (constant == null) {
            super.nextBytes(bytes);
        } else {
            Arrays.fill(bytes, (byte) (int) constant);
        }
    }
}
