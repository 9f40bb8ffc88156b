package dev.idgen.spring.boot.autoconfigure.diagnostics;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * An invalid idgen property for which idgen knows what to do, not only the rule it broke: still Spring Boot's
 * {@link InvalidConfigurationPropertyValueException} (name, value, reason), and reported by
 * {@link IdgenPropertyFailureAnalyzer} with that action instead of Boot's general "Review the value of the property".
 */
public final class IdgenPropertyValueException extends InvalidConfigurationPropertyValueException {

    private static final long serialVersionUID = 1L;

    private final String action;

    /**
     * @param name the property
     * @param value its value
     * @param reason the rule it broke
     * @param action what to do about it
     */
    public IdgenPropertyValueException(String name, Object value, String reason, String action) {
        super(name, value, reason);
        this.action = action;
    }

    String action() {
        return action;
    }
}
