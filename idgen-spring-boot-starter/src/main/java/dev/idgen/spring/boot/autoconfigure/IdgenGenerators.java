package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.RoutingIdService;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Which generators the configuration asks for: the default one ({@code idgen.strategy} and the settings beside it)
 * and one per {@code idgen.generators.<name>}, each bound over a copy of the top-level settings so that what it leaves
 * unset is inherited. The one place that reads the strategies from the environment: conditions, requirement checks
 * and the factories all ask it.
 */
final class IdgenGenerators {

    static final String PREFIX = "idgen";

    static final String GENERATORS = PREFIX + ".generators";

    /** The name of the bean factory singleton that keeps one context's binding (see {@link #of(Object, Environment)}). */
    static final String SINGLETON = "idgenGenerators";

    private final Definition defaultGenerator;

    private final Map<String, Definition> named;

    private final Map<String, Definition> standalone;

    private IdgenGenerators(Definition defaultGenerator, Map<String, Definition> named,
            Map<String, Definition> standalone) {
        this.defaultGenerator = defaultGenerator;
        this.named = named;
        this.standalone = standalone;
    }

    /**
     * The generators of one application context, bound once: the binding is kept as a singleton of the context's bean
     * factory, as Spring Boot keeps its condition report, so that the conditions, the requirement check and the bean
     * methods that ask do not each bind the whole {@code idgen} tree again (each binding costs milliseconds).
     *
     * @param beans the context's bean factory, or null to bind without keeping the result
     * @throws InvalidConfigurationPropertyValueException naming the full property of an unknown strategy or a bad
     *         generator name; a failed binding is not kept
     */
    static IdgenGenerators of(Object beans, Environment environment) {
        SingletonBeanRegistry registry = beans instanceof SingletonBeanRegistry singletons ? singletons : null;
        if (registry != null && registry.getSingleton(SINGLETON) instanceof IdgenGenerators kept) {
            return kept;
        }
        IdgenGenerators generators = bind(environment);
        if (registry != null) {
            registry.registerSingleton(SINGLETON, generators);
        }
        return generators;
    }

    private static IdgenGenerators bind(Environment environment) {
        Binder binder = Binder.get(environment);
        IdgenGeneratorNames.checkWritten(environment);
        Definition defaultGenerator = bind(binder, RoutingIdService.DEFAULT_GENERATOR, PREFIX, PREFIX);
        Map<String, Definition> named = new LinkedHashMap<>();
        Map<String, Definition> standalone = new LinkedHashMap<>();
        Map<String, IdgenProperties.Generator> configured = binder
                .bind(GENERATORS, Bindable.mapOf(String.class, IdgenProperties.Generator.class))
                .orElse(Map.of());
        IdgenGeneratorNames.checkDistinct(configured.keySet());
        for (String name : configured.keySet()) {
            String prefix = GENERATORS + "." + name;
            if (RoutingIdService.DEFAULT_GENERATOR.equals(name)) {
                throw new InvalidConfigurationPropertyValueException(prefix, name, "'"
                        + RoutingIdService.DEFAULT_GENERATOR + "' is the top-level generator's name: configure it"
                        + " with idgen.strategy and the settings beside it, or give this generator another name");
            }
            IdgenGeneratorNames.check(name);
            // Brackets keep a name with dots whole; Invoice, invoice_eu and invoice-daily bind unbracketed only.
            String key = IdgenGeneratorNames.key(binder, name);
            Definition definition = bind(binder, name, prefix, key);
            (definition.form().standalone() ? standalone : named).put(name, definition);
        }
        return new IdgenGenerators(defaultGenerator, Collections.unmodifiableMap(named),
                Collections.unmodifiableMap(standalone));
    }

    /**
     * For conditions, which run before {@link IdgenRequirements} can report a bad setting with Boot's failure report:
     * they match nothing on one, and the report follows.
     *
     * @return the generators, or null when a setting is invalid
     */
    static IdgenGenerators ofValid(Object beans, Environment environment) {
        try {
            return of(beans, environment);
        } catch (InvalidConfigurationPropertyValueException
                | org.springframework.boot.context.properties.source.InvalidConfigurationPropertyNameException e) {
            return null;
        }
    }

    /** Settings one application has once, whatever its generators: set under a generator they would do nothing. */
    private static final java.util.List<String> SHARED = java.util.List.of("redis.timeout", "redis.buckets",
            "admin", "enabled");

    /** The layout parts a preset fixes: a generator choosing a preset of its own inherits none of them. */
    private static final java.util.List<String> LAYOUT = java.util.List.of("epoch", "time-unit", "timestamp-bits",
            "worker-bits", "sequence-bits");

    /**
     * @param prefix where the generator's settings live, for messages: {@code idgen.generators.order.v2}
     * @param key the same as a name the binder reads whatever characters the generator's name has:
     *        {@code idgen.generators.[order.v2]}
     */
    private static Definition bind(Binder binder, String name, String prefix, String key) {
        IdgenProperties properties = new IdgenProperties();
        IdgenTicketProperties ticket = new IdgenTicketProperties();
        IdgenRedisProperties redis = new IdgenRedisProperties();
        binder.bind(PREFIX, Bindable.ofInstance(properties));
        binder.bind(PREFIX + ".ticket", Bindable.ofInstance(ticket));
        binder.bind(PREFIX + ".redis", Bindable.ofInstance(redis));
        if (!prefix.equals(PREFIX)) {
            for (String shared : SHARED) {
                if (isSet(binder, key + "." + shared)) {
                    throw new InvalidConfigurationPropertyValueException(prefix + "." + shared, "(set)", "is shared"
                            + " by every generator: set " + PREFIX + "." + shared + " instead");
                }
            }
            // Over the top-level values: only what the generator sets replaces them.
            binder.bind(key, Bindable.ofInstance(properties));
            binder.bind(key + ".ticket", Bindable.ofInstance(ticket));
            binder.bind(key + ".redis", Bindable.ofInstance(redis));
            if (isSet(binder, key + ".snowflake.preset")) {
                // A preset chosen here starts the layout over: top-level bits or units would bend it (a
                // javascript-safe preset with 10 inherited worker bits would pass 2^53).
                IdgenSnowflakeProperties snowflake = properties.getSnowflake();
                for (String part : LAYOUT) {
                    if (!isSet(binder, key + ".snowflake." + part)) {
                        clearLayoutPart(snowflake, part);
                    }
                }
            }
        }
        IdgenForms.Form form = IdgenForms.Form.of(properties.getForm(), prefix + ".form");
        if ((form.standalone() || form == IdgenForms.Form.SHARD) && prefix.equals(PREFIX)) {
            throw new InvalidConfigurationPropertyValueException(PREFIX + ".form", properties.getForm(), "the "
                    + form.value() + " form needs a generator of its own: set " + GENERATORS + ".<name>.form="
                    + form.value());
        }
        if (form.standalone() && isSet(binder, key + ".strategy")) {
            throw new InvalidConfigurationPropertyValueException(prefix + ".strategy", properties.getStrategy(),
                    "the " + form.value() + " form (" + prefix + ".form) issues IDs of its own, with no strategy:"
                            + " remove " + prefix + ".strategy");
        }
        if (form == IdgenForms.Form.SHARD && !layoutSet(binder, key)) {
            // The shard bits need room below bit 63: an unset layout becomes 41 bits of milliseconds with worker and
            // sequence sharing what the shards leave.
            int[] bits = IdgenForms.shardLayoutBits(properties.getShard().getLogicalShards(),
                    prefix + ".shard.logical-shards");
            IdgenSnowflakeProperties snowflake = properties.getSnowflake();
            snowflake.setTimestampBits(bits[0]);
            snowflake.setWorkerBits(bits[1]);
            snowflake.setSequenceBits(bits[2]);
        }
        IdgenProperties.Strategy strategy = IdgenProperties.Strategy.of(properties.getStrategy(),
                prefix + ".strategy");
        return new Definition(name, prefix, strategy, properties, ticket, redis, form);
    }

    /** Whether the generator or the top level sets any part of the Snowflake layout, the preset included. */
    private static boolean layoutSet(Binder binder, String key) {
        for (String root : java.util.List.of(key, PREFIX)) {
            if (isSet(binder, root + ".snowflake.preset")) {
                return true;
            }
            for (String part : LAYOUT) {
                if (isSet(binder, root + ".snowflake." + part)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isSet(Binder binder, String name) {
        return binder.bind(name, Bindable.of(String.class)).isBound()
                || binder.bind(name, Bindable.mapOf(String.class, Object.class)).isBound();
    }

    private static void clearLayoutPart(IdgenSnowflakeProperties snowflake, String part) {
        switch (part) {
            case "epoch" -> snowflake.setEpoch(null);
            case "time-unit" -> snowflake.setTimeUnit(null);
            case "timestamp-bits" -> snowflake.setTimestampBits(null);
            case "worker-bits" -> snowflake.setWorkerBits(null);
            case "sequence-bits" -> snowflake.setSequenceBits(null);
            default -> throw new IllegalArgumentException(part);
        }
    }

    /** The top-level generator, serving every name without a generator of its own. */
    Definition defaultGenerator() {
        return defaultGenerator;
    }

    /** The generators of their own, by name, in configuration order. */
    Map<String, Definition> named() {
        return named;
    }

    /**
     * The generators whose form issues IDs of its own, with no strategy ({@code form=uuid-v7}, ...), by name, in
     * configuration order. They are in neither {@link #named()} nor {@link #all()}.
     */
    Map<String, Definition> standalone() {
        return standalone;
    }

    /** Whether any generator of its own is configured, with a strategy or a standalone form. */
    boolean hasOwnGenerators() {
        return !named.isEmpty() || !standalone.isEmpty();
    }

    /** The default generator first, then the named ones. */
    Iterable<Definition> all() {
        java.util.List<Definition> all = new java.util.ArrayList<>();
        all.add(defaultGenerator);
        all.addAll(named.values());
        return all;
    }

    /** Whether the default generator or any named one uses {@code strategy}. */
    boolean uses(IdgenProperties.Strategy strategy) {
        return find(definition -> definition.strategy() == strategy) != null;
    }

    /**
     * @return the first generator (default first) that matches, or null
     */
    Definition find(Predicate<Definition> test) {
        for (Definition definition : all()) {
            if (test.test(definition)) {
                return definition;
            }
        }
        return null;
    }

    /**
     * One generator's settings.
     *
     * @param name {@value RoutingIdService#DEFAULT_GENERATOR} or the generator's own name
     * @param prefix where its settings live: {@code idgen} or {@code idgen.generators.<name>}
     * @param strategy its strategy
     * @param properties the {@code idgen.*} settings as they apply to it
     * @param ticket the {@code idgen.ticket.*} settings as they apply to it
     * @param redis the {@code idgen.redis.*} settings as they apply to it
     * @param form the form of its IDs
     */
    record Definition(String name, String prefix, IdgenProperties.Strategy strategy, IdgenProperties properties,
            IdgenTicketProperties ticket, IdgenRedisProperties redis, IdgenForms.Form form) {

        boolean isDefault() {
            return PREFIX.equals(prefix);
        }

        /**
         * @param relative a key below the generator, for example {@code ticket.table}
         * @return its full property name, for example {@code idgen.generators.invoice.ticket.table}
         */
        String property(String relative) {
            return prefix + "." + relative;
        }

        /** For messages: for example {@code idgen.generators.invoice.strategy=ticket}. */
        String strategySetting() {
            return property("strategy") + "=" + strategy.value();
        }

        String segmentStoreSetting() {
            return property("segment.store") + "=" + properties.getSegment().getStore().name().toLowerCase(Locale.ROOT);
        }

        String workerIdAssignerSetting() {
            return property("snowflake.worker-id-assigner") + "="
                    + properties.getSnowflake().getWorkerIdAssigner().name().toLowerCase(Locale.ROOT);
        }

        /** Whether this generator uses a Redis backend, and why (a setting), or null. */
        String redisUse() {
            return switch (strategy) {
                case REDIS -> strategySetting();
                case SEGMENT -> properties.getSegment().getStore() != IdgenSegmentProperties.StoreType.JDBC
                        ? segmentStoreSetting() : null;
                case SNOWFLAKE -> properties.getSnowflake().getWorkerIdAssigner()
                        == IdgenSnowflakeProperties.WorkerIdAssignerType.REDIS ? workerIdAssignerSetting() : null;
                case TICKET -> null;
            };
        }
    }
}
