package dev.idgen.spring.boot.autoconfigure.health;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategyBeans;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorHealth;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.redis.RedisHealth;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteHealth;
import dev.idgen.spring.boot.autoconfigure.remote.SharedRemoteStore;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The {@code idgen} health contributor, when Spring Boot's health API is on the classpath
 * ({@code management.health.idgen.enabled} turns it off).
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(IdService.class)
@ConditionalOnEnabledHealthIndicator("idgen")
@Import(IdgenHealthContributorAutoConfiguration.StrategyHealthRegistrar.class)
public final class IdgenHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "idgenHealthIndicator")
    @Conditional(NoNamedGenerators.class)
    IdgenHealthIndicator idgenHealthIndicator(IdService idService, List<IdgenGeneratorHealth> contributors) {
        return new IdgenHealthIndicator(RoutingIdService.DEFAULT_GENERATOR, idService, contributors);
    }

    /**
     * With named generators (and idgen's own routing service): one component per generator.
     */
    @Bean
    @ConditionalOnMissingBean(name = {"idgenHealthIndicator", "idgenHealthContributor"})
    @Conditional(NamedGenerators.class)
    IdgenGeneratorsHealthContributor idgenHealthContributor(
            IdService idService, List<IdgenGeneratorHealth> contributors) {
        // The application's own IdService, if it defined one, is the only generator idgen can see.
        return new IdgenGeneratorsHealthContributor(RoutingIdService.generatorsOf(idService), contributors);
    }

    /**
     * Redis's part, when Lettuce is there: the topology for every generator, the redis strategy's counters, and the
     * readable-ID buckets with the default generator.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.lettuce.core.RedisClient")
    static class RedisHealthConfiguration {

        @Bean
        RedisHealth idgenRedisHealth(
                ObjectProvider<RedisScriptExecutor> executor, ObjectProvider<ReadableIdService> readableIds) {
            return new RedisHealth(executor.getIfUnique(), readableIds.getIfUnique());
        }
    }

    /**
     * The idgen servers' part, when a generator takes its segments from them: each server's breaker and the check.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.idgen.client.RemoteSegmentStore")
    @ConditionalOnBean(type = "dev.idgen.spring.boot.autoconfigure.remote.SharedRemoteStore")
    static class RemoteHealthConfiguration {

        @Bean
        RemoteHealth idgenRemoteHealth(SharedRemoteStore shared) {
            return new RemoteHealth(shared.store(), shared.generators());
        }
    }

    /**
     * Matches when no generator of its own is configured: {@code idgen} is then one indicator, as it always was.
     */
    static final class NoNamedGenerators extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            IdgenGenerators generators = IdgenGenerators.ofValid(context.getBeanFactory(), context.getEnvironment());
            return generators == null || !generators.hasOwnGenerators()
                    ? ConditionOutcome.match("no idgen.generators")
                    : ConditionOutcome.noMatch("idgen.generators");
        }
    }

    /**
     * Matches when a generator of its own is configured.
     */
    static final class NamedGenerators extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            IdgenGenerators generators = IdgenGenerators.ofValid(context.getBeanFactory(), context.getEnvironment());
            return generators == null || !generators.hasOwnGenerators()
                    ? ConditionOutcome.noMatch("no idgen.generators")
                    : ConditionOutcome.match("idgen.generators");
        }
    }

    /**
     * Each strategy's part of a generator's health ({@link IdgenStrategy#health()}), as a bean.
     */
    static final class StrategyHealthRegistrar implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            IdgenStrategyBeans.register(registry, IdgenStrategyBeans.Part.HEALTH);
        }
    }
}
