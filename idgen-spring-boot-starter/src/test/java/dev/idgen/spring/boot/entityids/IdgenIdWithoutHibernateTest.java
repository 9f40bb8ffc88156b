package dev.idgen.spring.boot.entityids;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * Hibernate is an optional dependency, yet {@code @IdgenId} is meta-annotated with Hibernate's
 * {@code @IdGeneratorType}: in a class loader that has the test class path without Hibernate, the JVM drops the
 * meta-annotation, a whole auto-configured application starts, and the other integrations fill IDs in.
 */
class IdgenIdWithoutHibernateTest {

    @Test
    void theStarterWorksWithoutHibernateOnTheClasspath() throws Exception {
        // Surefire runs tests from a manifest-only jar; it passes the real class path in this property.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            String path = entry.replace(File.separatorChar, '/');
            if (path.contains("/org/hibernate/") || path.contains("/spring-boot-hibernate/")) {
                left.add(path);
            } else {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        assertThat(left).as("Hibernate jars left out").anyMatch(path -> path.contains("hibernate-core"));
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader withoutHibernate =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(withoutHibernate);
            @SuppressWarnings("unchecked")
            Callable<List<String>> check = (Callable<List<String>>) withoutHibernate
                    .loadClass(WithoutHibernate.class.getName())
                    .getConstructor()
                    .newInstance();
            assertThat(check.call())
                    .containsExactly(
                            "no Hibernate",
                            "@IdgenId is annotated [Documented, Retention, Target]",
                            "interceptor beans: 1",
                            "callback beans: 1",
                            "EntityManagerFactory beans: 0",
                            "filled in: true");
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }
}
