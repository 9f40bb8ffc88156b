package dev.idgen.spring.boot.autoconfigure.forms;

import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.form.Flake128Generator;
import dev.idgen.core.form.FormOnlyIdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdText;
import dev.idgen.core.form.ObjectIdGenerator;
import dev.idgen.core.form.OrderedGuidGenerator;
import dev.idgen.core.form.SimpleflakeGenerator;
import dev.idgen.core.form.TextIdForm;
import dev.idgen.core.form.UuidV7Generator;
import dev.idgen.core.period.Period;
import dev.idgen.core.period.PeriodicIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.spring.boot.autoconfigure.core.CountingPeriod;
import dev.idgen.spring.boot.autoconfigure.core.Form;
import dev.idgen.spring.boot.autoconfigure.core.FormProperties;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.util.Map;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Builds what a generator's form ({@code idgen.form}, {@code idgen.generators.<name>.form}) and its counting per
 * period ask for: checks the settings, wraps the strategy's service (per period, shard-aware), makes the
 * {@link IdForm} of a generator, and the service of a form with IDs of its own. The forms that need the
 * {@code idgen-forms} module are made by a class of their own, loaded only for them.
 */
public final class IdgenFormFactory {

    /** The smallest and largest logical shard counts. */
    static final int MIN_LOGICAL_SHARDS = 2;

    static final int MAX_LOGICAL_SHARDS = 65536;

    private IdgenFormFactory() {}

    /**
     * @return {timestamp bits, worker bits, sequence bits} of the Snowflake layout under {@code logicalShards} shard
     *         bits: 41 bits of milliseconds (until 2094), and worker and sequence halving what is left
     */
    public static int[] shardLayoutBits(int logicalShards, String property) {
        int shardBits = shardBits(logicalShards, property);
        int left = SnowflakeLayout.USABLE_BITS - 41 - shardBits;
        return new int[] {41, left / 2, left - left / 2};
    }

    static int shardBits(int logicalShards, String property) {
        if (logicalShards < MIN_LOGICAL_SHARDS
                || logicalShards > MAX_LOGICAL_SHARDS
                || Integer.bitCount(logicalShards) != 1) {
            throw new InvalidConfigurationPropertyValueException(
                    property,
                    logicalShards,
                    "must be a power of two" + " from " + MIN_LOGICAL_SHARDS + " to " + MAX_LOGICAL_SHARDS);
        }
        return Integer.numberOfTrailingZeros(logicalShards);
    }

    /**
     * Checks the form's settings against the strategy, before anything is built.
     *
     * @throws InvalidConfigurationPropertyValueException naming the property at fault
     */
    public static void check(IdgenGenerators.Definition definition) {
        IdgenProperties properties = definition.properties();
        Form form = definition.form();
        Period period = period(definition);
        if (properties.getPrefix() != null && form != Form.CROCKFORD32 && form != Form.BASE62) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("prefix"),
                    properties.getPrefix(),
                    "a prefix is for the crockford32 and base62 forms, and " + definition.property("form") + " is "
                            + form.value());
        }
        if (form.standalone()) {
            return;
        }
        if (form == Form.SHARD && definition.strategy() != IdgenProperties.Strategy.SNOWFLAKE) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("form"),
                    form.value(),
                    "shard-aware IDs are Snowflake IDs with shard bits: it needs " + definition.property("strategy")
                            + "=snowflake, not " + definition.strategy().value());
        }
        if (period != null && definition.strategy() == IdgenProperties.Strategy.SNOWFLAKE) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("period"),
                    properties.getPeriod().value(),
                    "counting per period needs a counting strategy (ticket, segment or" + " redis), and "
                            + definition.strategySetting() + " counts no numbers");
        }
        if (form == Form.PUBLIC && properties.getPublic().getKeys().isEmpty()) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("public.keys"),
                    null,
                    "the public form needs at least one key: " + definition.property("public.keys")
                            + ".1=<16, 24 or 32 random bytes, Base64>");
        }
    }

    /**
     * @return the period {@code period} names, or null for none
     */
    public static Period period(IdgenGenerators.Definition definition) {
        CountingPeriod period = definition.properties().getPeriod();
        return period == null ? null : period.period();
    }

    /**
     * The service the generator's name is routed to: the strategy's own, or it wrapped to count per period or to
     * add shard bits.
     *
     * @param base the strategy's service for the generator
     */
    public static IdService shape(IdgenGenerators.Definition definition, IdService base, TimeSource timeSource) {
        Period period = period(definition);
        if (period != null) {
            IdgenProperties properties = definition.properties();
            return InvalidIdgenProperty.rethrowAsProperty(
                    definition.prefix(), Map.of("digits", "period-digits", "zone", "period-zone"), () -> {
                        PeriodicIdService.Builder builder = PeriodicIdService.builder()
                                .delegate(base)
                                .period(period)
                                .zone(properties.getPeriodZone())
                                .timeSource(timeSource);
                        if (properties.getPeriodDigits() != null) {
                            builder.digits(properties.getPeriodDigits());
                        }
                        return builder.build();
                    });
        }
        if (definition.form() == Form.SHARD) {
            return ModuleForms.sharded(definition, base);
        }
        return base;
    }

    /**
     * @param name the name the form issues for: the generator's, or any name the default generator serves
     * @param sequence the name's sequence
     * @param shaped the service the generator's name is routed to ({@link #shape})
     * @return the form of the generator's IDs
     */
    public static IdForm form(
            IdgenGenerators.Definition definition, String name, IdSequence sequence, IdService shaped) {
        IdgenProperties properties = definition.properties();
        return switch (definition.form()) {
            case NUMBER -> new TextIdForm(name, sequence, IdText.decimal());
            case CROCKFORD32, BASE62 -> {
                IdText plain = definition.form() == Form.CROCKFORD32 ? IdText.crockford32() : IdText.base62();
                String prefix = properties.getPrefix();
                IdText text = prefix == null
                        ? plain
                        : InvalidIdgenProperty.rethrowAsProperty(definition.prefix(), () -> plain.withPrefix(prefix));
                yield new TextIdForm(name, sequence, text);
            }
            case PUBLIC -> ModuleForms.publicForm(definition, name, sequence);
            case SHARD -> ModuleForms.shardForm(name, shaped);
            default -> throw new IllegalStateException(definition.form() + " is a form with IDs of its own");
        };
    }

    /**
     * A generator whose form issues IDs of its own: the service its name is routed to, which issues no 64-bit ID.
     */
    public static FormOnlyIdService standalone(IdgenGenerators.Definition definition, TimeSource timeSource) {
        String name = definition.name();
        IdForm form = switch (definition.form()) {
            case UUID_V7 ->
                UuidV7Generator.builder().timeSource(timeSource).build().form(name);
            case GUID ->
                OrderedGuidGenerator.builder()
                        .timeSource(timeSource)
                        .order(
                                definition.properties().getGuid().getOrder() == FormProperties.GuidOrder.BYTES
                                        ? OrderedGuidGenerator.Order.BYTES
                                        : OrderedGuidGenerator.Order.SQL_SERVER)
                        .build()
                        .form(name);
            case OBJECT_ID ->
                ObjectIdGenerator.builder().timeSource(timeSource).build().form(name);
            case FLAKE128 -> {
                Flake128Generator.Builder builder = Flake128Generator.builder().timeSource(timeSource);
                Long workerId = definition.properties().getFlake128().getWorkerId();
                if (workerId != null) {
                    InvalidIdgenProperty.rethrowAsProperty(
                            definition.prefix() + ".flake128", () -> builder.workerId(workerId));
                }
                yield builder.build().form(name);
            }
            case SIMPLEFLAKE ->
                SimpleflakeGenerator.builder().timeSource(timeSource).build().form(name);
            default -> throw new IllegalStateException(definition.form() + " is a form over a strategy");
        };
        return new FormOnlyIdService(form);
    }
}
