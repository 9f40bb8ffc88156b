package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.RoutingIdService;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
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
        // A generator that sets nothing but a section of a strategy or a store (its snowflake.worker-id, say) binds
        // no field of GeneratorProperties, and the binder leaves such an entry out of the map: its name is read from
        // the keys as they are.
        Set<String> names = new LinkedHashSet<>(bind(binder, GENERATORS, Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of())
                .keySet());
        names.addAll(bind(binder, GENERATORS, Bindable.mapOf(String.class, GeneratorProperties.class))
                .orElse(Map.of())
                .keySet());
        IdgenGeneratorNames.checkDistinct(names);
        for (String name : names) {
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
     * For conditions, which run before {@code IdgenRequirements} (in the auto-configuration) can report a bad setting
     * with Boot's failure report: they match nothing on one, and the report follows. This checks the settings every
     * generator has; a section's are bound when it is first read, so a condition that reads one guards that read too.
     *
     * @return the generators, or null when a setting every generator has is invalid
     */
    public static IdgenGenerators ofValid(Object beans, Environment environment) {
        try {
            return of(beans, environment);
        } catch (InvalidConfigurationPropertyValueException | InvalidConfigurationPropertyNameException e) {
            return null;
        }
    }

    /**
     * Settings one application has once, whatever its generators: set under a generator they would do nothing. The
     * sections of the strategies and stores say their own ({@link IdgenSettings#sharedByEveryGenerator()}).
     */
    private static final List<String> SHARED = IdgenProperties.SHARED;

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
        return new Definition(name, prefix, key, properties.getStrategy(), properties, form, binder);
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

    private static boolean isSet(Binder binder, String name) {
        return binder.bind(name, Bindable.of(String.class)).isBound()
                || binder.bind(name, Bindable.mapOf(String.class, Object.class)).isBound();
    }

    /** The top-level generator, serving every name without a generator of its own. */
    public Definition defaultGenerator() {
        return defaultGenerator;
    }

    /**
     * @return the top level's section ({@code idgen.<key>.*}): for a section shared by every generator, the only one
     */
    public <T> T topLevel(IdgenSettings<T> section) {
        return defaultGenerator.settings(section);
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
     * One generator's settings: its name, strategy and form, the settings every generator has ({@link #properties()})
     * and, bound on first use, each section a strategy or a store declares ({@link #settings(IdgenSettings)}).
     */
    public static final class Definition {

        private final String name;

        private final String prefix;

        private final String key;

        private final IdgenProperties.Strategy strategy;

        private final IdgenProperties properties;

        private final Form form;

        private final Binder binder;

        private final Map<IdgenSettings<?>, Object> sections = new ConcurrentHashMap<>();

        /**
         * @param key the generator's settings as the binder reads them whatever characters its name has:
         *     {@code idgen.generators.[order.v2]}
         */
        Definition(
                String name,
                String prefix,
                String key,
                IdgenProperties.Strategy strategy,
                IdgenProperties properties,
                Form form,
                Binder binder) {
            this.name = name;
            this.prefix = prefix;
            this.key = key;
            this.strategy = strategy;
            this.properties = properties;
            this.form = form;
            this.binder = binder;
        }

        /** @return {@value RoutingIdService#DEFAULT_GENERATOR} or the generator's own name */
        public String name() {
            return name;
        }

        /** @return where its settings live: {@code idgen} or {@code idgen.generators.<name>} */
        public String prefix() {
            return prefix;
        }

        /** @return its strategy */
        public IdgenProperties.Strategy strategy() {
            return strategy;
        }

        /** @return the settings every generator has ({@code idgen.*}: strategy, form, period, ...) as they apply to it */
        public IdgenProperties properties() {
            return properties;
        }

        /** @return the form of its IDs */
        public Form form() {
            return form;
        }

        /**
         * A section of its settings, bound the first time it is asked for: the top level's ({@code idgen.<key>.*}), then,
         * for a named generator, its own over them.
         *
         * @throws InvalidConfigurationPropertyValueException naming the property when a named generator sets what
         *     only the top level may
         */
        @SuppressWarnings("unchecked")
        public <T> T settings(IdgenSettings<T> section) {
            Object bound = sections.get(section);
            if (bound == null) {
                // Not computeIfAbsent: an adjustment may read another section of the same generator.
                bound = bindSection(section);
                Object raced = sections.putIfAbsent(section, bound);
                bound = raced != null ? raced : bound;
            }
            return (T) bound;
        }

        private <T> T bindSection(IdgenSettings<T> section) {
            T settings = section.defaults();
            bind(binder, PREFIX + "." + section.key(), Bindable.ofInstance(settings));
            if (!isDefault()) {
                String own = key + "." + section.key();
                if (section.shared() && isSet(binder, own)) {
                    throw shared(section.key());
                }
                for (String shared : section.sharedKeys()) {
                    if (isSet(binder, own + "." + shared)) {
                        throw shared(section.key() + "." + shared);
                    }
                }
                if (!section.shared()) {
                    // Over the top-level values: only what the generator sets replaces them.
                    bind(binder, own, Bindable.ofInstance(settings));
                }
            }
            section.adjust(settings, new IdgenSettings.Binding() {

                @Override
                public Definition definition() {
                    return Definition.this;
                }

                @Override
                public boolean isSetByGenerator(String relative) {
                    return isSet(binder, key + "." + section.key() + "." + relative);
                }

                @Override
                public boolean isSetAtTopLevel(String relative) {
                    return isSet(binder, PREFIX + "." + section.key() + "." + relative);
                }
            });
            return settings;
        }

        private InvalidConfigurationPropertyValueException shared(String relative) {
            return new InvalidConfigurationPropertyValueException(
                    prefix + "." + relative,
                    "(set)",
                    "is shared" + " by every generator: set " + PREFIX + "." + relative + " instead");
        }

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

        @Override
        public String toString() {
            return prefix;
        }
    }
}
