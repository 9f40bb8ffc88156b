package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for idgen, when Micrometer is on the classpath. Spring Boot binds every {@link MeterBinder} bean
 * to its meter registries.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(IdService.class)
public final class IdgenMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdgenMeterBinder idgenMeterBinder(IdService idService, java.util.List<IdgenGeneratorMeters> meters) {
        return new IdgenMeterBinder(idService, meters);
    }

    @Bean
    SnowflakeMeters idgenSnowflakeMeters() {
        return new SnowflakeMeters();
    }

    @Bean
    SegmentMeters idgenSegmentMeters() {
        return new SegmentMeters();
    }

    @Bean
    TicketMeters idgenTicketMeters() {
        return new TicketMeters();
    }

    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory")
    static class RedisMetersConfiguration {

        @Bean
        @ConditionalOnMissingBean
        IdgenRedisMeterBinder idgenRedisMeterBinder(
                org.springframework.beans.factory.ObjectProvider<dev.idgen.redis.RedisRoundTrips> roundTrips,
                org.springframework.beans.factory.ObjectProvider<dev.idgen.core.segment.SegmentStore> segmentStores,
                org.springframework.beans.factory.ObjectProvider<dev.idgen.redis.RedisWindowedCounter> counters,
                org.springframework.beans.factory.ObjectProvider<dev.idgen.core.ReadableIdService> readableIds) {
            return new IdgenRedisMeterBinder(roundTrips.getIfAvailable(), segmentStores.getIfUnique(),
                    counters.getIfUnique(), readableIds.getIfUnique());
        }
    }
}
