package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.period.Period;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The values {@code period} accepts: counting per period, or not.
 */
public enum CountingPeriod {

    /** One counter for all time. */
    NONE(null),

    /** A counter per day: IDs start with the day's key, 20261123. */
    DAILY(Period.DAILY),

    /** A counter per month: 202611. */
    MONTHLY(Period.MONTHLY),

    /** A counter per year: 2026. */
    YEARLY(Period.YEARLY);

    private final Period period;

    CountingPeriod(Period period) {
        this.period = period;
    }

    /** @return the period, or null for {@link #NONE} */
    public Period period() {
        return period;
    }

    /** @return the property value, for example {@code daily} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param value a property value, compared ignoring case
     * @param property the property it was read from, for the error
     * @throws InvalidConfigurationPropertyValueException naming {@code property} and the allowed values
     */
    public static CountingPeriod of(String value, String property) {
        for (CountingPeriod candidate : values()) {
            if (value != null && candidate.value().equalsIgnoreCase(value)) {
                return candidate;
            }
        }
        throw new InvalidConfigurationPropertyValueException(
                property,
                value,
                "must be one of "
                        + Arrays.stream(values())
                                .map(CountingPeriod::value)
                                .collect(Collectors.joining(", ", "[", "]")));
    }
}
