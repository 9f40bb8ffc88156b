package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.ShortBufferException;
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
    void aCipherThatHoldsBytesBackIsDroppedForTheDrbgNotTrusted() throws Exception {
        Cipher holding = Cipher.getInstance("AES/CTR/NoPadding", new HoldingProvider());
        RandomBuffer buffer = new RandomBuffer(RandomBuffer.defaultSource(), holding);
        // Had the short writes been taken, each 4 KiB chunk would end in 16 bytes never written: zeros, repeated.
        long[] drawn = new long[2 * LONGS_PER_BLOCK];
        for (int i = 0; i < drawn.length; i++) {
            drawn[i] = buffer.nextLong();
        }
        long[] sorted = drawn.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            assertThat(sorted[i]).isNotEqualTo(sorted[i - 1]);
        }
    }

    /** AES/CTR that, as Cipher's contract allows, writes all but the last 16 bytes of each update. */
    private static final class HoldingProvider extends Provider {

        private static final long serialVersionUID = 1L;

        HoldingProvider() {
            super("IdgenTestHolding", "1", "AES/CTR that holds 16 bytes back");
            put("Cipher.AES/CTR/NoPadding", HoldingCipher.class.getName());
        }
    }

    /** Public with a public constructor: the JCA instantiates it by reflection. */
    public static final class HoldingCipher extends CipherSpi {

        private final Cipher aes;

        public HoldingCipher() throws Exception {
            aes = Cipher.getInstance("AES/CTR/NoPadding");
        }

        @Override
        protected void engineSetMode(String mode) {}

        @Override
        protected void engineSetPadding(String padding) {}

        @Override
        protected int engineGetBlockSize() {
            return 16;
        }

        @Override
        protected int engineGetOutputSize(int inputLen) {
            return inputLen;
        }

        @Override
        protected byte[] engineGetIV() {
            return aes.getIV();
        }

        @Override
        protected AlgorithmParameters engineGetParameters() {
            return aes.getParameters();
        }

        @Override
        protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
            aes.init(opmode, key, random);
        }

        @Override
        protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
                throws InvalidKeyException, InvalidAlgorithmParameterException {
            aes.init(opmode, key, params, random);
        }

        @Override
        protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
                throws InvalidKeyException, InvalidAlgorithmParameterException {
            aes.init(opmode, key, params, random);
        }

        @Override
        protected byte[] engineUpdate(byte[] input, int inputOffset, int inputLen) {
            return aes.update(input, inputOffset, inputLen);
        }

        @Override
        protected int engineUpdate(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
                throws ShortBufferException {
            return aes.update(input, inputOffset, inputLen - 16, output, outputOffset);
        }

        @Override
        protected byte[] engineDoFinal(byte[] input, int inputOffset, int inputLen)
                throws IllegalBlockSizeException, BadPaddingException {
            return aes.doFinal(input, inputOffset, inputLen);
        }

        @Override
        protected int engineDoFinal(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
                throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
            return aes.doFinal(input, inputOffset, inputLen, output, outputOffset);
        }
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
