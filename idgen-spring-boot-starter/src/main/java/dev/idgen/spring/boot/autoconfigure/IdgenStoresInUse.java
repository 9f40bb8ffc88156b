package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.core.StoreChoice;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.redis.RedisBackendConfiguration;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyNameException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Which generators use which store, as their strategies say ({@link IdgenStrategies}; for an engine, by the value of a
 * setting that chooses a store, {@link StoreChoice}), and the stores' configurations, each imported only when a
 * generator uses its store, so that no client is built for a store nothing uses. The decision sits here, above the
 * strategies, so that a store's package need not ask them.
 */
final class IdgenStoresInUse implements IdgenStoreUsers {

    static final IdgenStoresInUse INSTANCE = new IdgenStoresInUse();

    private IdgenStoresInUse() {}

    @Override
    public String consensusUse(IdgenGenerators.Definition definition, ConsensusEngine engine) {
        for (StoreChoice choice : IdgenStrategies.of(definition.strategy()).storeChoices(definition)) {
            if (engine.name().equals(choice.engine())) {
                return choice.setting();
            }
        }
        return null;
    }

    @Override
    public List<ConsensusEngine> engines() {
        return IdgenStores.ENGINES;
    }

    /**
     * Checks every strategy's store choices for {@code definition}: each value is one of the strategy's own, or an
     * engine's that keeps what the setting chooses a store for.
     *
     * @throws IdgenPropertyValueException naming the property and the values it takes
     */
    static void checkChoices(IdgenGenerators.Definition definition) {
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            for (StoreChoice choice : IdgenStrategies.of(strategy).storeChoices(definition)) {
                ConsensusEngine engine = INSTANCE.engine(choice.value());
                if (choice.builtIn().contains(choice.value())
                        || (engine != null && engine.roles().contains(choice.role()))) {
                    continue;
                }
                List<String> values = new ArrayList<>();
                choice.builtIn().forEach(value -> values.add(value.value()));
                for (ConsensusEngine other : IdgenStores.ENGINES) {
                    if (other.roles().contains(choice.role())) {
                        values.add(other.name().value());
                    }
                }
                String accepted = String.join(", ", values);
                throw new IdgenPropertyValueException(
                        choice.property(),
                        choice.value().value(),
                        "must be one of " + accepted
                                + (engine == null
                                        ? ""
                                        : ": " + engine.name() + " keeps no "
                                                + (choice.role() == StoreChoice.Role.LEASES
                                                        ? "worker id leases"
                                                        : "segments")),
                        "Set " + choice.property() + " to one of " + accepted);
            }
        }
    }

    @Override
    public String redisUse(IdgenGenerators.Definition definition) {
        return IdgenStrategies.of(definition.strategy()).redisUse(definition);
    }

    @Override
    public String remoteUse(IdgenGenerators.Definition definition) {
        return IdgenStrategies.of(definition.strategy()).remoteUse(definition);
    }

    /**
     * A condition's outcome, or no match when a generator's settings are invalid: the strategies read their sections to
     * answer, and a bad value there is reported by {@code IdgenRequirements} with Boot's failure report, naming the
     * property, rather than as a failure of this condition.
     */
    static ConditionOutcome unlessInvalid(Supplier<ConditionOutcome> outcome) {
        try {
            return outcome.get();
        } catch (InvalidConfigurationPropertyValueException
                | InvalidConfigurationPropertyNameException
                | BindException e) {
            return ConditionOutcome.noMatch("invalid idgen settings (reported at start-up): " + e.getMessage());
        }
    }

    /**
     * The configurations of the engines some generator uses ({@link ConsensusEngine#configuration()}), each recorded
     * in the conditions report with the setting that asks for it.
     */
    static final class Engines implements ImportSelector, EnvironmentAware, BeanFactoryAware {

        private Environment environment;

        private ConfigurableListableBeanFactory beanFactory;

        @Override
        public void setEnvironment(Environment environment) {
            this.environment = environment;
        }

        @Override
        public void setBeanFactory(BeanFactory beanFactory) {
            this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
        }

        @Override
        public String[] selectImports(AnnotationMetadata metadata) {
            List<String> imports = new ArrayList<>();
            for (ConsensusEngine engine : IdgenStores.ENGINES) {
                EngineInUse inUse = new EngineInUse(engine);
                ConditionOutcome outcome = inUse.getMatchOutcome(beanFactory, environment);
                ConditionEvaluationReport.get(beanFactory)
                        .recordConditionEvaluation(engine.configuration().getName(), inUse, outcome);
                if (outcome.isMatch()) {
                    imports.add(engine.configuration().getName());
                }
            }
            return imports.toArray(String[]::new);
        }
    }

    /** Whether some generator keeps its segments, its Redis windows or its worker id leases in an engine. */
    static final class EngineInUse extends SpringBootCondition {

        private final ConsensusEngine engine;

        EngineInUse(ConsensusEngine engine) {
            this.engine = engine;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return getMatchOutcome(context.getBeanFactory(), context.getEnvironment());
        }

        ConditionOutcome getMatchOutcome(ConfigurableListableBeanFactory beanFactory, Environment environment) {
            return unlessInvalid(() -> {
                IdgenGenerators generators = IdgenGenerators.ofValid(beanFactory, environment);
                IdgenGenerators.Definition user = generators == null
                        ? null
                        : generators.find(definition -> INSTANCE.consensusUse(definition, engine) != null);
                return user != null
                        ? ConditionOutcome.match(INSTANCE.consensusUse(user, engine))
                        : ConditionOutcome.noMatch("no generator uses " + engine.name());
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(RedisInUse.class)
    @Import(RedisBackendConfiguration.class)
    static class Redis {}

    @Configuration(proxyBeanMethods = false)
    @Conditional(RemoteInUse.class)
    @Import(RemoteConfiguration.class)
    static class Remote {}

    /** Matches when a Redis backend is asked for: by a generator, or by readable IDs. */
    static final class RedisInUse extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return unlessInvalid(() -> {
                String why = INSTANCE.redisUse(
                        IdgenGenerators.ofValid(context.getBeanFactory(), context.getEnvironment()),
                        context.getEnvironment().getProperty("idgen.redis.buckets.enabled", Boolean.class, false));
                return why != null ? ConditionOutcome.match(why) : ConditionOutcome.noMatch("no idgen Redis backend");
            });
        }
    }

    /** Matches when some generator takes its segments from idgen servers. */
    static final class RemoteInUse extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return unlessInvalid(() -> {
                IdgenGenerators generators =
                        IdgenGenerators.ofValid(context.getBeanFactory(), context.getEnvironment());
                IdgenGenerators.Definition user = generators == null
                        ? null
                        : generators.find(definition -> INSTANCE.remoteUse(definition) != null);
                return user != null
                        ? ConditionOutcome.match(INSTANCE.remoteUse(user))
                        : ConditionOutcome.noMatch("no generator uses remote");
            });
        }
    }
}
