package dev.idgen.core.form;

import dev.idgen.core.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * What the forms share: argument checks and strict parsing of hex strings.
 */
final class Forms {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private Forms() {}

    /**
     * @param generator the generator a form belongs to
     * @return the name
     * @throws InvalidArgumentException naming {@code generator} when it is null or blank
     */
    static String checkGenerator(String generator) {
        if (generator == null || generator.isBlank()) {
            throw new InvalidArgumentException(
                    "generator",
                    generator,
                    "generator must name the generator the form" + " belongs to, but was "
                            + (generator == null ? "null" : "'" + generator + "'"));
        }
        return generator;
    }

    /**
     * @param text the rejected ID, may be {@code null}
     * @param message what is wrong with it
     * @return the exception to throw, naming {@code id}
     */
    static InvalidArgumentException invalidId(String text, String message) {
        return new InvalidArgumentException("id", text, message);
    }

    /**
     * @return {@code text} quoted for a message, cut short when long, or {@code null}
     */
    static String shown(String text) {
        return text == null ? "null" : "'" + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + "'";
    }

    /**
     * Parses a UUID strictly: 36 characters, hyphens at 8, 13, 18 and 23 and hex digits (either case, as RFC 9562
     * asks of parsers) everywhere else. {@link UUID#fromString} accepts shorter groups and reads them differently.
     *
     * @param text the UUID's string
     * @param form the form, for the messages
     * @return the UUID
     * @throws InvalidArgumentException naming {@code id} when the text is not a UUID's canonical string
     */
    static UUID parseUuid(String text, String form) {
        if (text == null) {
            throw invalidId(null, "id must be a " + form + " string, but was null");
        }
        if (text.length() != 36) {
            throw invalidId(
                    text,
                    "id must be 36 characters (hex digits grouped 8-4-4-4-12 by hyphens), but " + shown(text) + " has "
                            + text.length());
        }
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    throw invalidId(
                            text,
                            "id must have a hyphen at position " + i + ", but " + shown(text) + " has '" + c + "'");
                }
                continue;
            }
            int digit = hexDigit(c, true);
            if (digit < 0) {
                throw badCharacter(text, i, "a hex digit");
            }
            if (i < 18) {
                msb = msb << 4 | digit;
            } else {
                lsb = lsb << 4 | digit;
            }
        }
        return new UUID(msb, lsb);
    }

    /**
     * Reads {@code text.substring(from, to)} as lowercase hex, at most 16 digits.
     *
     * @throws InvalidArgumentException naming {@code id} at the first character that is not a lowercase hex digit
     */
    static long parseLowerHex(String text, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = hexDigit(text.charAt(i), false);
            if (digit < 0) {
                throw badCharacter(text, i, "a lowercase hex digit");
            }
            value = value << 4 | digit;
        }
        return value;
    }

    /**
     * The forms' strings are ASCII, built as bytes: with compact strings the JDK keeps a copy of them as they are,
     * where a char[] would take twice the memory and be compressed char by char. This constructor is deprecated
     * because it cuts each char to its low byte, which is what Latin-1 is; {@code new String(chars, ISO_8859_1)}
     * does the same, but on JDK 17 through a constructor that decodes every charset, too large to inline: in three
     * throwaway JMH runs on a loaded machine, 13 characters took 14-19 ns this way and 18-24 ns that way.
     *
     * @param chars ASCII characters, not changed by the caller afterwards
     * @return them as a string
     */
    @SuppressWarnings("deprecation")
    static String latin1(byte[] chars) {
        return new String(chars, 0);
    }

    /**
     * Writes the low {@code 4 * digits} bits of {@code value} as lowercase hex into {@code chars} from {@code at},
     * for {@link #latin1}.
     */
    static void writeHex(byte[] chars, int at, long value, int digits) {
        for (int i = at + digits - 1; i >= at; i--) {
            chars[i] = HEX[(int) value & 0xF];
            value >>>= 4;
        }
    }

    static InvalidArgumentException badCharacter(String text, int index, String expected) {
        return invalidId(
                text,
                "id must have " + expected + " at position " + index + ", but " + shown(text) + " has '"
                        + text.charAt(index) + "'");
    }

    private static int hexDigit(char c, boolean upperCaseToo) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (upperCaseToo && c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
