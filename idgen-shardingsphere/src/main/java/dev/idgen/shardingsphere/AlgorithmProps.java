package dev.idgen.shardingsphere;

import dev.idgen.core.InvalidArgumentException;
import java.util.Locale;
import java.util.Properties;

/**
 * Reads an algorithm's {@code props}, failing with a message that names the algorithm type, the prop and what it
 * accepts: ShardingSphere reports the exception as it is, so the message is all a user sees.
 */
final class AlgorithmProps {

    private final String type;
    private final Properties props;

    AlgorithmProps(String type, Properties props) {
        this.type = type;
        this.props = props == null ? new Properties() : props;
    }

    /** @return the prop trimmed, or null when unset or blank */
    String text(String prop) {
        String value = raw(prop, null);
        if (value == null || value.isBlank()) {
            return null;
        }
        return value.trim();
    }

    /**
     * @return the prop as is (a password may have spaces), or the default when unset. Read with {@code get}, not
     *         {@code getProperty}: ShardingSphere's YAML puts numbers and booleans into the props as such
     *         ({@code logical-shards: 256} is an Integer), which {@code getProperty} would take for unset.
     */
    String raw(String prop, String otherwise) {
        Object value = props.get(prop);
        return value == null ? otherwise : String.valueOf(value);
    }

    int integer(String prop, int otherwise, int min, int max) {
        String value = text(prop);
        if (value == null) {
            return otherwise;
        }
        long number;
        try {
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(prop, value, "must be a whole number from " + min + " to " + max);
        }
        if (number < min || number > max) {
            throw invalid(prop, value, "must be from " + min + " to " + max);
        }
        return (int) number;
    }

    <E extends Enum<E>> E choice(String prop, Class<E> values, E otherwise) {
        String value = text(prop);
        if (value == null) {
            return otherwise;
        }
        for (E candidate : values.getEnumConstants()) {
            if (name(candidate).equals(value.toLowerCase(Locale.ROOT))) {
                return candidate;
            }
        }
        StringBuilder accepted = new StringBuilder();
        for (E candidate : values.getEnumConstants()) {
            accepted.append(accepted.length() == 0 ? "" : ", ").append(name(candidate));
        }
        throw invalid(prop, value, "must be one of " + accepted);
    }

    InvalidArgumentException invalid(String prop, Object value, String rule) {
        return new InvalidArgumentException(
                prop, value, type + " algorithm: props." + prop + " " + rule + ", but was '" + value + "'");
    }

    static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
