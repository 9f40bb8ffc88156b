package dev.idgen.core.form;

import dev.idgen.core.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Positive 64-bit IDs as strings, and back.
 * <ul>
 * <li>{@link #crockford32()}: Crockford's Base32, 13 characters of {@code 0123456789ABCDEFGHJKMNPQRSTVWXYZ}, for IDs
 * read aloud or typed in: no I, L, O or U, and {@link #parse} also takes lowercase and reads I and L as 1, O as
 * 0.</li>
 * <li>{@link #base62()}: 11 characters of {@code 0-9A-Za-z}, the shortest of the three, case-sensitive.</li>
 * <li>{@link #decimal()}: {@link Long#toString(long)}, 1 to 19 digits.</li>
 * </ul>
 *
 * <p>Crockford Base32 and Base62 are zero-padded to a fixed width and their alphabets are in ASCII order, so that
 * {@link String#compareTo} (and a database's binary collation) orders the strings as their IDs: time-ordered IDs stay
 * time-ordered as text. Decimal strings are not padded; they order as their IDs only by length first.
 *
 * <p>{@link #withPrefix} adds a typed prefix, Stripe-style ({@code ord_01HV6BZJ5X3QK}): IDs of different types can no
 * longer be mixed up unnoticed, as {@link #parse} checks the prefix. A prefix does not change the order within one
 * prefix.
 *
 * <p>Immutable and thread-safe. {@link #format} allocates the string and a byte array to build it in; {@link #parse}
 * allocates a 13-character array for Crockford Base32 and nothing else but its exceptions.
 *
 * <p>Each encoding is a subclass of its own, sealed here, so that the JIT compiles a caller's {@code format} or
 * {@code parse} for the one encoding that call site sees (by its type profile) rather than one method for all three,
 * whose branch profile mixes every encoding the process has used: in JMH, parsing Base62 once in the same JVM made
 * the single-method Crockford parse about 4 ns slower (the JIT inlined both encodings into it, and the result grew too
 * big to inline into the caller).
 */
public abstract sealed class IdText {

    /** The longest prefix, its '_' included. */
    private static final int MAX_PREFIX_LENGTH = 17;

    private static final String CROCKFORD_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    private static final String BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    /*
     * The fixed-width encodings' tables, static so that the JIT sees their lengths as constants: a digit index masked
     * to the table's size then needs no bounds check.
     */
    private static final byte[] CROCKFORD_DIGITS = CROCKFORD_ALPHABET.getBytes(StandardCharsets.US_ASCII);

    private static final byte[] CROCKFORD_VALUES = crockfordValues();

    private static final byte[] BASE62_DIGITS = BASE62_ALPHABET.getBytes(StandardCharsets.US_ASCII);

    private static final byte[] BASE62_VALUES = values(BASE62_ALPHABET);

    /** 62^5, the largest power of 62 below 2^30: Base62 is written and read in chunks of 5 digits. */
    private static final int BASE62_CHUNK = 62 * 62 * 62 * 62 * 62;

    /** The largest first 6 Base62 digits of a long, and the largest last 5 digits after them. */
    private static final long BASE62_MAX_HIGH = Long.MAX_VALUE / BASE62_CHUNK;

    private static final long BASE62_MAX_LOW = Long.MAX_VALUE % BASE62_CHUNK;

    private static final IdText CROCKFORD32 = new Crockford32("");

    private static final IdText BASE62 = new Base62("");

    private static final IdText DECIMAL = new Decimal("");

    /** The longest decimal string of a positive long, {@code 9223372036854775807}. */
    private static final int MAX_DECIMAL_DIGITS = 19;

    private final String encoding;

    private final byte[] digits;

    /** Each ASCII character's digit value, or -1. */
    private final byte[] values;

    private final int radix;

    /** log2(radix) when the radix is a power of two (Crockford's 32), else 0: digits are then bit fields. */
    private final int shift;

    /** The largest value that can take one more digit without passing {@link Long#MAX_VALUE}, and that digit. */
    private final long lastSafeValue;

    private final int lastSafeDigit;

    /** The fixed width, or 0 for decimal. */
    private final int width;

    private final String prefix;

    /** The prefix's characters, all ASCII: copied into each formatted string. */
    private final byte[] prefixBytes;

    private IdText(String encoding, String alphabet, int width, byte[] values, String prefix) {
        this.encoding = encoding;
        this.digits = alphabet.getBytes(StandardCharsets.US_ASCII);
        this.radix = alphabet.length();
        this.shift = Integer.bitCount(radix) == 1 ? Integer.numberOfTrailingZeros(radix) : 0;
        this.lastSafeValue = Long.MAX_VALUE / radix;
        this.lastSafeDigit = (int) (Long.MAX_VALUE % radix);
        this.width = width;
        this.prefix = prefix;
        this.prefixBytes = prefix.getBytes(StandardCharsets.US_ASCII);
        this.values = values;
    }

    /**
     * @return Crockford's Base32, 13 characters wide
     */
    public static IdText crockford32() {
        return CROCKFORD32;
    }

    /**
     * @return Base62 in ASCII order ({@code 0-9A-Za-z}), 11 characters wide
     */
    public static IdText base62() {
        return BASE62;
    }

    /**
     * @return plain decimal, {@link Long#toString(long)}, not padded
     */
    public static IdText decimal() {
        return DECIMAL;
    }

    /**
     * This encoding with a typed prefix.
     *
     * @param prefix a lowercase letter, up to 15 lowercase letters or digits, then {@code _} (as the regular
     *        expression {@code [a-z][a-z0-9]{0,15}_}), for example {@code ord_}; or the empty string for none
     * @return a new {@code IdText} that writes the prefix before each ID and requires it when parsing
     * @throws InvalidArgumentException naming {@code prefix} when it breaks the rule
     */
    public IdText withPrefix(String prefix) {
        return withCheckedPrefix(checkPrefix(prefix));
    }

    /** This encoding with a prefix {@link #checkPrefix} accepted. */
    abstract IdText withCheckedPrefix(String prefix);

    /**
     * @param id a positive ID
     * @return the prefix, then the ID in this encoding
     * @throws InvalidArgumentException naming {@code id} when it is zero or negative
     */
    public abstract String format(long id);

    private static InvalidArgumentException notPositive(long id) {
        return new InvalidArgumentException("id", id, "id must be a positive 64-bit number, but was " + id);
    }

    /** Without a prefix the array has a constant size and needs no copy: the JIT drops every bounds check. */
    String formatCrockford(long id) {
        byte[] prefix = prefixBytes;
        if (prefix.length == 0) {
            byte[] chars = new byte[13];
            writeCrockford(chars, 0, id);
            return Forms.latin1(chars);
        }
        byte[] chars = Arrays.copyOf(prefix, prefix.length + 13);
        writeCrockford(chars, prefix.length, id);
        return Forms.latin1(chars);
    }

    /** Each digit is its own 5-bit field of the ID, read straight from it: no digit waits for another. */
    private static void writeCrockford(byte[] chars, int at, long id) {
        byte[] alphabet = CROCKFORD_DIGITS;
        chars[at] = alphabet[(int) (id >>> 60) & 31];
        chars[at + 1] = alphabet[(int) (id >>> 55) & 31];
        chars[at + 2] = alphabet[(int) (id >>> 50) & 31];
        chars[at + 3] = alphabet[(int) (id >>> 45) & 31];
        chars[at + 4] = alphabet[(int) (id >>> 40) & 31];
        chars[at + 5] = alphabet[(int) (id >>> 35) & 31];
        chars[at + 6] = alphabet[(int) (id >>> 30) & 31];
        chars[at + 7] = alphabet[(int) (id >>> 25) & 31];
        chars[at + 8] = alphabet[(int) (id >>> 20) & 31];
        chars[at + 9] = alphabet[(int) (id >>> 15) & 31];
        chars[at + 10] = alphabet[(int) (id >>> 10) & 31];
        chars[at + 11] = alphabet[(int) (id >>> 5) & 31];
        chars[at + 12] = alphabet[(int) id & 31];
    }

    String formatDecimal(long id) {
        int start = prefixBytes.length;
        byte[] chars = Arrays.copyOf(prefixBytes, start + decimalDigits(id));
        for (int i = chars.length - 1; i >= start; i--) {
            long quotient = id / 10;
            chars[i] = digits[(int) (id - quotient * 10)];
            id = quotient;
        }
        return Forms.latin1(chars);
    }

    String formatBase62(long id) {
        byte[] prefix = prefixBytes;
        if (prefix.length == 0) {
            byte[] chars = new byte[11];
            writeBase62(chars, 0, id);
            return Forms.latin1(chars);
        }
        byte[] chars = Arrays.copyOf(prefix, prefix.length + 11);
        writeBase62(chars, prefix.length, id);
        return Forms.latin1(chars);
    }

    /**
     * Eleven digits one division by 62 after another would be a chain of eleven dependent multiplications (the JIT's
     * form of a division by a constant). Two divisions by 62^5 split the ID into its top digit and two 5-digit
     * chunks that fit an int, whose digits are then worked out side by side.
     */
    private static void writeBase62(byte[] chars, int at, long id) {
        long high = id / BASE62_CHUNK;
        int low = (int) (id - high * BASE62_CHUNK);
        int top = (int) (high / BASE62_CHUNK);
        int middle = (int) (high - (long) top * BASE62_CHUNK);
        byte[] alphabet = BASE62_DIGITS;
        chars[at] = alphabet[top];
        for (int i = at + 5, j = at + 10; i > at; i--, j--) {
            int middleQuotient = middle / 62;
            int lowQuotient = low / 62;
            chars[i] = alphabet[middle - middleQuotient * 62];
            chars[j] = alphabet[low - lowQuotient * 62];
            middle = middleQuotient;
            low = lowQuotient;
        }
    }

    /**
     * Reads an ID back. Crockford Base32 also takes lowercase and the look-alikes I, L (for 1) and O (for 0); the
     * other encodings take only what {@link #format} writes.
     *
     * @param text the prefix, then the ID in this encoding
     * @return the positive ID
     * @throws InvalidArgumentException naming {@code id}, with a message saying what is wrong: a missing or wrong
     *         prefix, the wrong length, a character outside the alphabet, a value beyond {@link Long#MAX_VALUE}, or
     *         zero; never a wrong ID
     */
    public abstract long parse(String text);

    /** Every check, each with its own message: the path of decimal, of prefixes and of every error. */
    long parseOrExplain(String text) {
        if (text == null) {
            throw Forms.invalidId(null, "id must be " + describe() + ", but was null");
        }
        if (!text.startsWith(prefix)) {
            int separator = text.indexOf('_');
            throw Forms.invalidId(
                    text,
                    "id must start with the prefix '" + prefix + "', but " + Forms.shown(text)
                            + (separator > 0 && separator < MAX_PREFIX_LENGTH
                                    ? " has the prefix '" + text.substring(0, separator + 1) + "'"
                                    : " has none"));
        }
        int start = prefix.length();
        int length = text.length() - start;
        if (width != 0 ? length != width : (length < 1 || length > MAX_DECIMAL_DIGITS)) {
            throw Forms.invalidId(
                    text,
                    "id must be " + describe() + ", but " + Forms.shown(text) + " has " + length + " characters"
                            + (start > 0 ? " after the prefix" : ""));
        }
        if (shift != 0) {
            long value = parseCrockford(text, start);
            return value > 0 ? value : parseDigits(text, start);
        }
        if (radix == 62) {
            long value = parseBase62(text, start);
            return value > 0 ? value : parseDigits(text, start);
        }
        if (width == 0 && length > 1 && text.charAt(start) == '0') {
            // Decimal is not padded: "007" would be a second string for 7.
            throw Forms.invalidId(
                    text, "id must be " + describe() + " without leading zeros, but was " + Forms.shown(text));
        }
        return parseDigits(text, start);
    }

    /**
     * The 13 characters of a Crockford ID, without a branch per character: ORing every character and every table
     * value together leaves a bit at or above 2^7 set exactly when a character is not ASCII (so {@code c & 127}
     * read the wrong entry) or not in the table (-1).
     *
     * <p>The characters are copied out first, as TSID does (the same 48 bytes): {@code String.toCharArray} (or
     * {@code getChars} after a prefix) widens them in one intrinsic, where each {@code charAt} tests the string's
     * coder and the index. Measured in JMH
     * ({@code FormsBenchmark}): 16.9 ns, against 20.8 for 13 written-out {@code charAt} calls in the same JVM (16.6 in
     * a JVM that had run nothing else, so their cost depends on what else the process has done). A loop, not 13
     * statements: C2 unrolls it all the same, and it stays under the JIT's size limit for inlining a hot method.
     *
     * @return the ID, or 0 when the text is not one: {@link #parseDigits} then says why
     */
    private static long parseCrockford(String text, int at) {
        byte[] values = CROCKFORD_VALUES;
        long value = 0;
        int all = 0;
        char[] chars;
        if (at == 0) {
            chars = text.toCharArray();
        } else {
            chars = new char[13];
            text.getChars(at, at + 13, chars, 0);
        }
        for (int i = 0; i < 13; i++) {
            int c = chars[i];
            int digit = values[c & 127];
            all |= c | digit;
            value = value << 5 | digit;
        }
        // The first digit carries bits 64-60: above 7 the ID is beyond Long.MAX_VALUE, and its top bits were shifted
        // out of value.
        if ((all & ~127) != 0 || values[chars[0] & 127] > 7) {
            return 0;
        }
        return value;
    }

    /**
     * The 11 characters of a Base62 ID: the first 6 and the last 5 digits as two numbers worked out side by side,
     * then joined, so that no digit waits for all the ones before it. Invalid characters are found as in
     * {@link #parseCrockford}.
     *
     * @return the ID, or 0 when the text is not one: {@link #parseDigits} then says why
     */
    private static long parseBase62(String text, int at) {
        byte[] values = BASE62_VALUES;
        long high = 0;
        int low = 0;
        int all = 0;
        for (int i = at, j = at + 6; i < at + 5; i++, j++) {
            int c = text.charAt(i);
            int d = values[c & 127];
            int e = text.charAt(j);
            int f = values[e & 127];
            all |= c | d | e | f;
            high = high * 62 + d;
            low = low * 62 + f;
        }
        int c = text.charAt(at + 5);
        int d = values[c & 127];
        if (((all | c | d) & ~127) != 0) {
            return 0;
        }
        high = high * 62 + d;
        if (high > BASE62_MAX_HIGH || (high == BASE62_MAX_HIGH && low > BASE62_MAX_LOW)) {
            return 0;
        }
        return high * BASE62_CHUNK + low;
    }

    /** One digit after the other, with the checks in order: the first bad character, then the range, then zero. */
    private long parseDigits(String text, int start) {
        long value = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            int digit = c < 128 ? values[c] : -1;
            if (digit < 0) {
                throw Forms.badCharacter(text, i, "a character of " + encoding + " (" + alphabet() + ")");
            }
            // value * radix + digit > Long.MAX_VALUE, without overflowing and without a division per digit.
            if (value > lastSafeValue || (value == lastSafeValue && digit > lastSafeDigit)) {
                throw Forms.invalidId(
                        text,
                        "id " + Forms.shown(text) + " is beyond the largest 64-bit ID, " + format(Long.MAX_VALUE));
            }
            value = value * radix + digit;
        }
        if (value == 0) {
            throw Forms.invalidId(text, "id must be positive, but " + Forms.shown(text) + " is zero");
        }
        return value;
    }

    /**
     * @return {@code crockford32}, {@code base62} or {@code decimal}
     */
    public String encoding() {
        return encoding;
    }

    /**
     * @return the prefix, {@code _} included, or the empty string
     */
    public String prefix() {
        return prefix;
    }

    int prefixLength() {
        return prefixBytes.length;
    }

    /**
     * @return the number of characters after the prefix: 13 for Crockford Base32, 11 for Base62, and 0 for decimal,
     *         whose width varies (1 to 19)
     */
    public int width() {
        return width;
    }

    @Override
    public String toString() {
        return "IdText[" + encoding + (prefix.isEmpty() ? "" : ", prefix=" + prefix) + "]";
    }

    private String describe() {
        String body =
                width != 0 ? width + " characters of " + encoding : "1 to " + MAX_DECIMAL_DIGITS + " decimal digits";
        return prefix.isEmpty() ? body : "'" + prefix + "' and " + body;
    }

    private String alphabet() {
        return new String(digits, StandardCharsets.ISO_8859_1);
    }

    private static int decimalDigits(long id) {
        int count = 1;
        for (long bound = 10; count < MAX_DECIMAL_DIGITS && id >= bound; bound *= 10) {
            count++;
        }
        return count;
    }

    private static String checkPrefix(String prefix) {
        boolean valid = prefix != null;
        if (valid && !prefix.isEmpty()) {
            int last = prefix.length() - 1;
            valid = prefix.length() >= 2
                    && prefix.length() <= MAX_PREFIX_LENGTH
                    && prefix.charAt(last) == '_'
                    && prefix.charAt(0) >= 'a'
                    && prefix.charAt(0) <= 'z';
            for (int i = 1; valid && i < last; i++) {
                char c = prefix.charAt(i);
                valid = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            }
        }
        if (!valid) {
            throw new InvalidArgumentException(
                    "prefix",
                    prefix,
                    "prefix must be a lowercase letter, then up to 15"
                            + " lowercase letters or digits, then '_' (as [a-z][a-z0-9]{0,15}_, for example 'ord_'), or empty"
                            + " for none, but was " + Forms.shown(prefix));
        }
        return prefix;
    }

    /** Each ASCII character's digit value in the alphabet, or -1. */
    private static byte[] values(String alphabet) {
        byte[] values = new byte[128];
        Arrays.fill(values, (byte) -1);
        for (int i = 0; i < alphabet.length(); i++) {
            values[alphabet.charAt(i)] = (byte) i;
        }
        return values;
    }

    private static byte[] crockfordValues() {
        byte[] values = values(CROCKFORD_ALPHABET);
        for (int i = 0; i < CROCKFORD_ALPHABET.length(); i++) {
            values[Character.toLowerCase(CROCKFORD_ALPHABET.charAt(i))] = (byte) i;
        }
        // Crockford's look-alikes: read as the digit they are mistaken for.
        values['I'] = 1;
        values['i'] = 1;
        values['L'] = 1;
        values['l'] = 1;
        values['O'] = 0;
        values['o'] = 0;
        return values;
    }

    // Crockford32 and Base62 repeat each other's shape on purpose: a method they shared, calling an encoding's hook,
    // would be one call site for both encodings, and its type profile would mix them again.
    private static final class Crockford32 extends IdText {

        Crockford32(String prefix) {
            super("crockford32", CROCKFORD_ALPHABET, 13, CROCKFORD_VALUES, prefix);
        }

        @Override
        IdText withCheckedPrefix(String prefix) {
            return new Crockford32(prefix);
        }

        @Override
        public String format(long id) {
            if (id <= 0) {
                throw notPositive(id);
            }
            return formatCrockford(id);
        }

        @Override
        public long parse(String text) {
            // The valid ID first; anything else (a prefix given or not, the wrong length) is told apart by the full
            // path. Without a prefix this needs no String.startsWith, which the JIT does not inline.
            int start = prefixLength();
            if (text != null && text.length() == start + 13 && (start == 0 || text.startsWith(prefix()))) {
                long value = parseCrockford(text, start);
                if (value > 0) {
                    return value;
                }
            }
            return parseOrExplain(text);
        }
    }

    private static final class Base62 extends IdText {

        Base62(String prefix) {
            super("base62", BASE62_ALPHABET, 11, BASE62_VALUES, prefix);
        }

        @Override
        IdText withCheckedPrefix(String prefix) {
            return new Base62(prefix);
        }

        @Override
        public String format(long id) {
            if (id <= 0) {
                throw notPositive(id);
            }
            return formatBase62(id);
        }

        @Override
        public long parse(String text) {
            int start = prefixLength();
            if (text != null && text.length() == start + 11 && (start == 0 || text.startsWith(prefix()))) {
                long value = parseBase62(text, start);
                if (value > 0) {
                    return value;
                }
            }
            return parseOrExplain(text);
        }
    }

    private static final class Decimal extends IdText {

        Decimal(String prefix) {
            super("decimal", "0123456789", 0, values("0123456789"), prefix);
        }

        @Override
        IdText withCheckedPrefix(String prefix) {
            return new Decimal(prefix);
        }

        @Override
        public String format(long id) {
            if (id <= 0) {
                throw notPositive(id);
            }
            return formatDecimal(id);
        }

        @Override
        public long parse(String text) {
            return parseOrExplain(text);
        }
    }
}
