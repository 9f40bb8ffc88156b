package dev.idgen.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link DecodedId} that also names the generator that issued the ID; its map lists {@code strategy}, then
 * {@code generator}, then the strategy's own fields.
 *
 * @param generator the generator's name
 * @param parts what the generator read from the ID
 */
public record GeneratorDecodedId(String generator, DecodedId parts) implements DecodedId {

    static DecodedId of(String generator, DecodedId parts) {
        return parts instanceof GeneratorDecodedId named && named.generator.equals(generator)
                ? parts
                : new GeneratorDecodedId(generator, parts);
    }

    @Override
    public String strategy() {
        return parts.strategy();
    }

    @Override
    public long id() {
        return parts.id();
    }

    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("strategy", parts.strategy());
        map.put("generator", generator);
        parts.toMap().forEach(map::putIfAbsent);
        return Collections.unmodifiableMap(map);
    }
}
