package dev.idgen.spring.boot.autoconfigure;

import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * Registers one part of every strategy ({@link IdgenStrategy#health()}, {@link IdgenStrategy#meters()}) as a bean,
 * named {@code idgen<Strategy><Part>} ({@code idgenSegmentHealth}), so that the auto-configurations list no strategy
 * by hand. Each bean is made when it is first needed, and closed with the context when it is {@link AutoCloseable}.
 */
public final class IdgenStrategyBeans {

    private IdgenStrategyBeans() {}

    /**
     * @param part the strategy's part, or null when it has none
     * @param suffix the bean name's end: {@code Health}
     */
    public static void register(BeanDefinitionRegistry registry, Function<IdgenStrategy, ?> part, String suffix) {
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            Object probe = part.apply(strategy.descriptor());
            if (probe == null) {
                continue;
            }
            String name = "idgen" + strategy.value().substring(0, 1).toUpperCase(Locale.ROOT)
                    + strategy.value().substring(1) + suffix;
            if (!registry.containsBeanDefinition(name)) {
                registry.registerBeanDefinition(
                        name, definition(probe.getClass(), () -> part.apply(strategy.descriptor())));
            }
        }
    }

    private static <T> RootBeanDefinition definition(Class<T> type, Supplier<?> supplier) {
        return new RootBeanDefinition(type, () -> type.cast(supplier.get()));
    }
}
