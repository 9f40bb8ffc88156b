package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.health.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcFailoverDetails;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenGeneratorMeters;
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

    @Override
    public Class<?> configuration() {
        return SegmentConfiguration.class;
    }

    @Override
    public List<Requirement> requirements(IdgenGenerators.Definition definition) {
        boolean jdbc = store(definition.properties().getSegment()) == SegmentProperties.StoreType.JDBC;
        String feature = jdbc ? definition.strategySetting() : definition.segmentStoreSetting();
        List<Requirement> requirements = new ArrayList<>();
        if (!jdbc) {
            requirements.add(
                    Requirement.of(IdgenDependency.REDIS, feature, definition, SegmentStore.class, IdService.class));
        }
        // The Redis stores keep their durable floor in the database too.
        requirements.add(Requirement.of(IdgenDependency.JDBC, feature, definition, SegmentStore.class, IdService.class)
                .orDataSource());
        return requirements;
    }

    @Override
    public List<TableClaim> tables(IdgenGenerators.Definition definition) {
        return List.of(new TableClaim(
                definition.properties().getJdbc().getTable(), "segment", definition.property("jdbc.table")));
    }

    @Override
    public String redisUse(IdgenGenerators.Definition definition) {
        return store(definition.properties().getSegment()) != SegmentProperties.StoreType.JDBC
                ? definition.segmentStoreSetting()
                : null;
    }

    @Override
    public String store(IdgenGenerators.Definition definition) {
        return store(definition.properties().getSegment()).name().toLowerCase(Locale.ROOT);
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
