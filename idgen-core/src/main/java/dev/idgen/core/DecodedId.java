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
     * fields.
     *
     * @return an unmodifiable, ordered map
     */
    Map<String, Object> toMap();
}
