package dev.idgen.forms.publicid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.fpe.FPEFF1Engine;
import org.bouncycastle.crypto.params.FPEParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.util.encoders.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PublicIdCodecTest {

    private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private static final byte[] KEY_1 = Hex.decode("000102030405060708090a0b0c0d0e0f");

    private static final byte[] KEY_2 = Hex.decode("f0e0d0c0b0a090807060504030201000f0e0d0c0b0a09080706050403020100f");

    private static PublicIdCodec codec(String tweak) {
        return PublicIdCodec.builder().tweak(tweak).key(1, KEY_1).build();
    }

    /** The 96-bit number in a public ID's 17 digits, read independently of the codec. */
    private static BigInteger digits(String text) {
        BigInteger value = BigInteger.ZERO;
        for (int i = 1; i < text.length(); i++) {
            value = value.multiply(BigInteger.valueOf(62)).add(BigInteger.valueOf(ALPHABET.indexOf(text.charAt(i))));
        }
        return value;
    }

    /** The same number as three 32-bit limbs, most significant first: faster than BigInteger for a million IDs. */
    private static long[] limbs(String text) {
        long[] limbs = new long[3];
        for (int i = 1; i < text.length(); i++) {
            long carry = ALPHABET.indexOf(text.charAt(i));
            for (int limb = 2; limb >= 0; limb--) {
                long current = limbs[limb] * 62 + carry;
                limbs[limb] = current & 0xFFFF_FFFFL;
                carry = current >>> 32;
            }
            if (carry != 0) {
                throw new AssertionError("above 96 bits: " + text);
            }
        }
        return limbs;
    }

    @Test
    void bouncyCastlesEngineIsNistFf1() {
        // NIST SP 800-38G FF1 samples 1 and 2 (AES-128, radix 10).
        byte[] key = Hex.decode("2B7E151628AED2A6ABF7158809CF4F3C");
        byte[] plain = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        FPEFF1Engine engine = new FPEFF1Engine(AESEngine.newInstance());
        byte[] out = new byte[10];
        engine.init(true, new FPEParameters(new KeyParameter(key), 10, new byte[0]));
        engine.processBlock(plain, 0, 10, out, 0);
        assertThat(out).containsExactly(2, 4, 3, 3, 4, 7, 7, 4, 8, 4);
        engine.init(true, new FPEParameters(new KeyParameter(key), 10, Hex.decode("39383736353433323130")));
        engine.processBlock(plain, 0, 10, out, 0);
        assertThat(out).containsExactly(6, 1, 2, 4, 2, 0, 0, 7, 7, 3);
    }

    @Test
    void oneMillionSequentialIdsGiveDistinctPublicIdsThatRoundTripWithNoPatternBetweenNeighbours() {
        PublicIdCodec codec = codec("orders");
        int count = 1_000_000;
        long start = System.nanoTime();
        String[] texts = IntStream.rangeClosed(1, count)
                .parallel()
                .mapToObj(codec::encode)
                .toArray(String[]::new);
        long encoded = System.nanoTime();
        long wrong = IntStream.rangeClosed(1, count)
                .parallel()
                .filter(id -> codec.decode(texts[id - 1]) != id)
                .count();
        long decoded = System.nanoTime();
        System.out.printf(
                "Public IDs: %,d encoded in %d ms, decoded in %d ms (%d threads)%n",
                count,
                (encoded - start) / 1_000_000,
                (decoded - encoded) / 1_000_000,
                Runtime.getRuntime().availableProcessors());
        assertThat(wrong).isZero();

        Set<String> distinct = new HashSet<>(count * 2);
        for (String text : texts) {
            assertThat(text).hasSize(18).startsWith("1").matches("[0-9A-Za-z]{18}");
            distinct.add(text);
        }
        assertThat(distinct).hasSize(count);

        // Each of the 96 bits of the encrypted block flips between neighbouring IDs half of the time, as it would
        // between unrelated random blocks (standard deviation 0.05% over a million pairs; 2% is 40 of them).
        long[] flips = new long[96];
        long[] previous = limbs(texts[0]);
        for (int i = 1; i < count; i++) {
            long[] current = limbs(texts[i]);
            for (int limb = 0; limb < 3; limb++) {
                long changed = previous[limb] ^ current[limb];
                for (int bit = 0; bit < 32; bit++) {
                    flips[limb * 32 + bit] += (changed >>> bit) & 1;
                }
            }
            previous = current;
        }
        long[] last = limbs(texts[count - 1]);
        assertThat(BigInteger.valueOf(last[0])
                        .shiftLeft(64)
                        .or(BigInteger.valueOf(last[1]).shiftLeft(32))
                        .or(BigInteger.valueOf(last[2])))
                .isEqualTo(digits(texts[count - 1]));
        double min = 1;
        double max = 0;
        for (int bit = 0; bit < 96; bit++) {
            double fraction = flips[bit] / (double) (count - 1);
            min = Math.min(min, fraction);
            max = Math.max(max, fraction);
            assertThat(fraction).as("bit %d", bit).isBetween(0.48, 0.52);
        }
        System.out.printf("Public IDs: bit flip rate between neighbours %.4f..%.4f%n", min, max);
    }

    @Test
    void encodesAndDecodesEveryPositiveIdAtTheEdges() {
        PublicIdCodec codec = codec("orders");
        for (long id : new long[] {1, 2, 255, 256, 1L << 32, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            assertThat(codec.decode(codec.encode(id))).isEqualTo(id);
        }
        for (long bad : new long[] {0, -1, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> codec.encode(bad))
                    .isInstanceOf(InvalidArgumentException.class)
                    .extracting("argument")
                    .isEqualTo("id");
        }
    }

    @Test
    void isStableForAGivenKeyAndTweak() {
        // Pins the format: version digit, FF1 of (id, 4 zero bytes) under tweak "orders" 0x00 version, 17 digits.
        PublicIdCodec codec = codec("orders");
        String text = codec.encode(42);
        assertThat(codec("orders").encode(42)).isEqualTo(text);
        FPEFF1Engine engine = new FPEFF1Engine(AESEngine.newInstance());
        engine.init(
                true, new FPEParameters(new KeyParameter(KEY_1), 256, new byte[] {'o', 'r', 'd', 'e', 'r', 's', 0, 1}));
        byte[] block = {0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0, 0};
        engine.processBlock(block, 0, 12, block, 0);
        assertThat(digits(text)).isEqualTo(new BigInteger(1, block));
    }

    @Test
    void idsUnderAnOldKeyVersionStillDecodeAfterANewOneBecomesCurrent() {
        PublicIdCodec before =
                PublicIdCodec.builder().tweak("orders").key(1, KEY_1).build();
        String old = before.encode(1234);
        assertThat(before.versionOf(old)).isEqualTo(1);

        PublicIdCodec after = PublicIdCodec.builder()
                .tweak("orders")
                .key(1, KEY_1)
                .key(2, KEY_2)
                .build();
        assertThat(after.currentVersion()).isEqualTo(2);
        assertThat(after.versions()).containsExactly(1, 2);
        assertThat(after.decode(old)).isEqualTo(1234);
        String fresh = after.encode(1234);
        assertThat(fresh).startsWith("2").isNotEqualTo(old);
        assertThat(after.versionOf(fresh)).isEqualTo(2);
        assertThat(after.decode(fresh)).isEqualTo(1234);

        assertThatThrownBy(() -> before.decode(fresh))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("key version 2, which is not configured")
                .extracting("argument")
                .isEqualTo("id");
        PublicIdCodec pinned = PublicIdCodec.builder()
                .tweak("orders")
                .key(1, KEY_1)
                .key(2, KEY_2)
                .currentVersion(1)
                .build();
        assertThat(pinned.encode(1234)).isEqualTo(old);
    }

    @Test
    void theSameKeyUnderAnotherVersionGivesUnrelatedIds() {
        // The version is in the tweak, so relabelling an ID's version cannot carry it across.
        PublicIdCodec codec = PublicIdCodec.builder()
                .tweak("orders")
                .key(1, KEY_1)
                .key(2, KEY_1)
                .currentVersion(1)
                .build();
        String text = codec.encode(99);
        assertThatThrownBy(() -> codec.decode("2" + text.substring(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("integrity check");
    }

    @Test
    void everySingleCharacterChangeIsRejected() {
        PublicIdCodec codec = PublicIdCodec.builder()
                .tweak("orders")
                .key(1, KEY_1)
                .key(2, KEY_2)
                .currentVersion(1)
                .build();
        int accepted = 0;
        int tried = 0;
        for (long id = 1; id <= 100_000_000; id += 1_000_003) {
            String text = codec.encode(id);
            for (int position = 0; position < text.length(); position++) {
                for (int c = 0; c < ALPHABET.length(); c++) {
                    char replacement = ALPHABET.charAt(c);
                    if (replacement == text.charAt(position)) {
                        continue;
                    }
                    String tampered = text.substring(0, position) + replacement + text.substring(position + 1);
                    tried++;
                    try {
                        codec.decode(tampered);
                        accepted++;
                    } catch (InvalidArgumentException e) {
                        assertThat(e.argument()).isEqualTo("id");
                        assertThat(e.getMessage()).containsAnyOf("integrity check", "not configured");
                    }
                }
            }
        }
        assertThat(tried).isEqualTo(100 * 18 * 61);
        assertThat(accepted).isZero();
    }

    @Test
    void truncatedPaddedAndMalformedTextIsRejected() {
        PublicIdCodec codec = codec("orders");
        String text = codec.encode(777);
        for (int length = 0; length < 18; length++) {
            String truncated = text.substring(0, length);
            assertThatThrownBy(() -> codec.decode(truncated))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("must be 18 characters")
                    .extracting("argument")
                    .isEqualTo("id");
        }
        assertThatThrownBy(() -> codec.decode(text + "0")).hasMessageContaining("must be 18 characters");
        assertThatThrownBy(() -> codec.decode(null))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("id");
        for (String bad : new String[] {
            text.substring(0, 17) + "-",
            "1" + text.substring(1, 17) + "=",
            text.substring(0, 5) + "\u00e9" + text.substring(6),
            " " + text.substring(1)
        }) {
            assertThatThrownBy(() -> codec.decode(bad))
                    .as(bad)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("not a Base62 character")
                    .extracting("argument")
                    .isEqualTo("id");
        }
        // 17 digits can spell numbers above 2^96 - 1, which no encryption gives.
        assertThatThrownBy(() -> codec.decode("1" + "z".repeat(17)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("above the largest public ID");
    }

    @Test
    void unknownKeyVersionsAreRejected() {
        PublicIdCodec codec = codec("orders");
        String text = codec.encode(5);
        for (char version : new char[] {'0', '2', 'z'}) {
            String other = version + text.substring(1);
            assertThatThrownBy(() -> codec.decode(other))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("not configured")
                    .extracting("argument")
                    .isEqualTo("id");
        }
        assertThat(codec.versionOf('z' + text.substring(1))).isEqualTo(61);
    }

    @Test
    void anotherGeneratorsPublicIdsDoNotDecode() {
        String orders = codec("orders").encode(42);
        assertThat(codec("invoices").encode(42)).isNotEqualTo(orders);
        assertThatThrownBy(() -> codec("invoices").decode(orders))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("integrity check")
                .extracting("argument")
                .isEqualTo("id");
        PublicIdCodec otherKey =
                PublicIdCodec.builder().tweak("orders").key(1, KEY_2).build();
        assertThatThrownBy(() -> otherKey.decode(orders))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("integrity check");
    }

    @Test
    void encodesAndDecodesFromManyThreadsAtOnce() throws Exception {
        PublicIdCodec codec = codec("orders");
        ExecutorService executor = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                long offset = t * 1_000_000L;
                futures.add(executor.submit(() -> {
                    int wrong = 0;
                    for (long id = offset + 1; id <= offset + 10_000; id++) {
                        if (codec.decode(codec.encode(id)) != id) {
                            wrong++;
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> future : futures) {
                assertThat(future.get()).isZero();
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void parsesKeysInStandardOrUrlSafeBase64() {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (i * 37 + 251); // gives '+' and '/' in standard Base64
        }
        String standard = Base64.getEncoder().encodeToString(key);
        String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(key);
        assertThat(standard).containsAnyOf("+", "/");
        assertThat(PublicIdCodec.parseKey(3, standard)).isEqualTo(key);
        assertThat(PublicIdCodec.parseKey(3, "  " + urlSafe + "\n")).isEqualTo(key);
        assertThat(PublicIdCodec.parseKey(1, Base64.getEncoder().encodeToString(KEY_1)))
                .isEqualTo(KEY_1);
    }

    @Test
    void rejectsBadKeyTextNamingTheVersionButNotTheKey() {
        String secretish = "not*base64*at*all";
        assertThatThrownBy(() -> PublicIdCodec.parseKey(4, secretish))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("key version 4")
                .hasMessageNotContaining("not*base64")
                .extracting("argument")
                .isEqualTo("key");
        assertThatThrownBy(() -> PublicIdCodec.parseKey(4, Base64.getEncoder().encodeToString(new byte[20])))
                .hasMessageContaining("key version 4 must be 16, 24 or 32 bytes")
                .hasMessageContaining("has 20");
        assertThatThrownBy(() -> PublicIdCodec.parseKey(5, " ")).hasMessageContaining("key version 5 is empty");
        assertThatThrownBy(() -> PublicIdCodec.parseKey(6, "ab+c-d__")).hasMessageContaining("key version 6");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 8, 15, 17, 31, 33, 64})
    void rejectsKeysThatAreNotAesKeyLengths(int length) {
        assertThatThrownBy(() -> PublicIdCodec.builder()
                        .tweak("orders")
                        .key(7, new byte[length])
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("key version 7")
                .extracting("argument")
                .isEqualTo("key");
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> PublicIdCodec.builder().key(1, KEY_1).build())
                .extracting("argument")
                .isEqualTo("tweak");
        assertThatThrownBy(() -> PublicIdCodec.builder().tweak("").key(1, KEY_1).build())
                .extracting("argument")
                .isEqualTo("tweak");
        assertThatThrownBy(() -> PublicIdCodec.builder().tweak("orders").build())
                .extracting("argument")
                .isEqualTo("key");
        assertThatThrownBy(() ->
                        PublicIdCodec.builder().tweak("orders").key(62, KEY_1).build())
                .extracting("argument")
                .isEqualTo("keyVersion");
        assertThatThrownBy(() ->
                        PublicIdCodec.builder().tweak("orders").key(-1, KEY_1).build())
                .extracting("argument")
                .isEqualTo("keyVersion");
        assertThatThrownBy(() -> PublicIdCodec.builder()
                        .tweak("orders")
                        .key(1, KEY_1)
                        .key(1, KEY_2)
                        .build())
                .hasMessageContaining("set twice")
                .extracting("argument")
                .isEqualTo("keyVersion");
        assertThatThrownBy(() -> PublicIdCodec.builder()
                        .tweak("orders")
                        .key(1, KEY_1)
                        .currentVersion(2)
                        .build())
                .hasMessageContaining("configured key version (1)")
                .extracting("argument")
                .isEqualTo("currentVersion");
        assertThatThrownBy(() ->
                        PublicIdCodec.builder().tweak("orders").key(1, null).build())
                .extracting("argument")
                .isEqualTo("key");
    }

    @Test
    void neverShowsItsKeys() {
        PublicIdCodec codec = PublicIdCodec.builder()
                .tweak("orders")
                .key(1, KEY_1)
                .key(2, KEY_2)
                .build();
        assertThat(codec.toString()).isEqualTo("PublicIdCodec[tweak=orders, versions=[1, 2], currentVersion=2]");
    }

    @Test
    void copiesTheKeyItIsGiven() {
        byte[] key = KEY_1.clone();
        PublicIdCodec.Builder builder = PublicIdCodec.builder().tweak("orders").key(1, key);
        key[0] ^= 1;
        assertThat(builder.build().encode(42)).isEqualTo(codec("orders").encode(42));
    }
}
