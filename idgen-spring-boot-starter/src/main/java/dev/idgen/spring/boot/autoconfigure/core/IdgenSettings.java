package dev.idgen.spring.boot.autoconfigure.core;

import java.util.List;
import java.util.function.Supplier;

/**
 * One section of a generator's settings that a strategy or a store declares for itself, bound under its key: at the
 * top level ({@code idgen.<key>.*}) and, over a copy of that, under each named generator
 * ({@code idgen.generators.<name>.<key>.*}), so that what a generator leaves unset is inherited. Read with
 * {@link IdgenGenerators.Definition#settings(IdgenSettings)}.
 *
 * <p>This is how the core of the starter binds a strategy's settings without naming them: the section's package
 * declares it (as {@code XProperties.SECTION}) and only that package reads it; the auto-configuration lists every
 * section once, so that a bad value fails start-up whatever the strategy in use.
 *
 * @param <T> the settings class, a plain bean
 */
public final class IdgenSettings<T> {

    /**
     * What a section does after binding, with what the binding saw: for example, a layout preset chosen by a named
     * generator starts the layout over rather than inherit the top level's bits.
     *
     * @param <T> the settings class
     */
    @FunctionalInterface
    public interface Adjustment<T> {

        /**
         * @param settings the section as bound for {@code binding.definition()}
         * @param binding what was set where
         */
        void adjust(T settings, Binding binding);
    }

    /** What a section's binding saw. */
    public interface Binding {

        /** @return the generator the section was bound for */
        IdgenGenerators.Definition definition();

        /**
         * @param relative a key below the section, for example {@code preset}
         * @return whether the generator itself sets it (for the default generator, the top level)
         */
        boolean isSetByGenerator(String relative);

        /**
         * @param relative a key below the section
         * @return whether the top level ({@code idgen.<key>.<relative>}) sets it
         */
        boolean isSetAtTopLevel(String relative);
    }

    private final String key;

    private final Supplier<T> defaults;

    private final boolean shared;

    private final List<String> sharedKeys;

    private final Adjustment<T> adjustment;

    private IdgenSettings(
            String key, Supplier<T> defaults, boolean shared, List<String> sharedKeys, Adjustment<T> adjustment) {
        this.key = key;
        this.defaults = defaults;
        this.shared = shared;
        this.sharedKeys = List.copyOf(sharedKeys);
        this.adjustment = adjustment;
    }

    /**
     * @param key where the section is, below {@code idgen} and below each named generator: for example
     *     {@code snowflake}
     * @param defaults a new instance with the section's defaults
     * @return a section each generator may set for itself
     */
    public static <T> IdgenSettings<T> of(String key, Supplier<T> defaults) {
        return new IdgenSettings<>(key, defaults, false, List.of(), null);
    }

    /**
     * @return the same section, set once for the whole application: a named generator that sets it is refused
     */
    public IdgenSettings<T> sharedByEveryGenerator() {
        return new IdgenSettings<>(key, defaults, true, List.of(), adjustment);
    }

    /**
     * @param keys keys below the section that only the top level may set (a named generator that sets one is refused)
     * @return the same section with those keys shared
     */
    public IdgenSettings<T> withSharedKeys(List<String> keys) {
        return new IdgenSettings<>(key, defaults, shared, keys, adjustment);
    }

    /**
     * @return the same section, adjusted after each binding
     */
    public IdgenSettings<T> adjustedBy(Adjustment<T> then) {
        return new IdgenSettings<>(key, defaults, shared, sharedKeys, then);
    }

    /** @return where the section is, below {@code idgen} and below each named generator */
    public String key() {
        return key;
    }

    /** @return the settings class, for the binding hints of a native image */
    public Class<?> type() {
        return defaults.get().getClass();
    }

    /** @return whether only the top level sets it */
    public boolean shared() {
        return shared;
    }

    /** @return the keys below it that only the top level sets */
    public List<String> sharedKeys() {
        return sharedKeys;
    }

    T defaults() {
        return defaults.get();
    }

    void adjust(T settings, Binding binding) {
        if (adjustment != null) {
            adjustment.adjust(settings, binding);
        }
    }

    @Override
    public String toString() {
        return IdgenGenerators.PREFIX + "." + key;
    }
}
