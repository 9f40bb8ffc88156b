package dev.idgen.spring.boot.autoconfigure.redis;

import dev.idgen.core.IdService;
import dev.idgen.redis.RedisIdService;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.StoreChoice;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.util.ClassUtils;

/**
 * The {@code redis} strategy: one Redis {@code INCRBY} per call (shared by the calls that arrive together), inside
 * windows reserved from a database table. Its health and meters are the Redis backend's ({@link RedisHealth},
 * {@link RedisMeters}), which every Redis-using generator shares.
 */
public final class RedisStrategy implements IdgenStrategy {

    /** For messages: for example {@code idgen.generators.invoice.redis.window-store=etcd}. */
    public static String windowStoreSetting(IdgenGenerators.Definition definition) {
        return windowStoreChoice(definition).setting();
    }

    /** The setting that chooses where a generator's Redis windows are reserved from. */
    public static StoreChoice windowStoreChoice(IdgenGenerators.Definition definition) {
        return StoreChoice.of(
                definition.property("redis.window-store"),
                definition.settings(RedisProperties.SECTION).getWindowStore(),
                StoreChoice.Role.SEGMENTS,
                RedisProperties.OWN_WINDOW_STORES);
    }

    private static final boolean LETTUCE_PRESENT =
            ClassUtils.isPresent("io.lettuce.core.RedisClient", RedisStrategy.class.getClassLoader());

    @Override
    public Class<?> configuration() {
        return RedisConfiguration.class;
    }

    @Override
    public List<IdgenSettings<?>> sections() {
        return List.of(RedisProperties.SECTION);
    }

    @Override
    public List<Requirement> requirements(IdgenGenerators.Definition definition) {
        List<Requirement> requirements = new ArrayList<>();
        requirements.add(
                Requirement.of(IdgenDependency.REDIS, definition.strategySetting(), definition, IdService.class));
        if (RedisProperties.JDBC.equals(
                definition.settings(RedisProperties.SECTION).getWindowStore())) {
            requirements.add(
                    Requirement.of(IdgenDependency.JDBC, definition.strategySetting(), definition, IdService.class)
                            .orDataSource());
        }
        return requirements;
    }

    @Override
    public List<TableClaim> tables(IdgenGenerators.Definition definition) {
        if (!RedisProperties.JDBC.equals(
                definition.settings(RedisProperties.SECTION).getWindowStore())) {
            return List.of();
        }
        // The windows are reserved from a segment table.
        return List.of(new TableClaim(
                definition.settings(JdbcProperties.SECTION).getTable(), "segment", definition.property("jdbc.table")));
    }

    @Override
    public List<StoreChoice> storeChoices(IdgenGenerators.Definition definition) {
        return List.of(windowStoreChoice(definition));
    }

    @Override
    public String redisUse(IdgenGenerators.Definition definition) {
        return definition.strategySetting();
    }

    @Override
    public String store(IdgenGenerators.Definition definition) {
        return "redis";
    }

    @Override
    public void describe(IdService backend, Map<String, Object> detail) {
        if (LETTUCE_PRESENT) {
            Parts.describe(backend, detail);
        }
    }

    /** The parts that name Redis classes, kept apart so that nothing loads them when Lettuce is absent. */
    private static final class Parts {

        static void describe(IdService backend, Map<String, Object> detail) {
            if (backend instanceof RedisIdService redis) {
                detail.put("redis", redis.counter().redis().describe());
                detail.put("windowsReserved", redis.counter().windowsReserved());
                detail.put("countersLost", redis.counter().lostCounters());
                detail.put("failoversSeen", redis.counter().failovers());
            }
        }
    }
}
