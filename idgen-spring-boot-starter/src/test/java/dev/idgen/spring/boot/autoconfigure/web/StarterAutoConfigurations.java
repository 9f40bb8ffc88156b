package dev.idgen.spring.boot.autoconfigure.web;

import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.util.ClassUtils;

/**
 * What an application gets from the starter: every auto-configuration its {@code AutoConfiguration.imports} lists,
 * read from the file rather than named here, so that a test fails when a class is missing from the file.
 */
final class StarterAutoConfigurations {

    private StarterAutoConfigurations() {}

    /** The starter's auto-configurations, with the given ones of Spring Boot's. */
    static AutoConfigurations with(Class<?>... springBoot) {
        ClassLoader loader = StarterAutoConfigurations.class.getClassLoader();
        List<Class<?>> classes = new java.util.ArrayList<>(List.of(springBoot));
        for (String name : ImportCandidates.load(AutoConfiguration.class, loader)) {
            if (name.startsWith("dev.idgen.")) {
                classes.add(ClassUtils.resolveClassName(name, loader));
            }
        }
        return AutoConfigurations.of(classes.toArray(Class<?>[]::new));
    }
}
