package dev.idgen.forms.shard;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.form.IdForm;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link ShardedSnowflake}'s IDs as canonical decimal strings. Every ID needs a shard key, so only
 * {@link #next(int, String)} issues.
 */
final class ShardForm implements IdForm {

    /** Long.MAX_VALUE has 19 digits. */
    private static final int MAX_DIGITS = 19;

    private final String generator;
    private final ShardedSnowflake ids;

    ShardForm(String generator, ShardedSnowflake ids) {
        this.generator = generator;
        this.ids = ids;
    }

    @Override
    public String generator() {
        return generator;
    }

    @Override
    public String form() {
        return ShardedSnowflake.FORM;
    }

    @Override
    public String next() {
        throw keyRequired();
    }

    @Override
    public String[] next(int count) {
        IdArguments.checkCount(count);
        throw keyRequired();
    }

    @Override
    public String[] next(int count, String shardKey) {
        IdArguments.checkCount(count);
        // Hashed once: every ID of the batch carries the same shard.
        int shard = ids.logicalShardOf(shardKey);
        String[] texts = new String[count];
        for (int i = 0; i < count; i++) {
            texts[i] = Long.toString(ids.nextIdInShard(shard));
        }
        return texts;
    }

    @Override
    public Map<String, Object> decode(String text) {
        long id = parse(text);
        Map<String, Object> parts = ids.decode(id);
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("form", ShardedSnowflake.FORM);
        map.put("timestamp", parts.get("timestamp"));
        map.put("shard", parts.get("shard"));
        map.put("worker", parts.get("workerId"));
        map.put("sequence", parts.get("sequence"));
        map.put("id", Long.toString(id));
        return Collections.unmodifiableMap(map);
    }

    @Override
    public String toString() {
        return "ShardForm[generator=" + generator + ", " + ids + "]";
    }

    private InvalidArgumentException keyRequired() {
        return new InvalidArgumentException(
                "shardKey",
                null,
                "generator '" + generator + "' has the " + ShardedSnowflake.FORM
                        + " form: every ID needs a shard key, so use next(count, shardKey)");
    }

    /** The canonical string only: decimal digits, no sign, no leading zero, no spaces. */
    private static long parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "id must be a decimal " + ShardedSnowflake.FORM + " ID, but was "
                            + (text == null ? "null" : "empty"));
        }
        int length = text.length();
        if (length > MAX_DIGITS) {
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "id must be at most " + MAX_DIGITS + " decimal digits," + " but has " + length + " characters");
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new InvalidArgumentException(
                        "id", text, "id must be decimal digits only, but has '" + c + "' at position " + i);
            }
        }
        if (text.charAt(0) == '0') {
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "id must be a positive decimal number without leading" + " zeros, but was '" + text + "'");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(
                    "id", text, "id " + text + " is above the largest 64-bit ID " + Long.MAX_VALUE);
        }
    }
}
