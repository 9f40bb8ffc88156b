package dev.idgen.spring.jackson;

import dev.idgen.spring.IdgenId;

/**
 * What the Jackson 3 and Jackson 2 modules share: which members they take over, and the message for a bad ID.
 */
final class IdgenIdJson {

    private IdgenIdJson() {}

    /**
     * @param annotation the member's {@link IdgenId}, or null
     * @param type the type the member's value has (a field's, a getter's return, a setter's or a constructor
     *        parameter's)
     * @return whether the member is an ID written as a string: a {@code long} or {@code Long} marked with
     *         {@link IdgenId}. A {@code String} ID is already a string, and other types are not the annotation's.
     */
    static boolean isLongId(IdgenId annotation, Class<?> type) {
        return annotation != null && (type == long.class || type == Long.class);
    }

    /**
     * @param property the JSON property being read, or null at the top level
     * @param text the string that is not an ID
     */
    static String notAnId(String property, String text) {
        String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return (property == null ? "an ID" : "'" + property + "'") + " must be a 64-bit whole number, as a string"
                + " or a number, but was '" + shown + "'";
    }

    /** The same for a JSON number that is not whole. */
    static String notWhole(String property) {
        return (property == null ? "an ID" : "'" + property + "'") + " must be a 64-bit whole number, as a string"
                + " or a number, but was a fraction";
    }
}
