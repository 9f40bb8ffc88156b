package dev.idgen.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Reports an {@link IdgenPropertyValueException} like Spring Boot's own analyzer of invalid property values (the
 * property, its value, where it was set and the rule), with idgen's action: which values are allowed, which settings
 * to change. Ordered before Boot's analyzer, which would otherwise take it as any invalid value.
 */
final class IdgenPropertyFailureAnalyzer extends AbstractFailureAnalyzer<IdgenPropertyValueException>
        implements Ordered {

    private final Environment environment;

    /**
     * @param environment where the property was set, for its origin; may be null
     */
    IdgenPropertyFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, IdgenPropertyValueException cause) {
        StringBuilder description = new StringBuilder("Invalid value '")
                .append(cause.getValue())
                .append("' for configuration property '")
                .append(cause.getName())
                .append("'");
        Origin origin = origin(cause.getName());
        if (origin != null) {
            description.append(" (originating from '").append(origin).append("')");
        }
        description.append(": ").append(cause.getReason());
        return new FailureAnalysis(description.toString(), cause.action(), cause);
    }

    private Origin origin(String name) {
        if (environment == null || !ConfigurationPropertyName.isValid(name)) {
            return null;
        }
        ConfigurationPropertyName property = ConfigurationPropertyName.of(name);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty found = source.getConfigurationProperty(property);
            if (found != null) {
                return found.getOrigin();
            }
        }
        return null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
