package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import java.util.Set;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when some generator keeps its segments, its Redis windows or its worker id leases in the engine, so that no
 * client is built for an engine nothing uses.
 */
public abstract class ConsensusEngineInUse extends SpringBootCondition {

    private final ConsensusEngine engine;

    protected ConsensusEngineInUse(ConsensusEngine engine) {
        this.engine = engine;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return IdgenStoresInUse.unlessInvalid(() -> {
            IdgenGenerators generators = IdgenGenerators.ofValid(context.getBeanFactory(), context.getEnvironment());
            IdgenGenerators.Definition user = generators == null
                    ? null
                    : generators.find(definition -> IdgenStoresInUse.INSTANCE.consensusUse(definition, engine) != null);
            return user != null
                    ? ConditionOutcome.match(IdgenStoresInUse.INSTANCE.consensusUse(user, engine))
                    : ConditionOutcome.noMatch("no generator uses " + engine.value());
        });
    }

    /**
     * @return the names of the generators that use {@code engine}
     */
    public static Set<String> users(IdgenGenerators generators, ConsensusEngine engine) {
        return IdgenStoresInUse.INSTANCE.consensusUsers(generators, engine);
    }
}
