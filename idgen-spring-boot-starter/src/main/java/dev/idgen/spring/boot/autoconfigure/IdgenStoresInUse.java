package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStoreUsers;
import dev.idgen.spring.boot.autoconfigure.etcd.EtcdConfiguration;
import dev.idgen.spring.boot.autoconfigure.redis.RedisBackendConfiguration;
import dev.idgen.spring.boot.autoconfigure.remote.RemoteConfiguration;
import dev.idgen.spring.boot.autoconfigure.zookeeper.ZooKeeperConfiguration;
import java.util.function.Supplier;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyNameException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Which generators use which store, as their strategies say ({@link IdgenStrategies}), and the stores'
 * configurations, each imported only when a generator uses its store, so that no client is built for a store nothing
 * uses. The decision sits here, above the strategies, so that a store's package need not ask them.
 */
final class IdgenStoresInUse implements IdgenStoreUsers {

    static final IdgenStoresInUse INSTANCE = new IdgenStoresInUse();

    private IdgenStoresInUse() {}

    @Override
    public String consensusUse(IdgenGenerators.Definition definition, ConsensusEngine engine) {
        return IdgenStrategies.of(definition.strategy()).consensusUse(definition, engine);
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

    @Configuration(proxyBeanMethods = false)
    @Conditional(EtcdInUse.class)
    @Import(EtcdConfiguration.class)
    static class Etcd {}

    @Configuration(proxyBeanMethods = false)
    @Conditional(ZooKeeperInUse.class)
    @Import(ZooKeeperConfiguration.class)
    static class ZooKeeper {}

    @Configuration(proxyBeanMethods = false)
    @Conditional(RedisInUse.class)
    @Import(RedisBackendConfiguration.class)
    static class Redis {}

    @Configuration(proxyBeanMethods = false)
    @Conditional(RemoteInUse.class)
    @Import(RemoteConfiguration.class)
    static class Remote {}

    /** Matches when some generator uses etcd. */
    static final class EtcdInUse extends ConsensusEngineInUse {

        EtcdInUse() {
            super(ConsensusEngine.ETCD);
        }
    }

    /** Matches when some generator uses ZooKeeper. */
    static final class ZooKeeperInUse extends ConsensusEngineInUse {

        ZooKeeperInUse() {
            super(ConsensusEngine.ZOOKEEPER);
        }
    }

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
