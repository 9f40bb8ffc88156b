package dev.idgen.spring.boot.autoconfigure.metrics;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategyBeans;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.redis.RedisMeters;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteMeters;
import dev.idgen.spring.boot.autoconfigure.remote.SharedRemoteStore;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Micrometer meters for idgen, when Micrometer is on the classpath. Spring Boot binds every {@link MeterBinder} bean
 * to its meter registries.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(IdService.class)
@Import(IdgenMetricsAutoConfiguration.StrategyMetersRegistrar.class)
public final class IdgenMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    IdgenMeterBinder idgenMeterBinder(IdService idService, List<IdgenGeneratorMeters> meters) {
        return new IdgenMeterBinder(idService, meters);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory")
    static class RedisMetersConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RedisMeters idgenRedisMeterBinder(
                ObjectProvider<RedisRoundTrips> roundTrips,
                ObjectProvider<SegmentStore> segmentStores,
                ObjectProvider<RedisWindowedCounter> counters,
                ObjectProvider<ReadableIdService> readableIds) {
            return new RedisMeters(
                    roundTrips.getIfAvailable(),
                    segmentStores.getIfUnique(),
                    counters.getIfUnique(),
                    readableIds.getIfUnique());
        }
    }

    /**
     * The idgen servers' meters, when a generator takes its segments from them.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.idgen.client.RemoteSegmentStore")
    @ConditionalOnBean(type = "dev.idgen.spring.boot.autoconfigure.remote.SharedRemoteStore")
    static class RemoteMetersConfiguration {

        @Bean
        @ConditionalOnMissingBean
        RemoteMeters idgenRemoteMeterBinder(SharedRemoteStore shared) {
            return new RemoteMeters(shared.store());
        }
    }

    /**
     * Each strategy's meters ({@link IdgenStrategy#meters()}), as a bean.
     */
    static final class StrategyMetersRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            IdgenStrategyBeans.register(registry, IdgenStrategyBeans.Part.METERS);
        }
    }
}
