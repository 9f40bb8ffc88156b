package dev.idgen.spring.boot.autoconfigure.core;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Which generators use which store, as each generator's strategy answers it. A bean the auto-configuration provides
 * from the strategies' descriptors: a store's wiring, below the strategies, asks this rather than the strategies, so
 * that its imports point down.
 */
public interface IdgenStoreUsers {

    /**
     * @return the setting that makes {@code definition} use {@code engine} (its segments, its windows or its worker id
     *         leases), for messages; null when it does not
     */
    String consensusUse(IdgenGenerators.Definition definition, ConsensusEngine engine);

    /** @return every engine a store may be chosen from, as the auto-configuration lists them */
    List<ConsensusEngine> engines();

    /** @return the engine whose value is {@code name}, or null */
    default ConsensusEngine engine(StoreName name) {
        for (ConsensusEngine engine : engines()) {
            if (engine.name().equals(name)) {
                return engine;
            }
        }
        return null;
    }

    /**
     * For a value the start-up check has let through as an engine's: a setting's value that is not the strategy's own.
     *
     * @return the engine whose value is {@code name}
     * @throws IllegalStateException when there is none, which that check rules out
     */
    default ConsensusEngine requireEngine(StoreName name) {
        ConsensusEngine engine = engine(name);
        if (engine == null) {
            throw new IllegalStateException("no engine is named " + name + ", yet the start-up check let it through");
        }
        return engine;
    }

    /** @return the setting that makes {@code definition} use a Redis backend, for messages; null when it uses none */
    String redisUse(IdgenGenerators.Definition definition);

    /**
     * @return the setting that makes {@code definition} take its segments from idgen servers (or did before a store
     *         switch), for messages; null when it does not
     */
    String remoteUse(IdgenGenerators.Definition definition);

    /** @return the names of the generators that use {@code engine}, default first */
    default Set<String> consensusUsers(IdgenGenerators generators, ConsensusEngine engine) {
        return users(generators, definition -> consensusUse(definition, engine));
    }

    /** @return the names of the generators that take segments from idgen servers, default first */
    default Set<String> remoteUsers(IdgenGenerators generators) {
        return users(generators, this::remoteUse);
    }

    private static Set<String> users(IdgenGenerators generators, Function<IdgenGenerators.Definition, String> use) {
        Set<String> names = new LinkedHashSet<>();
        for (IdgenGenerators.Definition definition : generators.all()) {
            if (use.apply(definition) != null) {
                names.add(definition.name());
            }
        }
        return names;
    }

    /**
     * @return the setting of the first generator (default first) that uses a Redis backend, or
     *         {@code idgen.redis.buckets.enabled=true} when only readable IDs do, or null
     */
    default String redisUse(IdgenGenerators generators, boolean bucketsEnabled) {
        if (generators != null) {
            for (IdgenGenerators.Definition definition : generators.all()) {
                String use = redisUse(definition);
                if (use != null) {
                    return use;
                }
            }
        }
        return bucketsEnabled ? "idgen.redis.buckets.enabled=true" : null;
    }
}
