package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.test.services.TestServices;
import io.lettuce.core.RedisURI;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * idgen-redis without Spring: the plain Lettuce executor and every backend on it run in a class loader that has the
 * test class path without Spring's jars and refuses every {@code org.springframework} class, and never even ask for
 * one. Spring Data Redis is on this module's test class path, so without the loader the test could not tell.
 */
class RedisWithoutSpringTest {

    /**
     * Loads the class path it is given itself (not through the test's loader), and refuses and records every request
     * for a Spring class or resource, in case one is reachable another way.
     */
    private static final class SpringHidingClassLoader extends URLClassLoader {

        final Set<String> refused = ConcurrentHashMap.newKeySet();

        SpringHidingClassLoader(URL[] classPath) {
            super("without-spring", classPath, ClassLoader.getPlatformClassLoader());
        }

        private static boolean hidden(String name) {
            return name.startsWith("org.springframework.") || name.startsWith("org/springframework/");
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (hidden(name)) {
                refused.add(name);
                throw new ClassNotFoundException(name + " is hidden from this class loader");
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            if (hidden(name)) {
                refused.add(name);
                return null;
            }
            return super.getResource(name);
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            if (hidden(name)) {
                refused.add(name);
                return Collections.emptyEnumeration();
            }
            return super.getResources(name);
        }
    }

    /** The test class path without Spring's jars, as an application without Spring has it. */
    private static URL[] classPathWithoutSpring() throws IOException {
        // Surefire may start the JVM on a manifest-only jar; it names the real class path here.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.replace(File.separatorChar, '/').contains("/org/springframework/")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }

    @Test
    void thePlainLettuceExecutorAndEveryBackendRunWithoutLoadingASpringClass() throws Exception {
        assertThat(Class.forName("org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory"))
                .as("Spring is on the test class path, so only the loader keeps it away")
                .isNotNull();
        String prefix = "ns" + UUID.randomUUID().toString().substring(0, 8) + ":";
        TestServices.RedisEndpoint endpoint = TestServices.redis();
        try (SpringHidingClassLoader loader = new SpringHidingClassLoader(classPathWithoutSpring())) {
            Class<?> run = Class.forName(WithoutSpringRun.class.getName(), true, loader);
            assertThat(run.getClassLoader())
                    .as("loaded apart from the test's own classes")
                    .isSameAs(loader);
            @SuppressWarnings("unchecked")
            BiFunction<String, String, List<String>> plain = (BiFunction<String, String, List<String>>)
                    run.getConstructor().newInstance();

            // The loader is the context class loader too, as for an application a container runs in a loader of
            // its own: Lettuce looks some classes up through it (its JFR events).
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            List<String> drawn;
            thread.setContextClassLoader(loader);
            try {
                drawn = plain.apply("redis://" + endpoint.host() + ":" + endpoint.port(), prefix);
            } finally {
                thread.setContextClassLoader(previous);
            }

            assertThat(drawn.subList(0, 3)).containsExactly("1", "2", "ORD");
            assertThat(Long.parseLong(drawn.get(3))).as("a worker id").isBetween(0L, 1023L);
            // Reflection on the executor (as dependency injection does) must not need Spring either.
            assertThat(Class.forName(RedisScriptExecutor.class.getName(), false, loader)
                            .getDeclaredMethods())
                    .isNotEmpty();
            assertThat(Class.forName(RedisScriptExecutor.class.getName(), false, loader)
                            .getDeclaredConstructors())
                    .isNotEmpty();
            assertThat(loader.refused)
                    .as("Spring classes and resources asked for")
                    .isEmpty();

            // The loader does keep Spring away: the Spring adapter cannot be reflected on in it.
            Class<?> adapter = Class.forName(SpringLettuceConnectionSource.class.getName(), false, loader);
            assertThatThrownBy(adapter::getConstructors).isInstanceOf(NoClassDefFoundError.class);
            assertThat(loader.refused)
                    .contains("org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory");
        } finally {
            RedisTests.deleteKeys(RedisURI.create(endpoint.host(), endpoint.port()), prefix);
        }
    }
}
