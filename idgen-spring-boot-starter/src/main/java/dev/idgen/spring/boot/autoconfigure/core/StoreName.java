package dev.idgen.spring.boot.autoconfigure.core;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A value of a setting that chooses where a generator keeps its state ({@code segment.store},
 * {@code segment.switch-from}, {@code redis.window-store}, {@code snowflake.worker-id-assigner}): one of the strategy's
 * own values, or a {@link ConsensusEngine}'s. A value class rather than an enum, so that a store plugs in without a
 * constant in each strategy's settings; the binder makes one from a string ({@link #valueOf}).
 *
 * <p>Read as Spring Boot reads an enum: case, {@code -} and {@code _} do not matter ({@code leaf-zookeeper},
 * {@code LEAF_ZOOKEEPER} and {@code leafzookeeper} are one value), an empty value leaves the setting as it was
 * ({@link #valueOf}), and a value is written the way idgen declares it ({@link #value()}), however the user spelt it,
 * as an enum constant's name was: the value names the marks a store switch leaves. Whether a value is one the setting
 * accepts is checked at start-up, with the accepted values in the message.
 */
public final class StoreName {

    /** Each declared value ({@link #of}) by its letters and digits, as idgen writes it. */
    private static final Map<String, String> DECLARED = new ConcurrentHashMap<>();

    private final String value;

    private final String key;

    private StoreName(String value, String key) {
        this.value = value;
        this.key = key;
    }

    /**
     * Declares a value, as a strategy's constant or an engine's name does: a value read from the settings that matches
     * it is written this way.
     *
     * @param value for example {@code leaf-zookeeper}
     * @return the value, written in lower case with {@code -} for {@code _}
     * @throws IllegalArgumentException when it has no letter or digit
     */
    public static StoreName of(String value) {
        StoreName name = read(value);
        DECLARED.putIfAbsent(name.key, name.value);
        return name;
    }

    /**
     * A value as the binder reads it from the settings (it prefers {@code valueOf} to {@link #of}).
     *
     * @param value for example {@code LEAF_ZOOKEEPER}
     * @return the value, or null when it is blank: the setting keeps its default or inherited value, as an enum's did
     * @throws IllegalArgumentException when it has characters but no letter or digit
     */
    public static StoreName valueOf(String value) {
        return value == null || value.isBlank() ? null : read(value);
    }

    private static StoreName read(String value) {
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

    /**
     * @return the value as idgen declares it, for example {@code leaf-zookeeper} for {@code LEAF_ZOOKEEPER} or
     *     {@code leafzookeeper}; an undeclared value in lower case, with {@code -} for {@code _}
     */
    public String value() {
        return DECLARED.getOrDefault(key, value);
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
        return value();
    }
}
