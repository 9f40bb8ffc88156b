package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The settings as beans, named as {@code @EnableConfigurationProperties} names them ({@code <prefix>-<class>}), so
 * that the application and {@code /actuator/configprops} see them: {@code idgen.*} and each strategy's and store's
 * section at the top level ({@code idgen.snowflake.*}, ...). The generators bind their own copies
 * ({@code IdgenGenerators}), as they always have; these beans are what the top level says.
 *
 * <p>{@link IdgenProperties} keeps the name it had before it moved to the core package, so that nothing that names the
 * bean changes.
 */
final class IdgenSettingsBeans implements ImportBeanDefinitionRegistrar {

    /** The name {@code @EnableConfigurationProperties(IdgenProperties.class)} gave it in the root package. */
    static final String IDGEN_PROPERTIES = "idgen-dev.idgen.spring.boot.autoconfigure.IdgenProperties";

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        register(registry, IDGEN_PROPERTIES, IdgenProperties.class);
        for (IdgenSettings<?> section : IdgenStrategies.sections()) {
            Class<?> type = section.type();
            String prefix = MergedAnnotations.from(type)
                    .get(ConfigurationProperties.class)
                    .getString("prefix");
            register(registry, prefix + "-" + type.getName(), type);
        }
    }

    private static void register(BeanDefinitionRegistry registry, String name, Class<?> type) {
        if (!registry.containsBeanDefinition(name)) {
            registry.registerBeanDefinition(
                    name, BeanDefinitionBuilder.genericBeanDefinition(type).getBeanDefinition());
        }
    }
}
