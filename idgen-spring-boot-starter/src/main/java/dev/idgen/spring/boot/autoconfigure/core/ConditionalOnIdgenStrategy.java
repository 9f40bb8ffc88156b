package dev.idgen.spring.boot.autoconfigure.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a generator uses the strategy: any generator, or only the default one. Decided by
 * {@link IdgenGenerators}, the one place that reads the strategies.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(ConditionalOnIdgenStrategy.OnIdgenStrategy.class)
public @interface ConditionalOnIdgenStrategy {

    /** The strategy. */
    IdgenProperties.Strategy value();

    /** Whether only the default generator counts (its pieces are beans of their own), or any generator. */
    boolean defaultOnly() default false;

    final class OnIdgenStrategy extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Map<String, Object> attributes =
                    metadata.getAnnotationAttributes(ConditionalOnIdgenStrategy.class.getName());
            IdgenProperties.Strategy strategy = (IdgenProperties.Strategy) attributes.get("value");
            boolean defaultOnly = (Boolean) attributes.get("defaultOnly");
            IdgenGenerators generators = IdgenGenerators.ofValid(context.getBeanFactory(), context.getEnvironment());
            boolean match = generators != null
                    && (defaultOnly ? generators.defaultGenerator().strategy() == strategy : generators.uses(strategy));
            String what = (defaultOnly ? "the default generator" : "a generator") + " uses " + strategy.value();
            return match ? ConditionOutcome.match(what) : ConditionOutcome.noMatch("no " + what.substring(2));
        }
    }
}
