package dev.idgen.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A decoded ID that carries nothing but itself: a number from a counter (segment, Redis INCR, ticket table).
 *
 * @param strategy the strategy that issued it
 * @param id the ID
 */
public record SequenceDecodedId(String strategy, long id) implements DecodedId {

    /** @return {@code strategy}, then {@code id} as a decimal string (see {@link DecodedId#toMap()}) */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("strategy", strategy);
        map.put("id", Long.toString(id));
        return Collections.unmodifiableMap(map);
    }
}
