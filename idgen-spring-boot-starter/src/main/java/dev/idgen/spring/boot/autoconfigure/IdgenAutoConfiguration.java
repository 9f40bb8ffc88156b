package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.spi.StaticWorkerIdAssigner;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import org.springframework.beans.factory.ObjectProvider;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration for idgen: an {@link IdService} of the strategy {@code idgen.strategy} names.
 */
@AutoConfiguration(afterName = { "org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "idgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties(IdgenProperties.class)
@Import({ IdgenAutoConfiguration.SnowflakeConfiguration.class, IdgenSegmentConfiguration.class,
        IdgenTicketConfiguration.class, IdgenRedisConfiguration.class, IdgenJdbcLeaseConfiguration.class })
public final class IdgenAutoConfiguration {

    /**
     * Checks {@code idgen.strategy} and the optional dependencies it needs before any bean is created.
     */
    @Bean
    static IdgenRequirements idgenRequirements(Environment environment) {
        return new IdgenRequirements(environment);
    }

    @Bean
    @ConditionalOnMissingBean
    TimeSource idgenTimeSource() {
        return TimeSource.system();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "idgen.strategy", havingValue = "snowflake", matchIfMissing = true)
    static final class SnowflakeConfiguration {

        private static final String PREFIX = "idgen.snowflake";

        @Bean
        @ConditionalOnMissingBean
        WorkerIdAssigner idgenWorkerIdAssigner(IdgenProperties properties, ObjectProvider<WorkerIdLeaseStore> leaseStores,
                TimeSource timeSource) {
            IdgenProperties.Snowflake snowflake = properties.getSnowflake();
            if (snowflake.getWorkerIdAssigner() == IdgenProperties.WorkerIdAssignerType.STATIC) {
                long workerId = snowflake.getWorkerId();
                return InvalidIdgenProperty.rethrowAsProperty(PREFIX, () -> new StaticWorkerIdAssigner(workerId));
            }
            WorkerIdLeaseStore store = leaseStores.getIfUnique();
            if (store == null) {
                String feature = "idgen.snowflake.worker-id-assigner="
                        + snowflake.getWorkerIdAssigner().name().toLowerCase(java.util.Locale.ROOT);
                throw snowflake.getWorkerIdAssigner() == IdgenProperties.WorkerIdAssignerType.REDIS
                        ? new IdgenStartupException(feature + " needs one Spring Data Redis connection factory",
                                "Add org.springframework.boot:spring-boot-starter-data-redis and set"
                                        + " spring.data.redis.host and spring.data.redis.port")
                        : IdgenStartupException.missingDataSource(feature, null);
            }
            IdgenProperties.Lease lease = snowflake.getLease();
            return InvalidIdgenProperty.rethrowAsProperty(PREFIX + ".lease", () -> LeasingWorkerIdAssigner.builder(store)
                    .instanceId(lease.getInstanceId())
                    .ttl(lease.getTtl())
                    .renewInterval(lease.getRenewInterval())
                    .safetyMargin(lease.getSafetyMargin())
                    .reuseDelay(lease.getReuseDelay())
                    .acquireTimeout(lease.getAcquireTimeout())
                    .timeSource(timeSource)
                    .build());
        }

        @Bean
        @ConditionalOnMissingBean
        SnowflakeGenerator idgenSnowflakeGenerator(IdgenProperties properties, WorkerIdAssigner workerIdAssigner,
                TimeSource timeSource) {
            IdgenProperties.Snowflake snowflake = properties.getSnowflake();
            SnowflakeLayout layout = InvalidIdgenProperty.rethrowAsProperty(PREFIX,
                    Map.of("layoutBits", snowflake.explicitBitsProperty()), () -> snowflake.layout().build());
            try {
                return InvalidIdgenProperty.rethrowAsProperty(PREFIX, () -> SnowflakeGenerator.builder()
                        .layout(layout)
                        .workerIdAssigner(workerIdAssigner)
                        .timeSource(timeSource)
                        .maxBorrow(snowflake.getMaxBorrow())
                        .clockBackwardsTolerance(snowflake.getClockBackwardsTolerance())
                        .build());
            } catch (LayoutExhaustedException e) {
                throw new InvalidConfigurationPropertyValueException(PREFIX + ".timestamp-bits",
                        layout.timestampBits(), e.getMessage() + " (" + PREFIX + ".epoch, " + PREFIX + ".time-unit, "
                                + PREFIX + ".timestamp-bits)");
            }
        }

        @Bean
        @ConditionalOnMissingBean
        IdService idService(SnowflakeGenerator generator) {
            return SnowflakeIdService.of(generator);
        }
    }
}
