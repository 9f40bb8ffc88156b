package dev.idgen.spring.boot.autoconfigure.core;

import java.time.ZoneId;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The settings every generator has, declared once: the top level's ({@code idgen.*}, {@link IdgenProperties} extends
 * this) and each named generator's ({@code idgen.generators.<name>.*}) are these same fields. A strategy's or a
 * store's own settings ({@code snowflake.*}, {@code segment.*}, ...) are sections it declares and binds the same way
 * ({@link IdgenSettings}); this class names none of them. idgen binds each named generator
 * over a copy of the top-level settings, so that what it leaves unset is inherited; the defaults below are the top
 * level's.
 */
public class GeneratorProperties {

    /**
     * Which strategy issues the IDs: 'snowflake' (no server at run time), 'segment' (blocks of IDs leased from a
     * database or Redis and served from memory), 'ticket' (a database row update, shared by the calls for a name
     * that arrive together) or 'redis' (an INCRBY, shared likewise, in windows reserved from a database).
     */
    private IdgenProperties.Strategy strategy = IdgenProperties.Strategy.SNOWFLAKE;

    /**
     * The form of the generator's IDs. Over a strategy's 64-bit IDs: 'number' (decimal strings), 'crockford32' (13
     * characters), 'base62' (11 characters), 'public' (encrypted, revealing nothing; needs public.keys) or 'shard'
     * (logical shard bits from a key; Snowflake only). IDs of their own, without a strategy (named generators only):
     * 'uuid-v7', 'guid' (ordered GUID), 'object-id', 'flake128' (128-bit flake) or 'simpleflake'.
     */
    private Form form = Form.NUMBER;

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
    private CountingPeriod period = CountingPeriod.NONE;

    /**
     * How many decimal digits the number within a period has: daily 1 to 10 (default 8), monthly 1 to 12 (default
     * 10), yearly 1 to 14 (default 12). The defaults keep IDs below 2^53. Past 10^digits - 1 in one period, the
     * generator refuses rather than spill into another period's numbers.
     */
    private Integer periodDigits;

    /**
     * The time zone whose midnight starts a period.
     */
    private ZoneId periodZone = FormProperties.DEFAULT_PERIOD_ZONE;

    public IdgenProperties.Strategy getStrategy() {
        return strategy;
    }

    public void setStrategy(IdgenProperties.Strategy strategy) {
        this.strategy = strategy;
    }

    public Form getForm() {
        return form;
    }

    public void setForm(Form form) {
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

    /**
     * @return the 'public' form's settings, {@code public.*}: the field cannot be called {@code public}, so the
     *         annotation processor finds them through this getter
     */
    @NestedConfigurationProperty
    public FormProperties.Public getPublic() {
        return publicIds;
    }

    public FormProperties.Guid getGuid() {
        return guid;
    }

    public FormProperties.Flake128 getFlake128() {
        return flake128;
    }

    public CountingPeriod getPeriod() {
        return period;
    }

    public void setPeriod(CountingPeriod period) {
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
}
