package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.NameLimit;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import dev.idgen.spring.boot.autoconfigure.forms.FormProperties;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.redis.RedisStrategy;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentProperties;
import dev.idgen.spring.boot.autoconfigure.segment.SegmentStrategy;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeStrategy;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketProperties;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketStrategy;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Configuration properties for idgen.
 */
@ConfigurationProperties("idgen")
public class IdgenProperties implements InitializingBean {

    /**
     * Whether to configure idgen at all.
     */
    private boolean enabled = true;

    /**
     * Which strategy issues the IDs: 'snowflake' (no server at run time), 'segment' (blocks of IDs leased from a
     * database or Redis and served from memory), 'ticket' (a database row update, shared by the calls for a name
     * that arrive together) or 'redis' (an INCRBY, shared likewise, in windows reserved from a database).
     */
    private String strategy = Strategy.SNOWFLAKE.value();

    /**
     * How many names (sequences) one instance serves, from 1 to 1000000, on the strategies that keep state in memory
     * per name: segment (two buffers and meters per name) and redis (a window per name). A new name past the limit
     * is refused (NameLimitExceededException, HTTP 400 in the sample); names already served keep working. Names are
     * meant to be a fixed set such as 'orders', never values taken from requests.
     */
    private int maxNames = SegmentIdService.DEFAULT_MAX_NAMES;

    /**
     * The form of the generator's IDs. Over a strategy's 64-bit IDs: 'number' (decimal strings), 'crockford32' (13
     * characters), 'base62' (11 characters), 'public' (encrypted, revealing nothing; needs public.keys) or 'shard'
     * (logical shard bits from a key; Snowflake only). IDs of their own, without a strategy (named generators only):
     * 'uuid-v7', 'guid' (ordered GUID), 'object-id', 'flake128' (128-bit flake) or 'simpleflake'.
     */
    private String form = "number";

    /**
     * A typed prefix for the 'crockford32' and 'base62' forms, Stripe style: lowercase letters and digits, starting
     * with a letter, up to 16, then '_' (for example 'ord_'). Decoding checks it.
     */
    private String prefix;

    @NestedConfigurationProperty
    private final FormProperties.Shard shard = new FormProperties.Shard();

    @NestedConfigurationProperty
    private final FormProperties.Public publicIds = new FormProperties.Public();

    @NestedConfigurationProperty
    private final FormProperties.Guid guid = new FormProperties.Guid();

    @NestedConfigurationProperty
    private final FormProperties.Flake128 flake128 = new FormProperties.Flake128();

    /**
     * Counting per period on the ticket, segment and redis strategies: 'none', 'daily', 'monthly' or 'yearly'. The ID
     * is the period's key (20261123, 202611, 2026) times 10^period-digits plus a number that starts at 1 each period;
     * the period is part of the counter's key, so nothing is ever reset and no number repeats across periods.
     */
    private String period = "none";

    /**
     * How many decimal digits the number within a period has: daily 1 to 10 (default 8), monthly 1 to 12 (default
     * 10), yearly 1 to 14 (default 11). The defaults keep IDs below 2^53. Past 10^digits - 1 in one period, the
     * generator refuses rather than spill into another period's numbers.
     */
    private Integer periodDigits;

    /**
     * The time zone whose midnight starts a period.
     */
    private ZoneId periodZone = FormProperties.DEFAULT_PERIOD_ZONE;

    @NestedConfigurationProperty
    private final SnowflakeProperties snowflake = new SnowflakeProperties();

    @NestedConfigurationProperty
    private final SegmentProperties segment = new SegmentProperties();

    @NestedConfigurationProperty
    private final JdbcProperties jdbc = new JdbcProperties();

    private final Admin admin = new Admin();

    /**
     * Generators of their own, by name: 'idgen.generators.invoice.strategy=ticket' makes IdService.nextId("invoice")
     * draw from a ticket generator, whatever idgen.strategy says. Each takes the same settings as the top level
     * (idgen.generators.invoice.ticket.table, idgen.generators.coupon.segment.step, ...) and inherits every one it
     * leaves unset. Names follow the sequence name rule; 'default' is the top-level generator's.
     */
    private final Map<String, Generator> generators = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getStrategy() {
        return strategy;
    }

    public void setStrategy(String strategy) {
        this.strategy = strategy;
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
        return InvalidIdgenProperty.rethrowAsProperty("idgen",
                () -> NameLimit.check(maxNames));
    }

    public String getForm() {
        return form;
    }

    public void setForm(String form) {
        this.form = form;
    }

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public FormProperties.Shard getShard() {
        return shard;
    }

    public FormProperties.Public getPublic() {
        return publicIds;
    }

    public FormProperties.Guid getGuid() {
        return guid;
    }

    public FormProperties.Flake128 getFlake128() {
        return flake128;
    }

    public String getPeriod() {
        return period;
    }

    public void setPeriod(String period) {
        this.period = period;
    }

    public Integer getPeriodDigits() {
        return periodDigits;
    }

    public void setPeriodDigits(Integer periodDigits) {
        this.periodDigits = periodDigits;
    }

    public ZoneId getPeriodZone() {
        return periodZone;
    }

    public void setPeriodZone(ZoneId periodZone) {
        this.periodZone = periodZone;
    }

    public SnowflakeProperties getSnowflake() {
        return snowflake;
    }

    public SegmentProperties getSegment() {
        return segment;
    }

    public JdbcProperties getJdbc() {
        return jdbc;
    }

    public Admin getAdmin() {
        return admin;
    }

    public Map<String, Generator> getGenerators() {
        return generators;
    }

    /**
     * A generator of its own: the keys under idgen.generators.&lt;name&gt;, the same as the top level's. Read for the
     * metadata IDEs complete from; idgen binds each generator over a copy of the top-level settings, so that what a
     * generator leaves unset is inherited.
     */
    public static class Generator {

        /**
         * The generator's strategy: 'snowflake', 'segment', 'ticket' or 'redis'. Unset, idgen.strategy's.
         */
        private String strategy;

        /**
         * The form of the generator's IDs. Over a strategy's 64-bit IDs: 'number' (decimal strings), 'crockford32' (13
         * characters), 'base62' (11 characters), 'public' (encrypted, revealing nothing; needs public.keys) or 'shard'
         * (logical shard bits from a key; Snowflake only). IDs of their own, without a strategy (named generators only):
         * 'uuid-v7', 'guid' (ordered GUID), 'object-id', 'flake128' (128-bit flake) or 'simpleflake'.
         */
        private String form;

        /**
         * A typed prefix for the 'crockford32' and 'base62' forms, Stripe style: lowercase letters and digits, starting
         * with a letter, up to 16, then '_' (for example 'ord_'). Decoding checks it.
         */
        private String prefix;

        @NestedConfigurationProperty
        private final FormProperties.Shard shard = new FormProperties.Shard();

        @NestedConfigurationProperty
        private final FormProperties.Public publicIds = new FormProperties.Public();

        @NestedConfigurationProperty
        private final FormProperties.Guid guid = new FormProperties.Guid();

        @NestedConfigurationProperty
        private final FormProperties.Flake128 flake128 = new FormProperties.Flake128();

        /**
         * Counting per period on the ticket, segment and redis strategies: 'none', 'daily', 'monthly' or 'yearly'. The ID
         * is the period's key (20261123, 202611, 2026) times 10^period-digits plus a number that starts at 1 each period;
         * the period is part of the counter's key, so nothing is ever reset and no number repeats across periods.
         */
        private String period;

        /**
         * How many decimal digits the number within a period has: daily 1 to 10 (default 8), monthly 1 to 12 (default
         * 10), yearly 1 to 14 (default 11). The defaults keep IDs below 2^53. Past 10^digits - 1 in one period, the
         * generator refuses rather than spill into another period's numbers.
         */
        private Integer periodDigits;

        /**
         * The time zone whose midnight starts a period.
         */
        private ZoneId periodZone;

        @NestedConfigurationProperty
    private final SnowflakeProperties snowflake = new SnowflakeProperties();

        @NestedConfigurationProperty
    private final SegmentProperties segment = new SegmentProperties();

        @NestedConfigurationProperty
    private final JdbcProperties jdbc = new JdbcProperties();

        @NestedConfigurationProperty
        private final TicketProperties ticket = new TicketProperties();

        @NestedConfigurationProperty
        private final RedisProperties redis = new RedisProperties();

        public String getStrategy() {
            return strategy;
        }

        public void setStrategy(String strategy) {
            this.strategy = strategy;
        }

        public String getForm() {
            return form;
        }

        public void setForm(String form) {
            this.form = form;
        }

        public String getPrefix() {
            return prefix;
        }

        public void setPrefix(String prefix) {
            this.prefix = prefix;
        }

        public FormProperties.Shard getShard() {
            return shard;
        }

        public FormProperties.Public getPublic() {
            return publicIds;
        }

        public FormProperties.Guid getGuid() {
            return guid;
        }

        public FormProperties.Flake128 getFlake128() {
            return flake128;
        }

        public String getPeriod() {
            return period;
        }

        public void setPeriod(String period) {
            this.period = period;
        }

        public Integer getPeriodDigits() {
            return periodDigits;
        }

        public void setPeriodDigits(Integer periodDigits) {
            this.periodDigits = periodDigits;
        }

        public ZoneId getPeriodZone() {
            return periodZone;
        }

        public void setPeriodZone(ZoneId periodZone) {
            this.periodZone = periodZone;
        }

        public SnowflakeProperties getSnowflake() {
            return snowflake;
        }

        public SegmentProperties getSegment() {
            return segment;
        }

        public JdbcProperties getJdbc() {
            return jdbc;
        }

        public TicketProperties getTicket() {
            return ticket;
        }

        public RedisProperties getRedis() {
            return redis;
        }
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
        return Strategy.of(strategy);
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
        SNOWFLAKE(new SnowflakeStrategy()),

        /** Segments (号段): blocks of IDs leased from a store and served from memory. */
        SEGMENT(new SegmentStrategy()),

        /**
         * Flickr-style ticket servers: a database row update per call, no caching; concurrent calls for one name share
         * one update.
         */
        TICKET(new TicketStrategy()),

        /** One Redis {@code INCR} per call, inside windows reserved from a database. */
        REDIS(new RedisStrategy());

        private final IdgenStrategy descriptor;

        Strategy(IdgenStrategy descriptor) {
            this.descriptor = descriptor;
        }

        /**
         * @return what the strategy is: its configuration, requirements, tables, health, meters, ...
         */
        public IdgenStrategy descriptor() {
            return descriptor;
        }

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
            throw new IdgenPropertyValueException(property, value, "must be one of "
                    + Arrays.stream(values()).map(Strategy::value).collect(Collectors.joining(", ", "[", "]")),
                    "Set " + property + " to one of " + Arrays.stream(values()).map(Strategy::value)
                            .collect(Collectors.joining(", ")) + " (unset, it is snowflake)");
        }
    }

}
