package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.form.FormOnlyIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorFactory;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.forms.IdgenFormFactory;
import dev.idgen.spring.boot.autoconfigure.forms.IdgenForms;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcLeaseConfiguration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Auto-configuration for idgen: an {@link IdService} whose default generator has the strategy {@code idgen.strategy}
 * names, and a generator of its own for each {@code idgen.generators.<name>}. With named generators the service is a
 * {@link RoutingIdService}, and each named generator's sequence is also a bean: inject it with
 * {@code @Qualifier("invoice") IdSequence invoice}.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration"
        })
@ConditionalOnBooleanProperty(name = "idgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties
@Import({
    IdgenSettingsBeans.class,
    IdgenAutoConfiguration.StrategyConfigurations.class,
    IdgenStoresInUse.Redis.class,
    JdbcLeaseConfiguration.class,
    IdgenStoresInUse.Engines.class,
    IdgenStoresInUse.Remote.class
})
public final class IdgenAutoConfiguration {

    /**
     * Checks the strategies and the optional dependencies they need before any bean is created.
     */
    @Bean
    static IdgenRequirements idgenRequirements(Environment environment) {
        return new IdgenRequirements(environment);
    }

    /**
     * Registers each named generator's {@link IdSequence} under its name as a qualifier.
     */
    @Bean
    static BeanDefinitionRegistryPostProcessor idgenSequenceRegistrar(Environment environment) {
        return new BeanDefinitionRegistryPostProcessor() {

            @Override
            public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
                if (AotDetector.useGeneratedArtifacts()) {
                    // Processed ahead of time: the generated registrations already hold the definitions below
                    // (this method ran while the application was processed); registering them again would clash.
                    return;
                }
                IdgenGenerators generators = IdgenGenerators.ofValid(registry, environment);
                if (generators == null) {
                    return;
                }
                for (String name : generators.named().keySet()) {
                    registry.registerBeanDefinition(
                            "idgenSequence." + name, IdgenQualifiedBeans.sequenceDefinition(name));
                }
                Set<String> formed = new LinkedHashSet<>(generators.named().keySet());
                formed.addAll(generators.standalone().keySet());
                for (String name : formed) {
                    registry.registerBeanDefinition("idgenForm." + name, IdgenQualifiedBeans.formDefinition(name));
                }
            }
        };
    }

    /** Which generators use which store, for the stores' own wiring and messages. */
    @Bean
    static IdgenStoreUsers idgenStoreUsers() {
        return IdgenStoresInUse.INSTANCE;
    }

    @Bean
    @ConditionalOnMissingBean
    TimeSource idgenTimeSource() {
        return TimeSource.system();
    }

    /**
     * The default generator alone, or every generator behind a {@link RoutingIdService}. A generator that fails to
     * start closes the ones built before it.
     */
    @Bean
    @ConditionalOnMissingBean
    IdService idService(IdgenGenerators generators, List<IdgenGeneratorFactory> factories, TimeSource timeSource) {
        IdgenGeneratorChecks.check(generators);
        generators.all().forEach(IdgenFormFactory::check);
        generators.standalone().values().forEach(IdgenFormFactory::check);
        Map<IdgenProperties.Strategy, IdgenGeneratorFactory> byStrategy = new EnumMap<>(IdgenProperties.Strategy.class);
        factories.forEach(factory -> byStrategy.put(factory.strategy(), factory));
        IdService defaultGenerator = create(byStrategy, generators.defaultGenerator(), timeSource);
        if (generators.named().isEmpty() && generators.standalone().isEmpty()) {
            return defaultGenerator;
        }
        Map<String, IdService> named = new LinkedHashMap<>();
        try {
            generators
                    .named()
                    .forEach((name, definition) -> named.put(name, create(byStrategy, definition, timeSource)));
            generators
                    .standalone()
                    .forEach(
                            (name, definition) -> named.put(name, IdgenFormFactory.standalone(definition, timeSource)));
            return new RoutingIdService(defaultGenerator, named);
        } catch (RuntimeException e) {
            named.values().forEach(service -> closeQuietly(service, e));
            closeQuietly(defaultGenerator, e);
            throw e;
        }
    }

    /**
     * Closes the service when the context closes, before the connections it uses.
     */
    @Bean
    IdgenShutdown idgenShutdown(IdService ids) {
        return new IdgenShutdown(ids);
    }

    /**
     * Every generator's {@link IdForm}: its IDs as strings, with their decode.
     */
    @Bean
    @ConditionalOnMissingBean
    IdForms idForms(IdService ids, IdgenGenerators generators) {
        IdgenForms forms = new IdgenForms(ids, generators.defaultGenerator());
        Map<String, IdService> routed = RoutingIdService.generatorsOf(ids);
        generators
                .named()
                .forEach((name, definition) ->
                        forms.put(name, IdgenFormFactory.form(definition, name, ids.sequence(name), routed.get(name))));
        generators.standalone().forEach((name, definition) -> {
            if (routed.get(name) instanceof FormOnlyIdService formOnly) {
                forms.put(name, formOnly.form());
            }
        });
        return forms;
    }

    private static IdService create(
            Map<IdgenProperties.Strategy, IdgenGeneratorFactory> factories,
            IdgenGenerators.Definition definition,
            TimeSource timeSource) {
        IdService base = create(factories, definition);
        try {
            return IdgenFormFactory.shape(definition, base, timeSource);
        } catch (RuntimeException e) {
            closeQuietly(base, e);
            throw e;
        }
    }

    private static IdService create(
            Map<IdgenProperties.Strategy, IdgenGeneratorFactory> factories, IdgenGenerators.Definition definition) {
        IdgenGeneratorFactory factory = factories.get(definition.strategy());
        if (factory == null) {
            // Only when the strategy's configuration backed off for a reason IdgenRequirements did not foresee.
            throw new IdgenStartupException(
                    definition.strategySetting() + " has no generator factory: its" + " configuration did not load",
                    "Check the auto-configuration report (--debug) for idgen's "
                            + definition.strategy().value() + " configuration");
        }
        return factory.create(definition);
    }

    private static void closeQuietly(IdService service, RuntimeException failure) {
        if (service instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    /**
     * Each strategy's configuration ({@link IdgenStrategy#configuration()}), in the order of
     * {@link IdgenProperties.Strategy}; each matches only when a generator uses its strategy.
     */
    static final class StrategyConfigurations implements ImportSelector {

        @Override
        public String[] selectImports(AnnotationMetadata metadata) {
            return Arrays.stream(IdgenProperties.Strategy.values())
                    .map(strategy ->
                            IdgenStrategies.of(strategy).configuration().getName())
                    .toArray(String[]::new);
        }
    }
}
