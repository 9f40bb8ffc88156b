package dev.idgen.spring.boot.autoconfigure.redis;

import dev.idgen.core.NameLimit;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.RedisKeys;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.redis.RedisWorkerIdLeaseStore;
import dev.idgen.redis.SpringLettuceConnectionSource;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.jdbc.SegmentTables;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * idgen's Redis backend, on the application's Spring Data Redis (Lettuce) connection: the executor every Redis feature
 * shares, the windowed counter and the durable store its windows are reserved from (which the {@code redis} and
 * {@code dual} segment stores, built by the segment strategy, sit on), Redis worker id leases and readable IDs (the
 * {@code redis} strategy itself is {@link RedisConfiguration}). Imported only when one of them is asked for
 * ({@code IdgenStoresInUse}).
 */
@Configuration(proxyBeanMethods = false)
@Import(RedisBackendConfiguration.LettuceConfiguration.class)
public class RedisBackendConfiguration {

    private static final String PREFIX = "idgen.redis";

    /** How long start-up waits for the first Redis connection; a Redis that is down does not fail start-up. */
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(5);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
                "io.lettuce.core.RedisClient"
            })
    static class LettuceConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RedisRoundTrips idgenRedisRoundTrips() {
            return new RedisRoundTrips();
        }

        @Bean
        @ConditionalOnMissingBean
        RedisScriptExecutor idgenRedisScriptExecutor(
                ObjectProvider<RedisConnectionFactory> connectionFactories,
                RedisRoundTrips roundTrips,
                IdgenGenerators generators,
                IdgenStoreUsers storeUsers) {
            RedisProperties properties = generators.topLevel(RedisProperties.SECTION);
            RedisConnectionFactory factory = connectionFactories.getIfUnique();
            if (!(factory instanceof LettuceConnectionFactory lettuce)) {
                throw new IdgenStartupException(
                        storeUsers.redisUse(generators, properties.getBuckets().isEnabled())
                                + " needs one Spring Data Redis"
                                + " connection factory on Lettuce, but found "
                                + (factory == null ? "none" : factory.getClass().getName()),
                        "Add"
                                + " org.springframework.boot:spring-boot-starter-data-redis (Lettuce is its default client) and"
                                + " set spring.data.redis.host and spring.data.redis.port");
            }
            RedisScriptExecutor executor = InvalidIdgenProperty.rethrowAsProperty(
                    PREFIX,
                    () -> new RedisScriptExecutor(
                            new SpringLettuceConnectionSource(lettuce), properties.getTimeout(), roundTrips));
            executor.awaitReady(STARTUP_WAIT);
            return executor;
        }
    }

    // The nested configurations below are registered as members of the outer class; each repeats the class check.

    /**
     * A generator's worker id lease store in Redis.
     */
    public static WorkerIdLeaseStore leaseStore(IdgenGenerators.Definition definition, BeanFactory beans) {
        RedisScriptExecutor redis = beans.getBean(RedisScriptExecutor.class);
        return InvalidIdgenProperty.rethrowAsProperty(
                definition.property("redis"),
                () -> new RedisWorkerIdLeaseStore(
                        redis, definition.settings(RedisProperties.SECTION).getPrefix()));
    }

    /**
     * {@code idgen.snowflake.worker-id-assigner=redis}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
                "io.lettuce.core.RedisClient"
            })
    @ConditionalOnProperty(name = "idgen.snowflake.worker-id-assigner", havingValue = "redis")
    static class RedisLeaseConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdLeaseStore idgenWorkerIdLeaseStore(BeanFactory beans, IdgenGenerators generators) {
            return leaseStore(generators.defaultGenerator(), beans);
        }
    }

    /**
     * {@code idgen.redis.buckets.enabled=true}: readable IDs from bucketed Redis sequences.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
                "io.lettuce.core.RedisClient"
            })
    @ConditionalOnProperty(name = "idgen.redis.buckets.enabled", havingValue = "true")
    static class BucketsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ReadableIdService idgenReadableIdService(
                RedisScriptExecutor redis, IdgenGenerators generators, TimeSource timeSource) {
            RedisProperties properties = generators.topLevel(RedisProperties.SECTION);
            String prefix =
                    InvalidIdgenProperty.rethrowAsProperty(PREFIX, () -> RedisKeys.checkPrefix(properties.getPrefix()));
            RedisProperties.Buckets buckets = properties.getBuckets();
            return InvalidIdgenProperty.rethrowAsProperty(
                    PREFIX + ".buckets",
                    Map.of("buckets", "count"),
                    () -> new BucketedRedisSequence(
                            redis,
                            prefix,
                            buckets.getCount(),
                            buckets.getMaxSequence(),
                            buckets.getZone(),
                            buckets.getOpenDuration(),
                            timeSource));
        }
    }

    static RedisWindowedCounter counter(IdgenGenerators.Definition definition, BeanFactory beans, String feature) {
        return counter(definition, windowStore(definition, beans, feature), beans);
    }

    /**
     * The windowed counter of a generator on Redis, over {@code database}, the durable store its windows are reserved
     * from.
     */
    public static RedisWindowedCounter counter(
            IdgenGenerators.Definition definition, SegmentStore windows, BeanFactory beans) {
        RedisScriptExecutor redis = beans.getBean(RedisScriptExecutor.class);
        RedisProperties properties = definition.settings(RedisProperties.SECTION);
        int maxNames = InvalidIdgenProperty.rethrowAsProperty(
                definition.prefix(),
                () -> NameLimit.check(definition.properties().getMaxNames()));
        RedisWindowedCounter counter = InvalidIdgenProperty.rethrowAsProperty(
                definition.property("redis"),
                Map.of("windowSize", "window-size"),
                () -> new RedisWindowedCounter(
                        redis, windows, properties.getPrefix(), properties.getWindowSize(), maxNames));
        if (properties.isVerifyPersistence()) {
            try {
                counter.verifyPersistence();
            } catch (IllegalStateException e) {
                if (!RedisWindowedCounter.isUnreachable(e)) {
                    throw persistenceRefused(definition, beans, e);
                }
                // Redis is down at start-up: the health shows it, and the first window checks again.
                counter.verifyPersistenceBeforeFirstWindow();
            }
        }
        return counter;
    }

    /**
     * Redis answered that it could come back with older counters (or would not say): what to change, for the report.
     */
    private static IdgenStartupException persistenceRefused(
            IdgenGenerators.Definition definition, BeanFactory beans, IllegalStateException refusal) {
        String message = refusal.getMessage();
        // The counter's message ends in its advice, which the report gives as the action instead.
        int advice = message.indexOf(". Run it");
        return new IdgenStartupException(
                beans.getBean(IdgenStoreUsers.class).redisUse(definition) + ": "
                        + (advice < 0 ? message : message.substring(0, advice)),
                "Run Redis without persistence (save \"\", appendonly no: idgen"
                        + " then continues from the database) or with appendonly yes and appendfsync always; or, where"
                        + " CONFIG is disabled or you accept the risk, set "
                        + definition.property("redis.verify-persistence") + "=false",
                refusal);
    }

    /**
     * @param feature what uses the store, for the start-up check's failure
     * @throws IdgenStartupException when the table does not exist and idgen does not create it
     */
    private static JdbcSegmentStore jdbcStore(
            IdgenGenerators.Definition definition, DataSource dataSource, String feature) {
        SegmentTables.requireOwnLayout(definition, feature);
        return SegmentTables.rowStore(definition, dataSource, feature);
    }

    /**
     * The durable store Redis windows are reserved from (and the dual store falls back to): by default the same table
     * and settings as the jdbc segment store, on the application's {@link DataSource}; with
     * {@code redis.window-store=etcd} or {@code zookeeper}, the segment store on that engine.
     */
    public static SegmentStore windowStore(IdgenGenerators.Definition definition, BeanFactory beans, String feature) {
        StoreName windowStore = definition.settings(RedisProperties.SECTION).getWindowStore();
        if (!RedisProperties.JDBC.equals(windowStore)) {
            return beans.getBean(IdgenStoreUsers.class)
                    .requireEngine(windowStore)
                    .segmentStore(beans);
        }
        DataSource dataSource = beans.getBeanProvider(DataSource.class).getIfUnique();
        if (dataSource == null) {
            throw new IdgenStartupException(
                    feature + " keeps its durable floor in a database (so that a Redis that lost its data"
                            + " never repeats IDs), but there is no single DataSource bean",
                    "Add org.springframework.boot:spring-boot-starter-jdbc and a JDBC driver, and set"
                            + " spring.datasource.url; or keep the floor in etcd or ZooKeeper with "
                            + definition.property("redis.window-store") + "=etcd or zookeeper");
        }
        return jdbcStore(definition, dataSource, feature);
    }
}
