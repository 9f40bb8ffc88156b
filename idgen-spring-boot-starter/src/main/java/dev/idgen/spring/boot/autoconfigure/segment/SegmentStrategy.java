package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.jdbc.SegmentTables;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code segment} strategy: blocks of IDs leased from a database table (or Redis, which keeps its durable floor in
 * the database too) and served from memory.
 */
public final class SegmentStrategy implements IdgenStrategy {

    /** For messages: for example {@code idgen.generators.invoice.segment.store=redis}. */
    public static String storeSetting(IdgenGenerators.Definition definition) {
        return definition.property("segment.store") + "="
                + definition
                        .settings(SegmentProperties.SECTION)
                        .getStore()
                        .name()
                        .toLowerCase(Locale.ROOT);
    }

    @Override
    public Class<?> configuration() {
        return SegmentConfiguration.class;
    }

    @Override
    public List<IdgenSettings<?>> sections() {
        return List.of(SegmentProperties.SECTION);
    }

    @Override
    public List<Requirement> requirements(IdgenGenerators.Definition definition) {
        List<Requirement> requirements = new ArrayList<>();
        for (SegmentProperties.StoreType store : stores(definition)) {
            String setting = setting(definition, store);
            if (store.usesRedis()) {
                requirements.add(Requirement.of(
                        IdgenDependency.REDIS, setting, definition, SegmentStore.class, IdService.class));
            }
            if (store == SegmentProperties.StoreType.REMOTE) {
                requirements.add(Requirement.of(
                        IdgenDependency.REMOTE, setting, definition, SegmentStore.class, IdService.class));
            }
        }
        if (usesDatabase(definition)) {
            // The Redis stores keep their durable floor in the database too, unless their windows come from etcd or
            // ZooKeeper.
            String feature = store(definition.settings(SegmentProperties.SECTION)) == SegmentProperties.StoreType.JDBC
                    ? definition.strategySetting()
                    : SegmentStrategy.storeSetting(definition);
            requirements.add(
                    Requirement.of(IdgenDependency.JDBC, feature, definition, SegmentStore.class, IdService.class)
                            .orDataSource());
        }
        requirements.addAll(ConsensusEngine.requirements(definition, this));
        return requirements;
    }

    /** The generator's store and, during a store switch, the one it switches from. */
    private static List<SegmentProperties.StoreType> stores(IdgenGenerators.Definition definition) {
        SegmentProperties segment = definition.settings(SegmentProperties.SECTION);
        SegmentProperties.StoreType from = segment.getSwitchFrom();
        return from == null || from == store(segment) ? List.of(store(segment)) : List.of(store(segment), from);
    }

    /** The setting that makes the generator use {@code store}: its store, or its switch-from. */
    private static String setting(IdgenGenerators.Definition definition, SegmentProperties.StoreType store) {
        return store == store(definition.settings(SegmentProperties.SECTION))
                ? SegmentStrategy.storeSetting(definition)
                : definition.property("segment.switch-from") + "="
                        + store.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public List<TableClaim> tables(IdgenGenerators.Definition definition) {
        if (!usesDatabase(definition)) {
            return List.of();
        }
        return List.of(new TableClaim(
                SegmentTables.table(definition.settings(JdbcProperties.SECTION)),
                "segment",
                definition.property("jdbc.table")));
    }

    @Override
    public String redisUse(IdgenGenerators.Definition definition) {
        for (SegmentProperties.StoreType store : stores(definition)) {
            if (store.usesRedis()) {
                return setting(definition, store);
            }
        }
        return null;
    }

    @Override
    public String remoteUse(IdgenGenerators.Definition definition) {
        SegmentProperties segment = definition.settings(SegmentProperties.SECTION);
        return segment.getStore() == SegmentProperties.StoreType.REMOTE
                        || segment.getSwitchFrom() == SegmentProperties.StoreType.REMOTE
                ? SegmentStrategy.storeSetting(definition)
                : null;
    }

    @Override
    public String consensusUse(IdgenGenerators.Definition definition, ConsensusEngine engine) {
        for (SegmentProperties.StoreType store : stores(definition)) {
            if (engine.is(store)) {
                return setting(definition, store);
            }
            if (store.usesRedis()
                    && engine.is(definition.settings(RedisProperties.SECTION).getWindowStore())) {
                return RedisStrategy.windowStoreSetting(definition);
            }
        }
        return null;
    }

    /** Whether the generator's blocks, or its Redis windows, come from the segment table, or did before a switch. */
    private static boolean usesDatabase(IdgenGenerators.Definition definition) {
        for (SegmentProperties.StoreType store : stores(definition)) {
            if (store == SegmentProperties.StoreType.JDBC
                    || (store.usesRedis()
                            && definition.settings(RedisProperties.SECTION).getWindowStore()
                                    == RedisProperties.WindowStore.JDBC)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String store(IdgenGenerators.Definition definition) {
        return store(definition.settings(SegmentProperties.SECTION)).name().toLowerCase(Locale.ROOT);
    }

    @Override
    public IdgenGeneratorHealth health() {
        return new SegmentHealth();
    }

    @Override
    public IdgenGeneratorMeters meters() {
        return new SegmentMeters();
    }

    @Override
    public void describe(IdService backend, Map<String, Object> detail) {
        if (!(backend instanceof SegmentIdService segments)) {
            return;
        }
        detail.put("segments", segments(segments));
        Map<String, Object> failovers = JdbcFailoverDetails.of(segments.store());
        if (!failovers.isEmpty()) {
            detail.put("failover", failovers);
        }
    }

    private static SegmentProperties.StoreType store(SegmentProperties segment) {
        return segment.getStore();
    }

    /** The names by urgency as the health lists them: refusing first, then fewest IDs left. */
    private static Map<String, Object> segments(SegmentIdService segments) {
        List<SegmentBufferStats> all = new ArrayList<>(segments.stats());
        all.sort(Comparator.comparing((SegmentBufferStats stats) -> !stats.refusing())
                .thenComparingLong(SegmentBufferStats::remaining)
                .thenComparing(SegmentBufferStats::name));
        Map<String, Object> names = new LinkedHashMap<>();
        for (SegmentBufferStats stats : all.subList(0, Math.min(SegmentHealth.LISTED_NAMES, all.size()))) {
            Map<String, Object> buffer = new LinkedHashMap<>();
            SegmentNameState.putRemaining(buffer, stats);
            buffer.put("served", stats.served());
            buffer.put("waits", stats.waits());
            buffer.put("loads", stats.fetches());
            buffer.put("failedLoads", stats.fetchFailures());
            buffer.put(
                    "lastLoad",
                    stats.lastLoadMillis() < 0
                            ? null
                            : Instant.ofEpochMilli(stats.lastLoadMillis()).toString());
            buffer.put("loading", stats.loading());
            buffer.put("refusing", stats.refusing());
            if (stats.lastFailure() != null) {
                buffer.put("lastFailure", stats.lastFailure());
            }
            names.put(stats.name(), buffer);
        }
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("nameCount", all.size());
        detail.put("maxNames", segments.maxNames());
        detail.put("names", names);
        detail.put("namesNotListed", all.size() - names.size());
        return detail;
    }
}
