package dev.idgen.core;

import java.util.Map;

/**
 * What an ID carries, as read back by {@link IdService#decode(long)}.
 */
public interface DecodedId {

    /**
     * @return the strategy that issued the ID, for example {@code snowflake}
     */
    String strategy();

    /**
     * @return the ID itself
     */
    long id();

    /**
     * The parts as an ordered map, ready for JSON or a log line: {@code strategy} first, then the strategy's own
     * fields. The 64-bit {@code id} is a decimal string ({@code "7401234567890123456"}), as idgen's JSON integration
     * and its actuator endpoint write IDs: a JSON number above 2^53 loses digits in JavaScript. {@link #id()} is the
     * number. Times are {@link java.time.Instant}s; the other numbers (worker id, sequence, shard, a period's
     * number, ...) stay numbers, as no layout that can issue IDs lets them pass 2^53.
     *
     * @return an unmodifiable, ordered map
     */
    Map<String, Object> toMap();
}
