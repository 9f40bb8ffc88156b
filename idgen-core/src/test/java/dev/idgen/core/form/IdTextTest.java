package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IdTextTest {

    private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    /** A positive long of any magnitude: random bits shifted down by a random amount, so every width is common. */
    private static long randomId(SplittableRandom random) {
        return Math.max(1, random.nextLong() >>> (1 + random.nextInt(63)));
    }

    /** Reads a string in the given alphabet with BigInteger, independently of IdText. */
    private static BigInteger valueOf(String text, String alphabet) {
        BigInteger value = BigInteger.ZERO;
        for (char c : text.toCharArray()) {
            value = value.multiply(BigInteger.valueOf(alphabet.length())).add(BigInteger.valueOf(alphabet.indexOf(c)));
        }
        return value;
    }

    private static void assertInvalidId(IdText text, String input, String messagePart) {
        assertThatThrownBy(() -> text.parse(input)).isInstanceOfSatisfying(InvalidArgumentException.class, e -> {
            assertThat(e.argument()).isEqualTo("id");
            assertThat(e.getMessage()).contains(messagePart);
        });
    }

    @Test
    void crockford32WritesThirteenZeroPaddedCharacters() {
        IdText text = IdText.crockford32();
        assertThat(text.format(1)).isEqualTo("0000000000001");
        assertThat(text.format(31)).isEqualTo("000000000000Z");
        assertThat(text.format(32)).isEqualTo("0000000000010");
        assertThat(text.format(Long.MAX_VALUE)).isEqualTo("7ZZZZZZZZZZZZ");
        assertThat(text.encoding()).isEqualTo("crockford32");
        assertThat(text.width()).isEqualTo(13);
        assertThat(text.prefix()).isEmpty();
    }

    @Test
    void base62WritesElevenZeroPaddedCharactersInAsciiOrder() {
        IdText text = IdText.base62();
        assertThat(text.format(1)).isEqualTo("00000000001");
        assertThat(text.format(61)).isEqualTo("0000000000z");
        assertThat(text.format(62)).isEqualTo("00000000010");
        assertThat(text.format(Long.MAX_VALUE)).isEqualTo("AzL8n0Y58m7");
        assertThat(text.encoding()).isEqualTo("base62");
        assertThat(text.width()).isEqualTo(11);
    }

    @Test
    void decimalIsLongToString() {
        IdText text = IdText.decimal();
        assertThat(text.format(7)).isEqualTo("7");
        assertThat(text.format(1_000_000_000_000_000_000L)).isEqualTo("1000000000000000000");
        assertThat(text.format(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
        assertThat(text.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(text.encoding()).isEqualTo("decimal");
        assertThat(text.width()).isZero();
    }

    @Test
    void roundTripsAndAgreesWithAnIndependentReading() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 100_000; i++) {
            long id = randomId(random);
            String crockford = IdText.crockford32().format(id);
            String base62 = IdText.base62().format(id);
            String decimal = IdText.decimal().format(id);
            assertThat(valueOf(crockford, CROCKFORD)).isEqualTo(BigInteger.valueOf(id));
            assertThat(valueOf(base62, BASE62)).isEqualTo(BigInteger.valueOf(id));
            assertThat(decimal).isEqualTo(Long.toString(id));
            assertThat(IdText.crockford32().parse(crockford)).isEqualTo(id);
            assertThat(IdText.base62().parse(base62)).isEqualTo(id);
            assertThat(IdText.decimal().parse(decimal)).isEqualTo(id);
        }
    }

    @Test
    void stringOrderIsNumericOrderOnOneHundredThousandRandomPairs() {
        SplittableRandom random = new SplittableRandom(7);
        IdText[] texts = {
            IdText.crockford32(),
            IdText.base62(),
            IdText.crockford32().withPrefix("ord_"),
            IdText.base62().withPrefix("usr_")
        };
        for (IdText text : texts) {
            for (int i = 0; i < 100_000; i++) {
                long a = randomId(random);
                long b = i % 10 == 0 ? a + random.nextInt(-3, 4) : randomId(random);
                if (b <= 0) {
                    b = 1;
                }
                int byString = Integer.signum(text.format(a).compareTo(text.format(b)));
                assertThat(byString).as("%s: %d vs %d", text, a, b).isEqualTo(Long.compare(a, b));
            }
        }
    }

    @Test
    void crockfordParseTakesLowercaseAndLookAlikes() {
        IdText text = IdText.crockford32();
        long id = text.parse("01HV6BZJ5X3QK");
        assertThat(text.parse("01hv6bzj5x3qk")).isEqualTo(id);
        assertThat(text.parse("0IHV6BZJ5X3QK")).isEqualTo(id);
        assertThat(text.parse("0lhv6bzj5x3qk")).isEqualTo(id);
        assertThat(text.parse("o1HV6BZJ5X3QK")).isEqualTo(id);
        assertThat(text.parse("OOOOOOOOOOOOL")).isEqualTo(1);
        assertInvalidId(text, "01HV6BZJ5X3QU", "position 12");
    }

    @Test
    void parseSaysWhatIsWrong() {
        IdText crockford = IdText.crockford32();
        assertInvalidId(crockford, "000000000001", "has 12 characters");
        assertInvalidId(crockford, "00000000000001", "has 14 characters");
        assertInvalidId(crockford, "", "has 0 characters");
        assertInvalidId(crockford, "00000000000-1", "position 11");
        assertInvalidId(crockford, "00000000000\u00e91", "position 11");
        assertInvalidId(crockford, "8000000000000", "beyond the largest 64-bit ID, 7ZZZZZZZZZZZZ");
        assertInvalidId(crockford, "ZZZZZZZZZZZZZ", "beyond the largest");
        assertInvalidId(crockford, "0000000000000", "is zero");
        assertInvalidId(crockford, null, "was null");

        IdText base62 = IdText.base62();
        assertThat(base62.parse("AzL8n0Y58m7")).isEqualTo(Long.MAX_VALUE);
        assertInvalidId(base62, "AzL8n0Y58m8", "beyond the largest 64-bit ID, AzL8n0Y58m7");
        assertInvalidId(base62, "zzzzzzzzzzz", "beyond the largest");
        assertInvalidId(base62, "0000000000_", "position 10");
        assertInvalidId(base62, "00000000000", "is zero");
        assertInvalidId(base62, "0000000001", "has 10 characters");

        IdText decimal = IdText.decimal();
        assertInvalidId(decimal, "9223372036854775808", "beyond the largest");
        assertInvalidId(decimal, "10000000000000000000", "has 20 characters");
        assertInvalidId(decimal, "007", "leading zeros");
        assertInvalidId(decimal, "0", "is zero");
        assertInvalidId(decimal, "+7", "position 0");
        assertInvalidId(decimal, "-7", "position 0");
        assertInvalidId(decimal, "", "has 0 characters");
    }

    @Test
    void formatTakesOnlyPositiveIds() {
        for (IdText text : new IdText[] {IdText.crockford32(), IdText.base62(), IdText.decimal()}) {
            for (long id : new long[] {0, -1, Long.MIN_VALUE}) {
                assertThatThrownBy(() -> text.format(id))
                        .isInstanceOfSatisfying(
                                InvalidArgumentException.class,
                                e -> assertThat(e.argument()).isEqualTo("id"))
                        .hasMessageContaining("positive");
            }
        }
    }

    @Test
    void aPrefixIsWrittenAndChecked() {
        IdText orders = IdText.crockford32().withPrefix("ord_");
        assertThat(orders.prefix()).isEqualTo("ord_");
        assertThat(orders.width()).isEqualTo(13);
        assertThat(orders.format(32)).isEqualTo("ord_0000000000010");
        assertThat(orders.parse("ord_0000000000010")).isEqualTo(32);
        assertInvalidId(orders, "usr_0000000000010", "has the prefix 'usr_'");
        assertInvalidId(orders, "0000000000010", "has none");
        assertInvalidId(orders, "ord0000000000010", "must start with the prefix 'ord_'");
        assertInvalidId(orders, "ord_000000000010", "has 12 characters after the prefix");
        assertThat(IdText.crockford32().parse("0000000000010"))
                .as("the unprefixed text is unchanged")
                .isEqualTo(32);
        assertInvalidId(IdText.crockford32(), "ord_0000000000010", "has 17 characters");

        IdText decimal = IdText.decimal().withPrefix("inv2_");
        assertThat(decimal.format(42)).isEqualTo("inv2_42");
        assertThat(decimal.parse("inv2_42")).isEqualTo(42);
        assertInvalidId(decimal, "inv2_042", "leading zeros");
        assertThat(IdText.base62().withPrefix("a_").format(1)).isEqualTo("a_00000000001");
        assertThat(orders.withPrefix("").format(1)).isEqualTo("0000000000001");
    }

    @Test
    void prefixesFollowTheRule() {
        assertThat(IdText.base62().withPrefix("a234567890123456_").prefix()).hasSize(17);
        for (String bad :
                new String[] {"ord", "Ord_", "1rd_", "_", "or-d_", "ord__", "a2345678901234567_", "\u00f6rd_", null}) {
            assertThatThrownBy(() -> IdText.base62().withPrefix(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("prefix"))
                    .hasMessageContaining("[a-z][a-z0-9]{0,15}_");
        }
    }
}
