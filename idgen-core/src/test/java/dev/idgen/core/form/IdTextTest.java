package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

    @Test
    void formatsAndParsesTheEdgesOfEveryDigit() {
        List<Long> ids = new ArrayList<>(List.of(1L, 2L, Long.MAX_VALUE, Long.MAX_VALUE - 1));
        for (int bit = 1; bit < 63; bit++) {
            ids.addAll(List.of(1L << bit, (1L << bit) - 1, (1L << bit) + 1));
        }
        for (long power = 62; ; power *= 62) {
            ids.addAll(List.of(power, power - 1, power + 1));
            if (power > Long.MAX_VALUE / 62) {
                break;
            }
        }
        // Around 62^5 and 62^10, where the Base62 code splits an ID into chunks.
        long chunk = 62L * 62 * 62 * 62 * 62;
        for (long high : new long[] {1, 61, 62, 63, chunk - 1, chunk, chunk + 1, Long.MAX_VALUE / chunk}) {
            for (long low : new long[] {0, 1, 61, 62, chunk - 1}) {
                long id = high * chunk + low;
                if (id > 0) {
                    ids.add(id);
                }
            }
        }
        IdText[] texts = {
            IdText.crockford32(),
            IdText.base62(),
            IdText.crockford32().withPrefix("ord_"),
            IdText.base62().withPrefix("a234567890123456_")
        };
        for (IdText text : texts) {
            String alphabet = text.width() == 13 ? CROCKFORD : BASE62;
            for (long id : ids) {
                String written = text.format(id);
                assertThat(written).as("%s %d", text, id).startsWith(text.prefix());
                String digits = written.substring(text.prefix().length());
                assertThat(digits).hasSize(text.width());
                assertThat(valueOf(digits, alphabet)).as("%s %d", text, id).isEqualTo(BigInteger.valueOf(id));
                assertThat(text.parse(written)).as("%s %s", text, written).isEqualTo(id);
            }
        }
    }

    @Test
    void aBadCharacterIsFoundAtEveryPositionEvenWhenItsLowBitsLookLikeADigit() {
        // U+0130 and U+00B1 end in the bits of '0' and '1'; '\u007f' and '{' are ASCII but no digit.
        char[] bad = {'-', '_', ' ', '{', '\u007f', '\u00e9', '\u0130', '\u00b1', '\uffff', 'U', 'u'};
        for (IdText text : new IdText[] {
            IdText.crockford32(), IdText.base62(), IdText.base62().withPrefix("x_")
        }) {
            String valid = text.format(Long.MAX_VALUE / 3);
            for (int at = text.prefix().length(); at < valid.length(); at++) {
                for (char c : bad) {
                    if (text.width() == 11 && (c == 'U' || c == 'u')) {
                        continue;
                    }
                    String input = valid.substring(0, at) + c + valid.substring(at + 1);
                    assertInvalidId(text, input, "at position " + at + ",");
                }
            }
        }
    }

    @Test
    void aBadCharacterIsReportedBeforeAValueBeyondTheRange() {
        assertInvalidId(IdText.crockford32(), "Z0000000000-0", "position 11");
        assertInvalidId(IdText.base62(), "zzzzzzzzzz-", "position 10");
        assertInvalidId(IdText.base62(), "z-zzzzzzzzz", "position 1");
    }

    @Test
    void theLargestIdsAndTheFirstBeyondThem() {
        IdText crockford = IdText.crockford32();
        assertThat(crockford.parse("7ZZZZZZZZZZZZ")).isEqualTo(Long.MAX_VALUE);
        assertThat(crockford.parse("7zzzzzzzzzzzz")).isEqualTo(Long.MAX_VALUE);
        for (char first : "89ABCDEFGHJKMNPQRSTVWXYZabz".toCharArray()) {
            assertInvalidId(crockford, first + "000000000000", "beyond the largest 64-bit ID, 7ZZZZZZZZZZZZ");
        }
        IdText base62 = IdText.base62().withPrefix("usr_");
        assertThat(base62.parse("usr_AzL8n0Y58m7")).isEqualTo(Long.MAX_VALUE);
        for (String beyond : new String[] {"AzL8n0Y58m8", "AzL8n0Y58mz", "AzL8n0Y58n0", "AzL8n100000", "B0000000000"}) {
            assertInvalidId(base62, "usr_" + beyond, "beyond the largest 64-bit ID, usr_AzL8n0Y58m7");
        }
        assertInvalidId(base62, "usr_00000000000", "is zero");
        assertInvalidId(IdText.crockford32().withPrefix("ord_"), "ord_0000000000000", "is zero");
        assertInvalidId(IdText.crockford32(), "OOOOOOOOOOOOO", "is zero");
    }

    /**
     * Random strings of the right width, mostly valid characters with now and then one that is not: each parses as
     * an independent reading says, the ID or the first bad character, then the range, then zero.
     */
    @Test
    void randomStringsParseAsAnIndependentReadingSays() {
        SplittableRandom random = new SplittableRandom(11);
        String crockfordInput = CROCKFORD + CROCKFORD.toLowerCase(Locale.ROOT) + "IiLlOo";
        String extras = "-_ {U\u007f\u00e9\u0130\u00b1\u0100";
        for (int i = 0; i < 200_000; i++) {
            boolean crockford = i % 2 == 0;
            IdText text = crockford ? IdText.crockford32() : IdText.base62();
            String alphabet = crockford ? crockfordInput : BASE62;
            StringBuilder input = new StringBuilder();
            int firstDigits = random.nextInt(4);
            for (int k = 0; k < text.width(); k++) {
                String from = random.nextInt(40) == 0 ? extras : alphabet;
                // Leading zeros now and then, so that values below the maximum are common.
                input.append(k < firstDigits ? '0' : from.charAt(random.nextInt(from.length())));
            }
            String string = input.toString();
            int bad = -1;
            BigInteger value = BigInteger.ZERO;
            for (int k = 0; k < string.length() && bad < 0; k++) {
                char c = string.charAt(k);
                int digit = crockford ? crockfordDigit(c) : BASE62.indexOf(c);
                if (digit < 0) {
                    bad = k;
                } else {
                    value = value.multiply(BigInteger.valueOf(crockford ? 32 : 62))
                            .add(BigInteger.valueOf(digit));
                }
            }
            if (bad >= 0) {
                assertInvalidId(text, string, "at position " + bad + ",");
            } else if (value.bitLength() > 63) {
                assertInvalidId(text, string, "beyond the largest");
            } else if (value.signum() == 0) {
                assertInvalidId(text, string, "is zero");
            } else {
                assertThat(text.parse(string)).as(string).isEqualTo(value.longValueExact());
            }
        }
    }

    private static int crockfordDigit(char c) {
        char upper = c < 128 ? Character.toUpperCase(c) : c;
        if (upper == 'I' || upper == 'L') {
            return 1;
        }
        return upper == 'O' ? 0 : CROCKFORD.indexOf(upper);
    }
}
