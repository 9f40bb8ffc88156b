package dev.idgen.spring.boot.autoconfigure.diagnostics;

import dev.idgen.core.InvalidArgumentException;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Turns the core's {@link InvalidArgumentException}, which names a builder argument, into Spring Boot's
 * {@link InvalidConfigurationPropertyValueException}, which names the property, so that a bad setting fails start-up
 * with the property, the value and the rule.
 */
public final class InvalidIdgenProperty {

    private static final Pattern CAMEL_WORD = Pattern.compile("\\b[a-z]+(?:[A-Z][a-z0-9]*)+\\b|\\bepoch\\b");

    /** Core argument names whose property is not simply the kebab-case form. */
    private static final Map<String, String> RENAMED = Map.of("tickUnit", "time-unit");

    private InvalidIdgenProperty() {}

    /**
     * Runs {@code action}, reporting an invalid argument as the property under {@code prefix} it came from.
     */
    public static <T> T rethrowAsProperty(String prefix, Supplier<T> action) {
        return rethrowAsProperty(prefix, Map.of(), action);
    }

    /**
     * Runs {@code action}, reporting an invalid argument as the property under {@code prefix} it came from;
     * {@code renamed} maps arguments whose property depends on the configuration.
     */
    public static <T> T rethrowAsProperty(String prefix, Map<String, String> renamed, Supplier<T> action) {
        try {
            return action.get();
        } catch (InvalidArgumentException e) {
            String property = renamed.containsKey(e.argument())
                    ? prefix + "." + renamed.get(e.argument())
                    : property(prefix, e.argument());
            throw new InvalidConfigurationPropertyValueException(property, e.value(), reason(prefix, e.getMessage()));
        }
    }

    public static String property(String prefix, String argument) {
        String name = RENAMED.getOrDefault(
                argument, argument.replaceAll("([A-Z])", "-$1").toLowerCase());
        return prefix + "." + name;
    }

    private static String reason(String prefix, String message) {
        Matcher matcher = CAMEL_WORD.matcher(message);
        StringBuilder reason = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(reason, Matcher.quoteReplacement(property(prefix, matcher.group())));
        }
        matcher.appendTail(reason);
        return reason.toString();
    }
}
