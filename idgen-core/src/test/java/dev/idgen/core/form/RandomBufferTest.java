package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RandomBufferTest {

    /** Longs in one 64 KiB block. */
    private static final int LONGS_PER_BLOCK = 64 * 1024 / Long.BYTES;

    @Test
    void theDefaultKeystreamNeverRepeatsAcrossBlocksAndKeysAndLooksRandom() {
        RandomBuffer buffer = new RandomBuffer(null);
        // Past the first key's 64 blocks, into the second key's.
        int blocks = 66;
        long[] drawn = new long[blocks * LONGS_PER_BLOCK];
        long ones = 0;
        for (int i = 0; i < drawn.length; i++) {
            drawn[i] = buffer.nextLong();
            ones += Long.bitCount(drawn[i]);
        }
        for (int b = 1; b < blocks; b++) {
            assertThat(Arrays.equals(
                            drawn,
                            (b - 1) * LONGS_PER_BLOCK,
                            b * LONGS_PER_BLOCK,
                            drawn,
                            b * LONGS_PER_BLOCK,
                            (b + 1) * LONGS_PER_BLOCK))
                    .as("block %d repeats the one before", b)
                    .isFalse();
        }
        // A block of zeros, a keystream restarted for every block or key, or a counter block reused each repeat
        // 64-bit values; 2^19 random longs repeat one with odds of 2^-26.
        long[] sorted = drawn.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            assertThat(sorted[i]).isNotEqualTo(sorted[i - 1]);
        }
        // Half the bits set, within 6 standard deviations (sqrt(n / 4) for n fair bits).
        long bits = (long) drawn.length * Long.SIZE;
        assertThat((double) ones).isCloseTo(bits / 2.0, offset(6 * Math.sqrt(bits / 4.0)));
    }

    @Test
    void twoDefaultBuffersDrawDifferentBits() {
        RandomBuffer a = new RandomBuffer(null);
        RandomBuffer b = new RandomBuffer(null);
        assertThat(a.nextLong()).isNotEqualTo(b.nextLong());
    }

    @Test
    void aCallersSourceIsTheOnlySourceOneCallPerBlock() {
        TestRandom source = TestRandom.constant(0x5A);
        RandomBuffer buffer = new RandomBuffer(source);
        for (int i = 0; i < LONGS_PER_BLOCK * 2; i++) {
            assertThat(buffer.nextInt()).isEqualTo(0x5A5A5A5A);
        }
        assertThat(source.nextBytesCalls).hasValue(1);
        buffer.nextInt();
        assertThat(source.nextBytesCalls).hasValue(2);
    }
}
