package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.StoreChoice;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
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
import java.util.Map;

/**
 * The {@code segment} strategy: blocks of IDs leased from a database table (or Redis, which keeps its durable floor in
 * the database too) and served from memory.
 */
public final class SegmentStrategy implements IdgenStrategy {

    /** For messages: for example {@code idgen.generators.invoice.segment.store=redis}. */
    public static String storeSetting(IdgenGenerators.Definition definition) {
        return definition.property("segment.store") + "="
                + definition.settings(SegmentProperties.SECTION).getStore().value();
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
        for (StoreName store : stores(definition)) {
            String setting = setting(definition, store);
            if (SegmentProperties.usesRedis(store)) {
                requirements.add(Requirement.of(
                        IdgenDependency.REDIS, setting, definition, SegmentStore.class, IdService.class));
            }
            if (SegmentProperties.REMOTE.equals(store)) {
                requirements.add(Requirement.of(
                        IdgenDependency.REMOTE, setting, definition, SegmentStore.class, IdService.class));
            }
        }
        if (usesDatabase(definition)) {
            // The Redis stores keep their durable floor in the database too, unless their windows come from etcd or
            // ZooKeeper.
            String feature = SegmentProperties.JDBC.equals(store(definition.settings(SegmentProperties.SECTION)))
                    ? definition.strategySetting()
                    : SegmentStrategy.storeSetting(definition);
            requirements.add(
                    Requirement.of(IdgenDependency.JDBC, feature, definition, SegmentStore.class, IdService.class)
                            .orDataSource());
        }
        return requirements;
    }

    /** The generator's store and, during a store switch, the one it switches from. */
    private static List<StoreName> stores(IdgenGenerators.Definition definition) {
        SegmentProperties segment = definition.settings(SegmentProperties.SECTION);
        StoreName from = segment.getSwitchFrom();
        return from == null || from.equals(store(segment)) ? List.of(store(segment)) : List.of(store(segment), from);
    }

    /** The setting that makes the generator use {@code store}: its store, or its switch-from. */
    private static String setting(IdgenGenerators.Definition definition, StoreName store) {
        return choice(definition, store).setting();
    }

    /** The setting that makes the generator use {@code store}, as a choice of a segment store. */
    private static StoreChoice choice(IdgenGenerators.Definition definition, StoreName store) {
        String property = store.equals(store(definition.settings(SegmentProperties.SECTION)))
                ? definition.property("segment.store")
                : definition.property("segment.switch-from");
        return StoreChoice.of(property, store, StoreChoice.Role.SEGMENTS, SegmentProperties.OWN_STORES);
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
        for (StoreName store : stores(definition)) {
            if (SegmentProperties.usesRedis(store)) {
                return setting(definition, store);
            }
        }
        return null;
    }

    @Override
    public String remoteUse(IdgenGenerators.Definition definition) {
        SegmentProperties segment = definition.settings(SegmentProperties.SECTION);
        return SegmentProperties.REMOTE.equals(segment.getStore())
                        || SegmentProperties.REMOTE.equals(segment.getSwitchFrom())
                ? SegmentStrategy.storeSetting(definition)
                : null;
    }

    @Override
    public List<StoreChoice> storeChoices(IdgenGenerators.Definition definition) {
        List<StoreChoice> choices = new ArrayList<>();
        boolean redis = false;
        for (StoreName store : stores(definition)) {
            choices.add(choice(definition, store));
            redis |= SegmentProperties.usesRedis(store);
        }
        if (redis) {
            choices.add(RedisStrategy.windowStoreChoice(definition));
        }
        return choices;
    }

    /** Whether the generator's blocks, or its Redis windows, come from the segment table, or did before a switch. */
    private static boolean usesDatabase(IdgenGenerators.Definition definition) {
        for (StoreName store : stores(definition)) {
            if (SegmentProperties.JDBC.equals(store)
                    || (SegmentProperties.usesRedis(store)
                            && RedisProperties.JDBC.equals(
                                    definition.settings(RedisProperties.SECTION).getWindowStore()))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String store(IdgenGenerators.Definition definition) {
        return store(definition.settings(SegmentProperties.SECTION)).value();
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

    private static StoreName store(SegmentProperties segment) {
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
