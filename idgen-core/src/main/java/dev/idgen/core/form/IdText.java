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
 * allocates nothing but its exceptions.
 */
public final class IdText {

    /** The longest prefix, its '_' included. */
    private static final int MAX_PREFIX_LENGTH = 17;

    private static final String CROCKFORD_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    private static final IdText CROCKFORD32 = new IdText("crockford32", CROCKFORD_ALPHABET, 13, crockfordValues(), "");

    private static final IdText BASE62 =
            new IdText("base62", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 11, null, "");

    private static final IdText DECIMAL = new IdText("decimal", "0123456789", 0, null, "");

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

    private IdText(String encoding, String alphabet, int width, byte[] values, String prefix) {
        this.encoding = encoding;
        this.digits = alphabet.getBytes(StandardCharsets.US_ASCII);
        this.radix = alphabet.length();
        this.shift = Integer.bitCount(radix) == 1 ? Integer.numberOfTrailingZeros(radix) : 0;
        this.lastSafeValue = Long.MAX_VALUE / radix;
        this.lastSafeDigit = (int) (Long.MAX_VALUE % radix);
        this.width = width;
        this.prefix = prefix;
        if (values == null) {
            values = new byte[128];
            Arrays.fill(values, (byte) -1);
            for (int i = 0; i < alphabet.length(); i++) {
                values[alphabet.charAt(i)] = (byte) i;
            }
        }
        this.values = values;
    }

    private IdText(IdText encoding, String prefix) {
        this.encoding = encoding.encoding;
        this.digits = encoding.digits;
        this.values = encoding.values;
        this.radix = encoding.radix;
        this.shift = encoding.shift;
        this.lastSafeValue = encoding.lastSafeValue;
        this.lastSafeDigit = encoding.lastSafeDigit;
        this.width = encoding.width;
        this.prefix = prefix;
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
        return new IdText(this, checkPrefix(prefix));
    }

    /**
     * @param id a positive ID
     * @return the prefix, then the ID in this encoding
     * @throws InvalidArgumentException naming {@code id} when it is zero or negative
     */
    public String format(long id) {
        if (id <= 0) {
            throw new InvalidArgumentException("id", id, "id must be a positive 64-bit number, but was " + id);
        }
        int start = prefix.length();
        byte[] chars = new byte[start + (width != 0 ? width : decimalDigits(id))];
        for (int i = 0; i < start; i++) {
            chars[i] = (byte) prefix.charAt(i);
        }
        // Fills from the last digit; the leading places left over get digit 0, the padding. A division by a radix
        // read from a field is a hardware divide per digit; the power-of-two radix becomes shifts and Base62's a
        // division by a constant, which the JIT turns into a multiplication.
        int i = chars.length - 1;
        if (shift != 0) {
            // Each digit is read from the ID on its own, not from the previous step's result, so the CPU can work
            // on several at once.
            int mask = radix - 1;
            for (int k = start, bits = (width - 1) * shift; k < chars.length; k++, bits -= shift) {
                chars[k] = digits[(int) (id >>> bits) & mask];
            }
        } else if (radix == 62) {
            for (; i >= start; i--) {
                long quotient = id / 62;
                chars[i] = digits[(int) (id - quotient * 62)];
                id = quotient;
            }
        } else {
            for (; i >= start; i--) {
                long quotient = id / radix;
                chars[i] = digits[(int) (id - quotient * radix)];
                id = quotient;
            }
        }
        return new String(chars, StandardCharsets.ISO_8859_1);
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
    public long parse(String text) {
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
        if (width == 0 && length > 1 && text.charAt(start) == '0') {
            // Decimal is not padded: "007" would be a second string for 7.
            throw Forms.invalidId(
                    text, "id must be " + describe() + " without leading zeros, but was " + Forms.shown(text));
        }
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

    private static byte[] crockfordValues() {
        byte[] values = new byte[128];
        Arrays.fill(values, (byte) -1);
        for (int i = 0; i < CROCKFORD_ALPHABET.length(); i++) {
            values[CROCKFORD_ALPHABET.charAt(i)] = (byte) i;
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
}
