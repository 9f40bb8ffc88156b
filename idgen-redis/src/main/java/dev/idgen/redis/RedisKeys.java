package dev.idgen.redis;

import dev.idgen.core.InvalidArgumentException;
import java.util.regex.Pattern;

/**
 * Checks the configured key prefix. Keys are the prefix and then a name or a bucket number in a Redis Cluster hash
 * tag, so the keys one script touches always share a slot: {@code idgen:{orders}} and {@code idgen:{orders}:window}.
 */
public final class RedisKeys {

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._:-]{0,64}");

    private RedisKeys() {}

    /**
     * @param prefix a key prefix
     * @return the prefix
     * @throws InvalidArgumentException unless it is 0 to 64 of {@code A-Z a-z 0-9 . _ : -} (braces would break the
     *         hash tags)
     */
    public static String checkPrefix(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new InvalidArgumentException(
                    "prefix", prefix, "prefix must be 0 to 64 of A-Z a-z 0-9 . _ : -, but was '" + prefix + "'");
        }
        return prefix;
    }
}
