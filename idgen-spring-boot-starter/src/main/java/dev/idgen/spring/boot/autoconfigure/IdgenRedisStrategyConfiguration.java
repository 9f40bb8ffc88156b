package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisWindowedCounter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code redis} strategy: the default generator's counter is a bean the application may replace; a named
 * generator counts under its own {@code redis.*} settings.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
        "io.lettuce.core.RedisClient" })
@ConditionalOnIdgenStrategy(IdgenProperties.Strategy.REDIS)
class IdgenRedisStrategyConfiguration {

    @Bean
    IdgenGeneratorFactory idgenRedisGenerators(ObjectProvider<RedisWindowedCounter> defaultCounter,
            org.springframework.beans.factory.BeanFactory beans) {
        return new IdgenGeneratorFactory() {

            @Override
            public IdgenProperties.Strategy strategy() {
                return IdgenProperties.Strategy.REDIS;
            }

            @Override
            public IdService create(IdgenGenerators.Definition definition) {
                return new RedisIdService(definition.isDefault() ? defaultCounter.getObject()
                        : IdgenRedisConfiguration.counter(definition, beans, definition.strategySetting()));
            }
        };
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.REDIS, defaultOnly = true)
    RedisWindowedCounter idgenRedisCounter(org.springframework.beans.factory.BeanFactory beans,
            IdgenGenerators generators) {
        IdgenGenerators.Definition definition = generators.defaultGenerator();
        return IdgenRedisConfiguration.counter(definition, beans, definition.strategySetting());
    }
}
