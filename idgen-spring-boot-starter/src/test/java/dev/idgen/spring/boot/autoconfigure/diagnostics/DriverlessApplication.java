package dev.idgen.spring.boot.autoconfigure.diagnostics;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.logging.LogFactory;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * An application whose class path lacks a JDBC driver, as a user's does who forgot the dependency: the test class path
 * without the driver's jar, in a class loader of its own (a {@code FilteredClassLoader} hides a class from the context
 * but not from Hikari, which loads the driver through its own class loader).
 */
final class DriverlessApplication {

    private DriverlessApplication() {}

    /**
     * Starts the application without the jars whose path contains {@code jarPart} and returns what Spring Boot's
     * failure report says: description, action and the cause chain, or null when it started.
     */
    static String[] start(String jarPart, String... args) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains(jarPart)) {
                urls.add(new File(entry).toURI().toURL());
            }
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader =
                new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Thread.currentThread().setContextClassLoader(loader);
            Method run =
                    loader.loadClass(DriverlessApplication.class.getName()).getDeclaredMethod("run", String[].class);
            run.setAccessible(true);
            return (String[]) run.invoke(null, (Object) args);
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** Runs inside the class loader without the driver. */
    @SuppressWarnings("unused")
    private static String[] run(String[] args) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        ConfigurableEnvironment environment = new StandardEnvironment();
        application.setEnvironment(environment);
        try {
            application.run(args).close();
            return null;
        } catch (RuntimeException failure) {
            SpringFactoriesLoader.ArgumentResolver arguments = SpringFactoriesLoader.ArgumentResolver.of(
                            Environment.class, environment)
                    .and(ConfigurableEnvironment.class, environment)
                    .and(BeanFactory.class, new DefaultListableBeanFactory());
            List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(
                            DriverlessApplication.class.getClassLoader())
                    .load(
                            FailureAnalyzer.class,
                            arguments,
                            SpringFactoriesLoader.FailureHandler.logging(
                                    LogFactory.getLog(DriverlessApplication.class)));
            StringBuilder chain = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                chain.append(t.getClass().getName())
                        .append(": ")
                        .append(t.getMessage())
                        .append('\n');
            }
            for (FailureAnalyzer analyzer : analyzers) {
                FailureAnalysis analysis = analyzer.analyze(failure);
                if (analysis != null) {
                    return new String[] {
                        analysis.getDescription(),
                        analysis.getAction(),
                        chain.toString(),
                        analyzer.getClass().getName()
                    };
                }
            }
            return new String[] {null, null, chain.toString(), null};
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({
        DataSourceAutoConfiguration.class,
        MybatisAutoConfiguration.class,
        IdgenAutoConfiguration.class
    })
    static class App {

        @Bean
        Object idsUser(IdService ids) {
            return ids.strategy();
        }
    }
}
