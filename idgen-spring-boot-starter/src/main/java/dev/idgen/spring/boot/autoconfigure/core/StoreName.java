package dev.idgen.spring.boot.autoconfigure.core;

import java.util.Locale;

/**
 * A value of a setting that chooses where a generator keeps its state ({@code segment.store},
 * {@code segment.switch-from}, {@code redis.window-store}, {@code snowflake.worker-id-assigner}): one of the strategy's
 * own values, or a {@link ConsensusEngine}'s. A value class rather than an enum, so that a store plugs in without a
 * constant in each strategy's settings; the binder makes one from a string ({@link #of}).
 *
 * <p>Read as Spring Boot reads an enum: case, {@code -} and {@code _} do not matter ({@code leaf-zookeeper},
 * {@code LEAF_ZOOKEEPER} and {@code leafzookeeper} are one value). Whether a value is one the setting accepts is
 * checked at start-up, with the accepted values in the message.
 */
public final class StoreName {

    private final String value;

    private final String key;

    private StoreName(String value, String key) {
        this.value = value;
        this.key = key;
    }

    /**
     * @param value for example {@code etcd}
     * @return the value, written in lower case with {@code -} for {@code _}
     * @throws IllegalArgumentException when it has no letter or digit
     */
    public static StoreName of(String value) {
        String written =
                value == null ? "" : value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        StringBuilder key = new StringBuilder(written.length());
        for (int i = 0; i < written.length(); i++) {
            char c = written.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                key.append(c);
            }
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("'" + value + "' names no store");
        }
        return new StoreName(written, key.toString());
    }

    /** @return the value as written in lower case, for example {@code leaf-zookeeper} */
    public String value() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoreName name && name.key.equals(key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}
