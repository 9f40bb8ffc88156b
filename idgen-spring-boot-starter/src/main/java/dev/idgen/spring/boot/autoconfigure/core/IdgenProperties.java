package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.NameLimit;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Configuration properties for idgen: the default generator's settings ({@link GeneratorProperties}, the same as a
 * named generator's), and those the application has once.
 */
@ConfigurationProperties("idgen")
public class IdgenProperties extends GeneratorProperties implements InitializingBean {

    /** The keys below {@code idgen} that only the top level has: set under a generator they are refused. */
    static final List<String> SHARED = List.of("admin", "enabled");

    /**
     * Whether to configure idgen at all.
     */
    private boolean enabled = true;

    /**
     * How many names (sequences) one instance serves, from 1 to 1000000, on the strategies that keep state in memory
     * per name: segment (two buffers and meters per name) and redis (a window per name). A new name past the limit
     * is refused (NameLimitExceededException, HTTP 400 from a web controller); names already served keep working.
     * Names are meant to be a fixed set such as 'orders', never values taken from requests.
     */
    private int maxNames = 1000; // SegmentIdService.DEFAULT_MAX_NAMES, written out for the metadata

    private final Admin admin = new Admin();

    /**
     * Generators of their own, by name: 'idgen.generators.invoice.strategy=ticket' makes IdService.nextId("invoice")
     * draw from a ticket generator, whatever idgen.strategy says. Each takes the same settings as the top level
     * (idgen.generators.invoice.ticket.table, idgen.generators.coupon.segment.step, ...) and inherits every one it
     * leaves unset. Names follow the sequence name rule; 'default' is the top-level generator's.
     */
    private final Map<String, GeneratorProperties> generators = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getMaxNames() {
        return maxNames;
    }

    public void setMaxNames(int maxNames) {
        this.maxNames = maxNames;
    }

    /**
     * @return idgen.max-names, checked
     * @throws InvalidConfigurationPropertyValueException naming
     *         idgen.max-names and its range
     */
    public int checkedMaxNames() {
        return InvalidIdgenProperty.rethrowAsProperty("idgen", () -> NameLimit.check(maxNames));
    }

    public Admin getAdmin() {
        return admin;
    }

    public Map<String, GeneratorProperties> getGenerators() {
        return generators;
    }

    /**
     * Administrative operations, all off by default.
     */
    public static class Admin {

        /**
         * Whether a ticket sequence may be reset to zero (an explicit call, never automatic). Every ID issued before a
         * reset is issued again after it.
         */
        private boolean resetEnabled = false;

        public boolean isResetEnabled() {
            return resetEnabled;
        }

        public void setResetEnabled(boolean resetEnabled) {
            this.resetEnabled = resetEnabled;
        }
    }

    /**
     * @return the configured strategy
     * @throws InvalidConfigurationPropertyValueException naming {@code idgen.strategy} and the allowed values
     */
    public Strategy strategy() {
        return getStrategy();
    }

    @Override
    public void afterPropertiesSet() {
        strategy();
    }

    /**
     * The strategies {@code idgen.strategy} accepts.
     */
    public enum Strategy {

        /** Snowflake: timestamp, worker id and sequence; no server at run time. */
        SNOWFLAKE,

        /** Segments (号段): blocks of IDs leased from a store and served from memory. */
        SEGMENT,

        /**
         * Flickr-style ticket servers: a database row update per call, no caching; concurrent calls for one name share
         * one update.
         */
        TICKET,

        /** One Redis {@code INCR} per call, inside windows reserved from a database. */
        REDIS;

        /**
         * @return the property value, for example {@code snowflake}
         */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Strategy of(String value) {
            return of(value, "idgen.strategy");
        }

        /**
         * @param value a property value, for example {@code Ticket}
         * @param property the property it was read from, for the error
         * @return the strategy it names, compared ignoring case
         * @throws InvalidConfigurationPropertyValueException naming {@code property} and the allowed values
         */
        static Strategy of(String value, String property) {
            for (Strategy candidate : values()) {
                // Exact but for case, as @ConditionalOnProperty(havingValue) compares: no trimming here either.
                if (value != null && candidate.value().equalsIgnoreCase(value)) {
                    return candidate;
                }
            }
            throw new IdgenPropertyValueException(
                    property,
                    value,
                    "must be one of "
                            + Arrays.stream(values()).map(Strategy::value).collect(Collectors.joining(", ", "[", "]")),
                    "Set " + property + " to one of "
                            + Arrays.stream(values()).map(Strategy::value).collect(Collectors.joining(", "))
                            + " (unset, it is snowflake)");
        }
    }
}
