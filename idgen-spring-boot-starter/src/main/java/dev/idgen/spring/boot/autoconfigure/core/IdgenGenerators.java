package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.RoutingIdService;
import dev.idgen.spring.boot.autoconfigure.forms.IdgenFormFactory;
import dev.idgen.spring.boot.autoconfigure.redis.RedisProperties;
import dev.idgen.spring.boot.autoconfigure.snowflake.SnowflakeProperties;
import dev.idgen.spring.boot.autoconfigure.ticket.TicketProperties;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.springframework.beans.factory.config.SingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyNameException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Which generators the configuration asks for: the default one ({@code idgen.strategy} and the settings beside it)
 * and one per {@code idgen.generators.<name>}, each bound over a copy of the top-level settings so that what it leaves
 * unset is inherited. The one place that reads the strategies from the environment: conditions, requirement checks
 * and the factories all ask it.
 */
public final class IdgenGenerators {

    public static final String PREFIX = "idgen";

    static final String GENERATORS = PREFIX + ".generators";

    /** The name of the bean factory singleton that keeps one context's binding (see {@link #of(Object, Environment)}). */
    static final String SINGLETON = "idgenGenerators";

    private final Definition defaultGenerator;

    private final Map<String, Definition> named;

    private final Map<String, Definition> standalone;

    private IdgenGenerators(
            Definition defaultGenerator, Map<String, Definition> named, Map<String, Definition> standalone) {
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
    public static IdgenGenerators of(Object beans, Environment environment) {
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
        Map<String, GeneratorProperties> configured = bind(
                        binder, GENERATORS, Bindable.mapOf(String.class, GeneratorProperties.class))
                .orElse(Map.of());
        IdgenGeneratorNames.checkDistinct(configured.keySet());
        for (String name : configured.keySet()) {
            String prefix = GENERATORS + "." + name;
            if (RoutingIdService.DEFAULT_GENERATOR.equals(name)) {
                throw new InvalidConfigurationPropertyValueException(
                        prefix,
                        name,
                        "'"
                                + RoutingIdService.DEFAULT_GENERATOR
                                + "' is the top-level generator's name: configure it"
                                + " with idgen.strategy and the settings beside it, or give this generator another name");
            }
            IdgenGeneratorNames.check(name);
            // Brackets keep a name with dots whole; Invoice, invoice_eu and invoice-daily bind unbracketed only.
            String key = IdgenGeneratorNames.key(binder, name);
            Definition definition = bind(binder, name, prefix, key);
            (definition.form().standalone() ? standalone : named).put(name, definition);
        }
        return new IdgenGenerators(
                defaultGenerator, Collections.unmodifiableMap(named), Collections.unmodifiableMap(standalone));
    }

    /**
     * For conditions, which run before {@code IdgenRequirements} (in the auto-configuration) can report a bad setting with Boot's failure report:
     * they match nothing on one, and the report follows.
     *
     * @return the generators, or null when a setting is invalid
     */
    public static IdgenGenerators ofValid(Object beans, Environment environment) {
        try {
            return of(beans, environment);
        } catch (InvalidConfigurationPropertyValueException | InvalidConfigurationPropertyNameException e) {
            return null;
        }
    }

    /**
     * Settings one application has once, whatever its generators: set under a generator they would do nothing. Each
     * list is declared beside the fields it names.
     */
    private static final List<String> SHARED = Stream.concat(
                    RedisProperties.SHARED.stream().map(key -> "redis." + key), IdgenProperties.SHARED.stream())
            .toList();

    /**
     * @param prefix where the generator's settings live, for messages: {@code idgen.generators.order.v2}
     * @param key the same as a name the binder reads whatever characters the generator's name has:
     *        {@code idgen.generators.[order.v2]}
     */
    private static Definition bind(Binder binder, String name, String prefix, String key) {
        IdgenProperties properties = new IdgenProperties();
        bind(binder, PREFIX, Bindable.ofInstance(properties));
        if (!prefix.equals(PREFIX)) {
            for (String shared : SHARED) {
                if (isSet(binder, key + "." + shared)) {
                    throw new InvalidConfigurationPropertyValueException(
                            prefix + "." + shared,
                            "(set)",
                            "is shared" + " by every generator: set " + PREFIX + "." + shared + " instead");
                }
            }
            // Over the top-level values: only what the generator sets replaces them.
            bind(binder, key, Bindable.ofInstance(properties));
            if (isSet(binder, key + ".snowflake.preset")) {
                // A preset chosen here starts the layout over: top-level bits or units would bend it (a
                // javascript-safe preset with 10 inherited worker bits would pass 2^53).
                SnowflakeProperties snowflake = properties.getSnowflake();
                for (SnowflakeProperties.LayoutPart part : SnowflakeProperties.LayoutPart.values()) {
                    if (!isSet(binder, key + ".snowflake." + part.key())) {
                        part.clear(snowflake);
                    }
                }
            }
        }
        refuseEmpty(binder, prefix.equals(PREFIX) ? PREFIX : key, prefix);
        Form form = properties.getForm();
        if ((form.standalone() || form == Form.SHARD) && prefix.equals(PREFIX)) {
            throw new InvalidConfigurationPropertyValueException(
                    PREFIX + ".form",
                    form.value(),
                    "the "
                            + form.value() + " form needs a generator of its own: set " + GENERATORS + ".<name>.form="
                            + form.value());
        }
        if (form.standalone() && isSet(binder, key + ".strategy")) {
            throw new InvalidConfigurationPropertyValueException(
                    prefix + ".strategy",
                    properties.getStrategy().value(),
                    "the " + form.value() + " form (" + prefix + ".form) issues IDs of its own, with no strategy:"
                            + " remove " + prefix + ".strategy");
        }
        if (form == Form.SHARD && !layoutSet(binder, key)) {
            // The shard bits need room below bit 63: an unset layout becomes 41 bits of milliseconds with worker and
            // sequence sharing what the shards leave.
            int[] bits = IdgenFormFactory.shardLayoutBits(
                    properties.getShard().getLogicalShards(), prefix + ".shard.logical-shards");
            SnowflakeProperties snowflake = properties.getSnowflake();
            snowflake.setTimestampBits(bits[0]);
            snowflake.setWorkerBits(bits[1]);
            snowflake.setSequenceBits(bits[2]);
        }
        IdgenProperties.Strategy strategy = properties.getStrategy();
        return new Definition(name, prefix, strategy, properties, properties.getTicket(), properties.getRedis(), form);
    }

    /**
     * The binder leaves an enum set to a blank value at its default; idgen has always refused a blank strategy, form
     * or period, naming the property and the values it accepts.
     */
    private static void refuseEmpty(Binder binder, String key, String prefix) {
        if (isEmpty(binder, key + ".strategy")) {
            IdgenProperties.Strategy.of("", prefix + ".strategy");
        }
        if (isEmpty(binder, key + ".form")) {
            Form.of("", prefix + ".form");
        }
        if (isEmpty(binder, key + ".period")) {
            CountingPeriod.of("", prefix + ".period");
        }
    }

    private static boolean isEmpty(Binder binder, String name) {
        return binder.bind(name, Bindable.of(String.class)).map(String::isBlank).orElse(false);
    }

    /**
     * Binds, reporting a strategy, form or period the binder cannot convert as idgen always has: naming the generator's
     * property ({@code idgen.generators.order.v2.strategy}) and the values it accepts.
     */
    private static <T> BindResult<T> bind(Binder binder, String name, Bindable<T> target) {
        try {
            return binder.bind(name, target);
        } catch (BindException e) {
            throw explained(e);
        }
    }

    private static RuntimeException explained(BindException e) {
        ConfigurationPropertyName failed = e.getName();
        int elements = failed.getNumberOfElements();
        String prefix = elements == 2
                ? PREFIX
                : elements == 4
                                && failed.getElement(1, ConfigurationPropertyName.Form.UNIFORM)
                                        .equals("generators")
                        ? GENERATORS + "." + failed.getElement(2, ConfigurationPropertyName.Form.ORIGINAL)
                        : null;
        Object value = e.getProperty() != null ? e.getProperty().getValue() : null;
        if (prefix == null || !(value instanceof CharSequence)) {
            return e;
        }
        String text = value.toString();
        String setting = failed.getLastElement(ConfigurationPropertyName.Form.DASHED);
        String property = prefix + "." + setting;
        // Each of() refuses what the binder could not convert (it accepts less), naming the property.
        switch (setting) {
            case "strategy" -> IdgenProperties.Strategy.of(text, property);
            case "form" -> Form.of(text, property);
            case "period" -> CountingPeriod.of(text, property);
            default -> {
                return e;
            }
        }
        return e;
    }

    /** Whether the generator or the top level sets any part of the Snowflake layout, the preset included. */
    private static boolean layoutSet(Binder binder, String key) {
        for (String root : List.of(key, PREFIX)) {
            if (isSet(binder, root + ".snowflake.preset")) {
                return true;
            }
            for (SnowflakeProperties.LayoutPart part : SnowflakeProperties.LayoutPart.values()) {
                if (isSet(binder, root + ".snowflake." + part.key())) {
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

    /** The top-level generator, serving every name without a generator of its own. */
    public Definition defaultGenerator() {
        return defaultGenerator;
    }

    /** The generators of their own, by name, in configuration order. */
    public Map<String, Definition> named() {
        return named;
    }

    /**
     * The generators whose form issues IDs of its own, with no strategy ({@code form=uuid-v7}, ...), by name, in
     * configuration order. They are in neither {@link #named()} nor {@link #all()}.
     */
    public Map<String, Definition> standalone() {
        return standalone;
    }

    /** Whether any generator of its own is configured, with a strategy or a standalone form. */
    public boolean hasOwnGenerators() {
        return !named.isEmpty() || !standalone.isEmpty();
    }

    /** @return the default generator first, then the named ones */
    public Iterable<Definition> all() {
        List<Definition> all = new ArrayList<>();
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
    public Definition find(Predicate<Definition> test) {
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
    public record Definition(
            String name,
            String prefix,
            IdgenProperties.Strategy strategy,
            IdgenProperties properties,
            TicketProperties ticket,
            RedisProperties redis,
            Form form) {

        public boolean isDefault() {
            return PREFIX.equals(prefix);
        }

        /**
         * @param relative a key below the generator, for example {@code ticket.table}
         * @return its full property name, for example {@code idgen.generators.invoice.ticket.table}
         */
        public String property(String relative) {
            return prefix + "." + relative;
        }

        /** For messages: for example {@code idgen.generators.invoice.strategy=ticket}. */
        public String strategySetting() {
            return property("strategy") + "=" + strategy.value();
        }

        public String segmentStoreSetting() {
            return property("segment.store") + "="
                    + properties.getSegment().getStore().name().toLowerCase(Locale.ROOT);
        }

        public String workerIdAssignerSetting() {
            return property("snowflake.worker-id-assigner") + "="
                    + properties
                            .getSnowflake()
                            .getWorkerIdAssigner()
                            .name()
                            .toLowerCase(Locale.ROOT)
                            .replace('_', '-');
        }

        public String redisWindowStoreSetting() {
            return property("redis.window-store") + "="
                    + properties.getRedis().getWindowStore().name().toLowerCase(Locale.ROOT);
        }
    }
}
