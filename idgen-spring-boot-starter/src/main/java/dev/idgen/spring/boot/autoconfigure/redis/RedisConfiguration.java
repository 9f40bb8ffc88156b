package dev.idgen.spring.boot.autoconfigure.redis;

import dev.idgen.core.IdService;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.spring.boot.autoconfigure.core.ConditionalOnIdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorFactory;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import org.springframework.beans.factory.BeanFactory;
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
@ConditionalOnClass(
        name = {
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory",
            "io.lettuce.core.RedisClient"
        })
@ConditionalOnIdgenStrategy(IdgenProperties.Strategy.REDIS)
public class RedisConfiguration {

    @Bean
    IdgenGeneratorFactory idgenRedisGenerators(ObjectProvider<RedisWindowedCounter> defaultCounter, BeanFactory beans) {
        return new IdgenGeneratorFactory() {

            @Override
            public IdgenProperties.Strategy strategy() {
                return IdgenProperties.Strategy.REDIS;
            }

            @Override
            public IdService create(IdgenGenerators.Definition definition) {
                return new RedisIdService(
                        definition.isDefault()
                                ? defaultCounter.getObject()
                                : RedisBackendConfiguration.counter(definition, beans, definition.strategySetting()));
            }
        };
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnIdgenStrategy(value = IdgenProperties.Strategy.REDIS, defaultOnly = true)
    RedisWindowedCounter idgenRedisCounter(BeanFactory beans, IdgenGenerators generators) {
        IdgenGenerators.Definition definition = generators.defaultGenerator();
        return RedisBackendConfiguration.counter(definition, beans, definition.strategySetting());
    }
}
