package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code idgen} health contributor, when Spring Boot's health API is on the classpath
 * ({@code management.health.idgen.enabled} turns it off).
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(IdService.class)
@ConditionalOnEnabledHealthIndicator("idgen")
public final class IdgenHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "idgenHealthIndicator")
    IdgenHealthIndicator idgenHealthIndicator(IdService idService,
            org.springframework.beans.factory.ObjectProvider<dev.idgen.core.ReadableIdService> readableIds,
            org.springframework.beans.factory.BeanFactory beanFactory) {
        // Redis classes are touched only when Lettuce is there.
        Object redis = org.springframework.util.ClassUtils.isPresent("io.lettuce.core.RedisClient",
                getClass().getClassLoader()) ? RedisHealth.executor(beanFactory) : null;
        return new IdgenHealthIndicator(idService, readableIds.getIfUnique(), redis);
    }
}
