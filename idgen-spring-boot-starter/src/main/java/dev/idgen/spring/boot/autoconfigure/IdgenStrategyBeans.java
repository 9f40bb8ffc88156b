package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenStrategy;
import java.util.Locale;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * Registers one part of every strategy ({@link IdgenStrategy#health()}, {@link IdgenStrategy#meters()}) as a bean,
 * named {@code idgen<Strategy><Part>} ({@code idgenSegmentHealth}), so that the auto-configurations list no strategy
 * by hand. Each bean is made when it is first needed, and closed with the context when it is {@link AutoCloseable}.
 *
 * <p>Each definition names a static factory method ({@link #part}) and its arguments, not a supplier lambda: Spring's
 * ahead-of-time processing writes such a definition into code, while it rejects an instance supplier.
 */
public final class IdgenStrategyBeans {

    /** A part of a strategy that is a bean of its own. */
    public enum Part {
        /** {@link IdgenStrategy#health()}. */
        HEALTH("Health"),

        /** {@link IdgenStrategy#meters()}. */
        METERS("Meters");

        private final String suffix;

        Part(String suffix) {
            this.suffix = suffix;
        }

        Object of(IdgenStrategy strategy) {
            return switch (this) {
                case HEALTH -> strategy.health();
                case METERS -> strategy.meters();
            };
        }
    }

    private IdgenStrategyBeans() {}

    /**
     * @param part which part; a strategy that has none of it gets no bean
     */
    public static void register(BeanDefinitionRegistry registry, Part part) {
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            Object probe = part.of(IdgenStrategies.of(strategy));
            if (probe == null) {
                continue;
            }
            String name = "idgen" + strategy.value().substring(0, 1).toUpperCase(Locale.ROOT)
                    + strategy.value().substring(1) + part.suffix;
            if (!registry.containsBeanDefinition(name)) {
                RootBeanDefinition definition = new RootBeanDefinition(IdgenStrategyBeans.class);
                definition.setFactoryMethodName("part");
                definition.getConstructorArgumentValues().addIndexedArgumentValue(0, strategy);
                definition.getConstructorArgumentValues().addIndexedArgumentValue(1, part);
                definition.setTargetType(probe.getClass());
                registry.registerBeanDefinition(name, definition);
            }
        }
    }

    /**
     * The factory method of the beans {@link #register} defines.
     *
     * @return the strategy's part
     */
    public static Object part(IdgenProperties.Strategy strategy, Part part) {
        return part.of(IdgenStrategies.of(strategy));
    }
}
