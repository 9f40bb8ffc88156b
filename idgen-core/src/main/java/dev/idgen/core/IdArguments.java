package dev.idgen.core;

/**
 * The rules every {@link IdService} applies to its arguments.
 */
public final class IdArguments {

    /** The longest name a sequence may have. */
    public static final int MAX_NAME_LENGTH = 64;

    /** The rule of {@link #checkName(String)} in words, for the messages of whatever else checks a name against it. */
    public static final String NAME_RULE =
            "1 to " + MAX_NAME_LENGTH + " characters of [A-Za-z0-9._:-], the first a letter or digit";

    private IdArguments() {}

    /**
     * Checks a sequence name: 1 to {@value #MAX_NAME_LENGTH} characters of {@code [A-Za-z0-9._:-]}, the first a letter
     * or digit (as the regular expression {@code [A-Za-z0-9][A-Za-z0-9._:-]{0,63}}). The rule keeps names safe as
     * Redis keys, table values and URL path segments: a letter or digit first rules out {@code .} and {@code ..},
     * which a URL path would resolve as the current and parent segment, and names that read as options.
     *
     * @param name the name to check
     * @return the name
     * @throws InvalidArgumentException naming {@code name} when the rule is broken
     */
    public static String checkName(String name) {
        if (!isName(name)) {
            throw invalidName(name);
        }
        return name;
    }

    /**
     * @param name a text
     * @return whether it is a valid name, by the rule {@link #checkName(String)} enforces
     */
    public static boolean isName(String name) {
        // A plain loop rather than a regex: this runs on every call and must not allocate.
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return false;
        }
        if (!isLetterOrDigit(name.charAt(0))) {
            return false;
        }
        for (int i = 1, n = name.length(); i < n; i++) {
            char c = name.charAt(i);
            if (!isLetterOrDigit(c) && c != '.' && c != '_' && c != ':' && c != '-') {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks a batch size: from 1 to {@link IdService#MAX_BATCH_SIZE}.
     *
     * @param count the size to check
     * @return the size
     * @throws InvalidArgumentException naming {@code count} when the rule is broken
     */
    public static int checkCount(int count) {
        if (count < 1 || count > IdService.MAX_BATCH_SIZE) {
            throw new InvalidArgumentException(
                    "count", count, "count must be between 1 and " + IdService.MAX_BATCH_SIZE + ", but was " + count);
        }
        return count;
    }

    /**
     * Checks an ID given back for decoding: it must be positive, as every issued ID is.
     *
     * @param id the ID to check
     * @return the ID
     * @throws InvalidArgumentException naming {@code id} when it is zero or negative
     */
    public static long checkId(long id) {
        if (id <= 0) {
            throw new InvalidArgumentException("id", id, "id must be a positive 64-bit number, but was " + id);
        }
        return id;
    }

    /** An ASCII letter or digit only: {@link Character#isLetterOrDigit} would also accept other scripts. */
    private static boolean isLetterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static InvalidArgumentException invalidName(String name) {
        String shown = name == null ? "null" : "'" + (name.length() > 80 ? name.substring(0, 80) + "..." : name) + "'";
        return new InvalidArgumentException("name", name, "name must be " + NAME_RULE + ", but was " + shown);
    }
}
