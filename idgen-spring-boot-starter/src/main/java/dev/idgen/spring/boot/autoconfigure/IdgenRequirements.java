package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.ReadableIdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Checks idgen's settings before any bean is created: an unknown {@code idgen.strategy}, and an optional dependency
 * that the chosen strategy, form or option needs but the classpath lacks (Lettuce, spring-boot-jdbc, idgen-forms).
 * Without this check an unknown strategy surfaces as "a bean of type IdService could not be found" in whichever bean
 * injects it first, and a missing library as a raw {@link NoClassDefFoundError}.
 *
 * <p>A requirement is waived when the application defines the piece itself (its own {@code IdService},
 * {@code SegmentStore}, ...), as idgen's {@code @ConditionalOnMissingBean} back-offs would let it.
 */
final class IdgenRequirements implements BeanFactoryPostProcessor {

    private static final String OWN_CONFIGURATION = IdgenRequirements.class.getPackageName() + ".";

    private final Environment environment;

    IdgenRequirements(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        IdgenGenerators generators = IdgenGenerators.of(beanFactory, environment);
        IdgenGeneratorKeys.refuseUnknown(environment);
        IdgenStrategies.bindEverySection(generators);
        ClassLoader classLoader = beanFactory.getBeanClassLoader();
        for (IdgenGenerators.Definition definition : generators.all()) {
            List<IdgenStrategy.Requirement> requirements =
                    new ArrayList<>(IdgenStrategies.of(definition.strategy()).requirements(definition));
            for (ConsensusEngine engine : IdgenStores.ENGINES) {
                String use = IdgenStoresInUse.INSTANCE.consensusUse(definition, engine);
                if (use != null) {
                    requirements.add(engine.requirement(use, definition));
                }
            }
            for (IdgenStrategy.Requirement requirement : requirements) {
                require(
                        requirement.dependency(),
                        requirement.feature(),
                        classLoader,
                        beanFactory,
                        requirement.waivedByArray());
            }
            if (definition.form().needsFormsModule()) {
                // The default generator's form is the IdForms bean, which the application may define itself.
                require(
                        IdgenDependency.FORMS,
                        definition.property("form") + "=" + definition.form().value(),
                        classLoader,
                        beanFactory,
                        definition.isDefault() ? new Class<?>[] {IdForms.class} : new Class<?>[0]);
            }
        }
        if (Binder.get(environment)
                .bind("idgen.redis.buckets.enabled", Boolean.class)
                .orElse(false)) {
            require(
                    IdgenDependency.REDIS,
                    "idgen.redis.buckets.enabled=true",
                    classLoader,
                    beanFactory,
                    ReadableIdService.class);
        }
    }

    private static void require(
            IdgenDependency dependency,
            String feature,
            ClassLoader classLoader,
            ConfigurableListableBeanFactory beanFactory,
            Class<?>... ownPieces) {
        String missing = dependency.missingClass(classLoader);
        if (missing != null && !definedByApplication(beanFactory, ownPieces)) {
            throw IdgenStartupException.missingDependency(
                    feature, dependency.what(), missing, dependency.coordinates());
        }
    }

    private static boolean definedByApplication(ConfigurableListableBeanFactory beanFactory, Class<?>... types) {
        for (Class<?> type : types) {
            String[] names;
            try {
                // No eager initialisation: this runs before any bean exists.
                names = beanFactory.getBeanNamesForType(type, true, false);
            } catch (LinkageError e) {
                // Predicting a type touched the very classes that are missing: nothing the application defined.
                continue;
            }
            for (String name : names) {
                if (!beanFactory.containsBeanDefinition(name)) {
                    return true;
                }
                BeanDefinition definition = beanFactory.getBeanDefinition(name);
                String factory = definition.getFactoryBeanName();
                String declaring = factory != null && beanFactory.containsBeanDefinition(factory)
                        ? beanFactory.getBeanDefinition(factory).getBeanClassName()
                        : definition.getBeanClassName();
                if (!isIdgenConfiguration(declaring)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isIdgenConfiguration(String className) {
        if (className == null) {
            return false;
        }
        int nested = className.indexOf('$');
        String topLevel = nested < 0 ? className : className.substring(0, nested);
        return topLevel.startsWith(OWN_CONFIGURATION) && topLevel.endsWith("Configuration");
    }
}
