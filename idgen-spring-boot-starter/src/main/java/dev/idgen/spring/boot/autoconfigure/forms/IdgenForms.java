package dev.idgen.spring.boot.autoconfigure.forms;

import dev.idgen.core.DecodedId;
import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.form.Flake128Generator;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.form.IdText;
import dev.idgen.core.form.ObjectIdGenerator;
import dev.idgen.core.form.OrderedGuidGenerator;
import dev.idgen.core.form.SimpleflakeGenerator;
import dev.idgen.core.form.TextIdForm;
import dev.idgen.core.form.UuidV7Generator;
import dev.idgen.core.period.Period;
import dev.idgen.core.period.PeriodicIdService;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.forms.publicid.PublicIdCodec;
import dev.idgen.forms.publicid.PublicIdForm;
import dev.idgen.forms.shard.ShardPosition;
import dev.idgen.forms.shard.ShardedSnowflake;
import dev.idgen.spring.boot.autoconfigure.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.IdgenProperties;
import dev.idgen.spring.boot.autoconfigure.diagnostics.InvalidIdgenProperty;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The forms of the generators' IDs ({@code idgen.form}, {@code idgen.generators.<name>.form}) and their counters per
 * period: which forms exist, and how each shapes its generator's service and strings.
 */
public final class IdgenForms implements IdForms {

    /**
     * The forms {@code form} accepts.
     */
    public enum Form {

        /** Decimal strings of the strategy's IDs. */
        NUMBER(false),

        /** Crockford Base32, 13 characters. */
        CROCKFORD32(false),

        /** Base62, 11 characters. */
        BASE62(false),

        /** FF1-encrypted, with a key version. */
        PUBLIC(false),

        /** Logical shard bits from a key, over Snowflake. */
        SHARD(false),

        /** RFC 9562 UUIDv7. */
        UUID_V7(true),

        /** Ordered GUID (COMB). */
        GUID(true),

        /** MongoDB ObjectId. */
        OBJECT_ID(true),

        /** Boundary's 128-bit flake. */
        FLAKE128(true),

        /** Simpleflake: milliseconds and random bits. */
        SIMPLEFLAKE(true);

        private final boolean standalone;

        Form(boolean standalone) {
            this.standalone = standalone;
        }

        /** Whether the form issues IDs of its own, with no strategy underneath. */
        public boolean standalone() {
            return standalone;
        }

        /** @return the property value, for example {@code uuid-v7} */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Form of(String value, String property) {
            for (Form candidate : values()) {
                if (value != null && candidate.value().equalsIgnoreCase(value)) {
                    return candidate;
                }
            }
            throw new InvalidConfigurationPropertyValueException(property, value, "must be one of "
                    + Arrays.stream(values()).map(Form::value).collect(Collectors.joining(", ", "[", "]")));
        }
    }

    /** The smallest and largest logical shard counts. */
    static final int MIN_LOGICAL_SHARDS = 2;

    static final int MAX_LOGICAL_SHARDS = 65536;

    private final Map<String, IdForm> forms = new LinkedHashMap<>();

    private final IdService ids;

    private final IdgenGenerators.Definition defaultGenerator;

    private final PublicIdCodec defaultCodec;

    /**
     * @param ids the service the forms draw from (the default generator's names go through it)
     * @param defaultGenerator the top-level generator, whose form every name without a generator of its own gets
     */
    public IdgenForms(IdService ids, IdgenGenerators.Definition defaultGenerator) {
        this.ids = ids;
        this.defaultGenerator = defaultGenerator;
        // One codec for every name the default generator serves: its tweak is the generator's name.
        this.defaultCodec = defaultGenerator.form() == Form.PUBLIC
                ? publicCodec(defaultGenerator, defaultGenerator.name()) : null;
    }

    public void put(String generator, IdForm form) {
        forms.put(generator, form);
    }

    /** @return every named generator's form, by name */
    Map<String, IdForm> named() {
        return Collections.unmodifiableMap(forms);
    }

    @Override
    public IdForm form(String name) {
        IdForm own = forms.get(IdArguments.checkName(name));
        if (own != null) {
            return own;
        }
        return defaultForm(name, ids.sequence(name));
    }

    /** The default generator's form over one of its sequences (a name it serves). */
    private IdForm defaultForm(String name, IdSequence sequence) {
        return defaultCodec != null ? new PublicIdForm(name, sequence, defaultCodec)
                : form(defaultGenerator, name, sequence, null);
    }

    /**
     * The form of one generator, to read its IDs and name its form: unlike {@link #form(String)} it starts no sequence
     * for the default generator (a segment generator would keep buffers, and take a name, for a sequence nobody
     * issues from). Its {@code next} methods refuse.
     *
     * @param generator a generator's name: {@value RoutingIdService#DEFAULT_GENERATOR} or its own
     */
    public IdForm decoder(String generator) {
        IdForm own = forms.get(IdArguments.checkName(generator));
        if (own != null) {
            return own;
        }
        return defaultForm(generator, new DecodingSequence(ids, generator));
    }

    /** A sequence that only decodes, through the service's {@code decode(name, id)}. */
    private record DecodingSequence(IdService service, String name) implements IdSequence {

        @Override
        public String generator() {
            return RoutingIdService.DEFAULT_GENERATOR;
        }

        @Override
        public String strategy() {
            return service.strategy();
        }

        @Override
        public long nextId() {
            throw new IllegalStateException("A sequence for decoding issues no ID");
        }

        @Override
        public long[] nextIds(int count) {
            throw new IllegalStateException("A sequence for decoding issues no ID");
        }

        @Override
        public DecodedId decode(long id) {
            return service.decode(name, id);
        }
    }

    /**
     * @return {timestamp bits, worker bits, sequence bits} of the Snowflake layout under {@code logicalShards} shard
     *         bits: 41 bits of milliseconds (until 2094), and worker and sequence halving what is left
     */
    public static int[] shardLayoutBits(int logicalShards, String property) {
        int shardBits = shardBits(logicalShards, property);
        int left = SnowflakeLayout.USABLE_BITS - 41 - shardBits;
        return new int[] { 41, left / 2, left - left / 2 };
    }

    static int shardBits(int logicalShards, String property) {
        if (logicalShards < MIN_LOGICAL_SHARDS || logicalShards > MAX_LOGICAL_SHARDS
                || Integer.bitCount(logicalShards) != 1) {
            throw new InvalidConfigurationPropertyValueException(property, logicalShards, "must be a power of two"
                    + " from " + MIN_LOGICAL_SHARDS + " to " + MAX_LOGICAL_SHARDS);
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
            throw new InvalidConfigurationPropertyValueException(definition.property("prefix"),
                    properties.getPrefix(), "a prefix is for the crockford32 and base62 forms, and "
                            + definition.property("form") + " is " + form.value());
        }
        if (form.standalone()) {
            return;
        }
        if (form == Form.SHARD && definition.strategy() != IdgenProperties.Strategy.SNOWFLAKE) {
            throw new InvalidConfigurationPropertyValueException(definition.property("form"), form.value(),
                    "shard-aware IDs are Snowflake IDs with shard bits: it needs " + definition.property("strategy")
                            + "=snowflake, not " + definition.strategy().value());
        }
        if (period != null && definition.strategy() == IdgenProperties.Strategy.SNOWFLAKE) {
            throw new InvalidConfigurationPropertyValueException(definition.property("period"),
                    properties.getPeriod(), "counting per period needs a counting strategy (ticket, segment or"
                            + " redis), and " + definition.strategySetting() + " counts no numbers");
        }
        if (form == Form.PUBLIC && properties.getPublic().getKeys().isEmpty()) {
            throw new InvalidConfigurationPropertyValueException(definition.property("public.keys"), null,
                    "the public form needs at least one key: " + definition.property("public.keys")
                            + ".1=<16, 24 or 32 random bytes, Base64>");
        }
    }

    /**
     * @return the period {@code period} names, or null for none
     */
    public static Period period(IdgenGenerators.Definition definition) {
        String value = definition.properties().getPeriod();
        if (value == null || value.equalsIgnoreCase("none")) {
            return null;
        }
        for (Period candidate : Period.values()) {
            if (candidate.name().equalsIgnoreCase(value)) {
                return candidate;
            }
        }
        throw new InvalidConfigurationPropertyValueException(definition.property("period"), value,
                "must be one of [none, daily, monthly, yearly]");
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
            return InvalidIdgenProperty.rethrowAsProperty(definition.prefix(), Map.of("digits", "period-digits",
                    "zone", "period-zone"), () -> {
                        PeriodicIdService.Builder builder = PeriodicIdService.builder().delegate(base).period(period)
                                .zone(properties.getPeriodZone()).timeSource(timeSource);
                        if (properties.getPeriodDigits() != null) {
                            builder.digits(properties.getPeriodDigits());
                        }
                        return builder.build();
                    });
        }
        if (definition.form() == Form.SHARD) {
            FormProperties.Shard shard = definition.properties().getShard();
            shardBits(shard.getLogicalShards(), definition.property("shard.logical-shards"));
            SnowflakeIdService snowflake = (SnowflakeIdService) base;
            ShardedSnowflake sharded = InvalidIdgenProperty.rethrowAsProperty(definition.prefix() + ".shard",
                    () -> ShardedSnowflake.builder().generator(snowflake.generator())
                            .logicalShards(shard.getLogicalShards())
                            .position(shard.getLayout() == FormProperties.ShardLayout.INSTAGRAM
                                    ? ShardPosition.AFTER_TIMESTAMP : ShardPosition.LOW)
                            .build());
            return new ShardedIdService(snowflake, sharded);
        }
        return base;
    }

    /**
     * @param name the name the form issues for: the generator's, or any name the default generator serves
     * @param sequence the name's sequence
     * @param shaped the service the generator's name is routed to ({@link #shape})
     * @return the form of the generator's IDs
     */
    public static IdForm form(IdgenGenerators.Definition definition, String name, IdSequence sequence, IdService shaped) {
        IdgenProperties properties = definition.properties();
        return switch (definition.form()) {
            case NUMBER -> new TextIdForm(name, sequence, IdText.decimal());
            case CROCKFORD32, BASE62 -> {
                IdText plain = definition.form() == Form.CROCKFORD32 ? IdText.crockford32() : IdText.base62();
                String prefix = properties.getPrefix();
                IdText text = prefix == null ? plain
                        : InvalidIdgenProperty.rethrowAsProperty(definition.prefix(), () -> plain.withPrefix(prefix));
                yield new TextIdForm(name, sequence, text);
            }
            case PUBLIC -> new PublicIdForm(name, sequence, publicCodec(definition, definition.name()));
            case SHARD -> ((ShardedIdService) shaped).sharded().form(name);
            default -> throw new IllegalStateException(definition.form() + " is a form with IDs of its own");
        };
    }

    static PublicIdCodec publicCodec(IdgenGenerators.Definition definition, String name) {
        FormProperties.Public settings = definition.properties().getPublic();
        String prefix = definition.property("public");
        PublicIdCodec.Builder builder = PublicIdCodec.builder().tweak(name);
        settings.getKeys().forEach((version, key) -> {
            String property = prefix + ".keys." + version;
            byte[] bytes;
            try {
                bytes = PublicIdCodec.parseKey(version, key);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationPropertyValueException(property, "(hidden)", e.getMessage());
            }
            try {
                builder.key(version, bytes);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationPropertyValueException(property, "(hidden)", e.getMessage());
            }
        });
        if (settings.getVersion() != null) {
            int version = settings.getVersion();
            InvalidIdgenProperty.rethrowAsProperty(prefix, Map.of("currentVersion", "version"),
                    () -> builder.currentVersion(version));
        }
        return InvalidIdgenProperty.rethrowAsProperty(prefix, Map.of("currentVersion", "version"), builder::build);
    }

    /**
     * A generator whose form issues IDs of its own: the service its name is routed to, which issues no 64-bit ID.
     */
    public static FormOnlyIdService standalone(IdgenGenerators.Definition definition, TimeSource timeSource) {
        String name = definition.name();
        IdForm form = switch (definition.form()) {
            case UUID_V7 -> UuidV7Generator.builder().timeSource(timeSource).build().form(name);
            case GUID -> OrderedGuidGenerator.builder().timeSource(timeSource)
                    .order(definition.properties().getGuid().getOrder() == FormProperties.GuidOrder.BYTES
                            ? OrderedGuidGenerator.Order.BYTES : OrderedGuidGenerator.Order.SQL_SERVER)
                    .build().form(name);
            case OBJECT_ID -> ObjectIdGenerator.builder().timeSource(timeSource).build().form(name);
            case FLAKE128 -> {
                Flake128Generator.Builder builder = Flake128Generator.builder().timeSource(timeSource);
                Long workerId = definition.properties().getFlake128().getWorkerId();
                if (workerId != null) {
                    InvalidIdgenProperty.rethrowAsProperty(definition.prefix() + ".flake128",
                            () -> builder.workerId(workerId));
                }
                yield builder.build().form(name);
            }
            case SIMPLEFLAKE -> SimpleflakeGenerator.builder().timeSource(timeSource).build().form(name);
            default -> throw new IllegalStateException(definition.form() + " is a form over a strategy");
        };
        return new FormOnlyIdService(form);
    }

    /**
     * The service a standalone form's name is routed to: it refuses 64-bit IDs (its IDs are strings of their own),
     * so that the name is not served by the default generator by mistake.
     */
    public static final class FormOnlyIdService implements IdService {

        private final IdForm form;

        FormOnlyIdService(IdForm form) {
            this.form = form;
        }

        public IdForm form() {
            return form;
        }

        @Override
        public String strategy() {
            return form.form();
        }

        @Override
        public long nextId(String name) {
            throw refused();
        }

        @Override
        public long[] nextIds(String name, int count) {
            throw refused();
        }

        @Override
        public DecodedId decode(long id) {
            throw refused();
        }

        private InvalidArgumentException refused() {
            return new InvalidArgumentException("name", form.generator(), "generator '" + form.generator()
                    + "' issues " + form.form() + " IDs, which are not 64-bit numbers: take them as strings from"
                    + " IdForms.form(\"" + form.generator() + "\")");
        }

        @Override
        public String toString() {
            return "FormOnlyIdService[" + form.form() + "]";
        }
    }

    /**
     * The service a shard-aware generator's name is routed to: a Snowflake ID needs a shard key here, so the 64-bit
     * calls without one are refused; decode reads the shard too.
     */
    static final class ShardedIdService implements ForwardingIdService, AutoCloseable {

        private final SnowflakeIdService snowflake;

        private final ShardedSnowflake sharded;

        ShardedIdService(SnowflakeIdService snowflake, ShardedSnowflake sharded) {
            this.snowflake = snowflake;
            this.sharded = sharded;
        }

        ShardedSnowflake sharded() {
            return sharded;
        }

        @Override
        public IdService delegate() {
            return snowflake;
        }

        @Override
        public String strategy() {
            return snowflake.strategy();
        }

        @Override
        public long nextId(String name) {
            throw needsKey(name);
        }

        @Override
        public long[] nextIds(String name, int count) {
            throw needsKey(name);
        }

        private InvalidArgumentException needsKey(String name) {
            return new InvalidArgumentException("shardKey", null, "generator '" + name + "' is shard-aware: every"
                    + " ID needs a shard key (IdForms.form(\"" + name + "\").next(count, shardKey))");
        }

        @Override
        public DecodedId decode(long id) {
            Map<String, Object> parts = sharded.decode(id);
            return new DecodedId() {

                @Override
                public String strategy() {
                    return snowflake.strategy();
                }

                @Override
                public long id() {
                    return id;
                }

                @Override
                public Map<String, Object> toMap() {
                    return parts;
                }
            };
        }

        @Override
        public void close() {
            snowflake.close();
        }

        @Override
        public String toString() {
            return "shard(" + sharded + ")";
        }
    }
}
