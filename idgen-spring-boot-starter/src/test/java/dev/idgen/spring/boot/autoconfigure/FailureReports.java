package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * What Spring Boot's failure report would say about a context that failed: the analyzers registered in
 * {@code META-INF/spring.factories} (Boot's and idgen's), sorted as Boot sorts them, the first that answers.
 */
final class FailureReports {

    private FailureReports() {}

    /**
     * @param environment the failed context's environment, where analyzers look up where a property was set
     */
    static FailureAnalysis report(AssertableApplicationContext context, ConfigurableEnvironment environment) {
        assertThat(context).hasFailed();
        Throwable failure = context.getStartupFailure();
        SpringFactoriesLoader.ArgumentResolver arguments = SpringFactoriesLoader.ArgumentResolver.of(
                        Environment.class, environment)
                .and(ConfigurableEnvironment.class, environment)
                .and(BeanFactory.class, new DefaultListableBeanFactory());
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(
                        FailureReports.class.getClassLoader())
                .load(
                        FailureAnalyzer.class,
                        arguments,
                        SpringFactoriesLoader.FailureHandler.logging(LogFactory.getLog(FailureReports.class)));
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        throw new AssertionError("No failure analyzer reported " + failure, failure);
    }

    /**
     * @return the property a context's start-up failed on: the failure's most specific cause, which must be a
     *     {@link InvalidConfigurationPropertyValueException}
     */
    static InvalidConfigurationPropertyValueException invalidProperty(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
        assertThat(cause).isInstanceOf(InvalidConfigurationPropertyValueException.class);
        return (InvalidConfigurationPropertyValueException) cause;
    }
}
