package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeStrategy;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * What no single generator can see:
 * <ul>
 * <li>two generators whose tables would collide. Generators may share a table of one kind (each writes only the rows
 * of its own names), but one table cannot hold two kinds of row: a segment row read as a ticket row, or as a worker id
 * lease, fails the statements that expect the other (the comparison is by table name, case-insensitive);</li>
 * <li>two Snowflake generators on one static worker id: each name stays unique, but the two would issue equal IDs for
 * different names, and Snowflake IDs are meant to be unique across names (likewise two on one ordinal, read from
 * the same source with the same offset);</li>
 * <li>a Redis-counted generator named {@code workers} beside Redis worker id leases under the same prefix: its
 * counter key is the lease hash's.</li>
 * </ul>
 */
final class IdgenGeneratorChecks {

    private IdgenGeneratorChecks() {}

    /**
     * @throws InvalidConfigurationPropertyValueException naming the second generator's property and the first's
     */
    static void check(IdgenGenerators generators) {
        checkTables(generators);
        checkWorkerIds(generators);
        checkRedisKeys(generators);
    }

    private static void checkWorkerIds(IdgenGenerators generators) {
        Map<Long, String> workerIds = new HashMap<>();
        Map<String, String> ordinals = new HashMap<>();
        for (IdgenGenerators.Definition definition : generators.all()) {
            SnowflakeProperties snowflake = definition.settings(SnowflakeProperties.SECTION);
            if (definition.strategy() != IdgenProperties.Strategy.SNOWFLAKE) {
                continue;
            }
            if (SnowflakeProperties.ORDINAL.equals(snowflake.getWorkerIdAssigner())) {
                // The same source and offset give every generator of an instance the same worker id, on each instance.
                SnowflakeProperties.Ordinal ordinal = snowflake.getOrdinal();
                String source = ordinal.getEnv() != null && !ordinal.getEnv().isBlank()
                        ? "env " + ordinal.getEnv().strip()
                        : "pattern " + ordinal.getPattern();
                String property = definition.property("snowflake.ordinal.offset");
                String first = ordinals.putIfAbsent(source + " offset " + ordinal.getOffset(), property);
                if (first != null) {
                    throw new InvalidConfigurationPropertyValueException(
                            property,
                            ordinal.getOffset(),
                            "it is also "
                                    + first
                                    + ", with the same ordinal: two Snowflake generators on one worker id issue the"
                                    + " same IDs (for different names); give each an offset of its own, far enough apart"
                                    + " for the number of instances, or lease the worker ids (snowflake.worker-id-assigner)");
                }
                continue;
            }
            if (!SnowflakeProperties.STATIC.equals(snowflake.getWorkerIdAssigner())) {
                continue;
            }
            String property = definition.property("snowflake.worker-id");
            String first = workerIds.putIfAbsent(snowflake.getWorkerId(), property);
            if (first != null) {
                throw new InvalidConfigurationPropertyValueException(
                        property,
                        snowflake.getWorkerId(),
                        "it is also "
                                + first
                                + ": two Snowflake generators on one worker id issue the same IDs (for different"
                                + " names); give each its own worker id, or lease them (snowflake.worker-id-assigner)");
            }
        }
    }

    private static void checkRedisKeys(IdgenGenerators generators) {
        for (IdgenGenerators.Definition leasing : generators.all()) {
            if (leasing.strategy() != IdgenProperties.Strategy.SNOWFLAKE
                    || !SnowflakeProperties.REDIS.equals(
                            leasing.settings(SnowflakeProperties.SECTION).getWorkerIdAssigner())) {
                continue;
            }
            IdgenGenerators.Definition counted = generators.named().get("workers");
            boolean countsInRedis = counted != null
                    && IdgenStoresInUse.INSTANCE.redisUse(counted) != null
                    && counted.strategy() != IdgenProperties.Strategy.SNOWFLAKE;
            if (countsInRedis
                    && counted.settings(RedisProperties.SECTION)
                            .getPrefix()
                            .equals(leasing.settings(RedisProperties.SECTION).getPrefix())) {
                throw new InvalidConfigurationPropertyValueException(
                        counted.property("redis.prefix"),
                        counted.settings(RedisProperties.SECTION).getPrefix(),
                        "the counter of the name 'workers' would be the worker id lease"
                                + " hash of " + SnowflakeStrategy.workerIdAssignerSetting(leasing)
                                + " under the same prefix; give"
                                + " one of them another idgen...redis.prefix");
            }
        }
    }

    private static void checkTables(IdgenGenerators generators) {
        Map<String, Use> tables = new HashMap<>();
        for (IdgenGenerators.Definition definition : generators.all()) {
            for (IdgenStrategy.TableClaim claim :
                    IdgenStrategies.of(definition.strategy()).tables(definition)) {
                claim(tables, claim.table(), claim.kind(), claim.property());
            }
        }
    }

    private static void claim(Map<String, Use> tables, String table, String kind, String property) {
        if (table == null) {
            return;
        }
        Use first = tables.putIfAbsent(table.toLowerCase(Locale.ROOT), new Use(kind, property));
        if (first != null && !first.kind().equals(kind)) {
            throw new InvalidConfigurationPropertyValueException(
                    property,
                    table,
                    "it is also the " + first.kind()
                            + " table (" + first.property() + "): one table cannot hold " + kind + " rows and "
                            + first.kind()
                            + " rows; give this generator a table of its own");
        }
    }

    private record Use(String kind, String property) {}
}
