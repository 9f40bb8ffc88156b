package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.DualSegmentStore;
import dev.idgen.redis.RedisKeys;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.redis.RedisWorkerIdLeaseStore;
import dev.idgen.redis.SpringLettuceConnectionSource;
import java.util.Locale;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * idgen's Redis backends, on the application's Spring Data Redis (Lettuce) connection: the {@code redis} strategy,
 * the {@code redis} and {@code dual} segment stores and Redis worker id leases. Configured only when one of them is
 * asked for.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(IdgenRedisConfiguration.RedisInUse.class)
@EnableConfigurationProperties(IdgenRedisProperties.class)
@Import(IdgenRedisConfiguration.LettuceConfiguration.class)
class IdgenRedisConfiguration {

    private static final String PREFIX = "idgen.redis";

    /** How long start-up waits for the first Redis connection; a Redis that is down does not fail start-up. */
    private static final java.time.Duration STARTUP_WAIT = java.time.Duration.ofSeconds(5);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient" })
    static class LettuceConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RedisRoundTrips idgenRedisRoundTrips() {
            return new RedisRoundTrips();
        }

        @Bean
        @ConditionalOnMissingBean
        RedisScriptExecutor idgenRedisScriptExecutor(ObjectProvider<RedisConnectionFactory> connectionFactories,
                IdgenRedisProperties properties, RedisRoundTrips roundTrips, Environment environment) {
            RedisConnectionFactory factory = connectionFactories.getIfUnique();
            if (!(factory instanceof LettuceConnectionFactory lettuce)) {
                throw new IdgenStartupException(RedisInUse.why(environment) + " needs one Spring Data Redis"
                        + " connection factory on Lettuce, but found " + (factory == null ? "none"
                                : factory.getClass().getName()), "Add"
                        + " org.springframework.boot:spring-boot-starter-data-redis (Lettuce is its default client) and"
                        + " set spring.data.redis.host and spring.data.redis.port");
            }
            RedisScriptExecutor executor = InvalidIdgenProperty.rethrowAsProperty(PREFIX,
                    () -> new RedisScriptExecutor(new SpringLettuceConnectionSource(lettuce), properties.getTimeout(),
                            roundTrips));
            executor.awaitReady(STARTUP_WAIT);
            return executor;
        }
    }

    // The nested configurations below are registered as members of the outer class; each repeats the class check.

    /**
     * {@code idgen.strategy=redis}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient" })
    @ConditionalOnProperty(name = "idgen.strategy", havingValue = "redis")
    static class RedisStrategyConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RedisWindowedCounter idgenRedisCounter(RedisScriptExecutor redis, IdgenProperties properties,
                IdgenRedisProperties redisProperties, org.springframework.beans.factory.BeanFactory beanFactory) {
            return counter(redis, IdgenSegmentConfiguration.windowStore(properties, beanFactory, "idgen.strategy=redis"),
                    redisProperties, properties.checkedMaxNames());
        }

        @Bean
        @ConditionalOnMissingBean
        IdService idService(RedisWindowedCounter counter) {
            return new RedisIdService(counter);
        }
    }

    /**
     * {@code idgen.strategy=segment} with {@code idgen.segment.store=redis} or {@code dual}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient" })
    @ConditionalOnProperty(name = "idgen.strategy", havingValue = "segment")
    static class RedisSegmentStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(SegmentStore.class)
        @Conditional(RedisSegmentStoreSelected.class)
        SegmentStore idgenSegmentStore(RedisScriptExecutor redis, IdgenProperties properties,
                IdgenRedisProperties redisProperties, org.springframework.beans.factory.BeanFactory beanFactory) {
            JdbcSegmentStore database = IdgenSegmentConfiguration.windowStore(properties, beanFactory,
                    "idgen.segment.store=" + properties.getSegment().getStore().name().toLowerCase(Locale.ROOT));
            RedisSegmentStore store = new RedisSegmentStore(counter(redis, database, redisProperties,
                    properties.checkedMaxNames()));
            return properties.getSegment().getStore() == IdgenProperties.SegmentStoreType.DUAL
                    ? new DualSegmentStore(store, database) : store;
        }
    }

    /**
     * {@code idgen.snowflake.worker-id-assigner=redis}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient" })
    @ConditionalOnProperty(name = "idgen.snowflake.worker-id-assigner", havingValue = "redis")
    static class RedisLeaseConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WorkerIdLeaseStore idgenWorkerIdLeaseStore(RedisScriptExecutor redis, IdgenRedisProperties properties) {
            return InvalidIdgenProperty.rethrowAsProperty(PREFIX,
                    () -> new RedisWorkerIdLeaseStore(redis, properties.getPrefix()));
        }
    }

    /**
     * {@code idgen.redis.buckets.enabled=true}: readable IDs from bucketed Redis sequences.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = { "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient" })
    @ConditionalOnProperty(name = "idgen.redis.buckets.enabled", havingValue = "true")
    static class BucketsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ReadableIdService idgenReadableIdService(RedisScriptExecutor redis, IdgenRedisProperties properties,
                TimeSource timeSource) {
            String prefix = InvalidIdgenProperty.rethrowAsProperty(PREFIX,
                    () -> RedisKeys.checkPrefix(properties.getPrefix()));
            IdgenRedisProperties.Buckets buckets = properties.getBuckets();
            return InvalidIdgenProperty.rethrowAsProperty(PREFIX + ".buckets", Map.of("buckets", "count"),
                    () -> new BucketedRedisSequence(redis, prefix, buckets.getCount(), buckets.getMaxSequence(),
                            buckets.getZone(), buckets.getOpenDuration(), timeSource));
        }
    }

    private static RedisWindowedCounter counter(RedisScriptExecutor redis, SegmentStore windows,
            IdgenRedisProperties properties, int maxNames) {
        RedisWindowedCounter counter = InvalidIdgenProperty.rethrowAsProperty(PREFIX, Map.of("windowSize",
                "window-size"), () -> new RedisWindowedCounter(redis, windows, properties.getPrefix(),
                        properties.getWindowSize(), maxNames));
        if (properties.isVerifyPersistence()) {
            try {
                counter.verifyPersistence();
            } catch (IllegalStateException e) {
                if (!RedisWindowedCounter.isUnreachable(e)) {
                    throw e;
                }
                // Redis is down at start-up: the health shows it, and the first window checks again.
                counter.verifyPersistenceBeforeFirstWindow();
            }
        }
        return counter;
    }

    /**
     * Matches when a Redis backend is asked for.
     */
    static final class RedisInUse extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String why = why(context.getEnvironment());
            return why != null ? ConditionOutcome.match(why) : ConditionOutcome.noMatch("no idgen Redis backend");
        }

        static String why(Environment environment) {
            String strategy = environment.getProperty("idgen.strategy", "snowflake");
            String store = environment.getProperty("idgen.segment.store", "jdbc");
            String assigner = environment.getProperty("idgen.snowflake.worker-id-assigner", "static");
            if ("redis".equalsIgnoreCase(strategy)) {
                return "idgen.strategy=redis";
            }
            if ("segment".equalsIgnoreCase(strategy) && ("redis".equalsIgnoreCase(store)
                    || "dual".equalsIgnoreCase(store))) {
                return "idgen.segment.store=" + store;
            }
            if ("snowflake".equalsIgnoreCase(strategy) && "redis".equalsIgnoreCase(assigner)) {
                return "idgen.snowflake.worker-id-assigner=redis";
            }
            if (environment.getProperty("idgen.redis.buckets.enabled", Boolean.class, false)) {
                return "idgen.redis.buckets.enabled=true";
            }
            return null;
        }
    }

    /**
     * Matches {@code idgen.segment.store=redis} or {@code dual}.
     */
    static final class RedisSegmentStoreSelected extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String store = context.getEnvironment().getProperty("idgen.segment.store", "jdbc");
            boolean redis = "redis".equalsIgnoreCase(store) || "dual".equalsIgnoreCase(store);
            return redis ? ConditionOutcome.match("idgen.segment.store=" + store)
                    : ConditionOutcome.noMatch("idgen.segment.store=" + store);
        }
    }
}
