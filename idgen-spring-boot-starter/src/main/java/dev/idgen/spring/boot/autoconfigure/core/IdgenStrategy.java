package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What one strategy is, described once: everything the rest of the starter asks about a strategy. Each strategy's
 * package has one ({@code SnowflakeStrategy}, ...), and {@link IdgenProperties.Strategy} lists them: adding a strategy
 * is a package of its own and one constant there.
 *
 * <p>A descriptor is loaded whatever the classpath holds: what it says about a library that may be absent (Lettuce,
 * Micrometer, Spring Boot's health API) it keeps in the methods the starter calls only when that library is there
 * ({@link #health()}, {@link #meters()}), or in a nested class loaded only then.
 */
public interface IdgenStrategy {

    /**
     * @return the configuration that declares the strategy's {@link IdgenGeneratorFactory} (and the default
     *         generator's beans); {@code IdgenAutoConfiguration} imports it, and it matches only when a generator uses
     *         the strategy ({@link ConditionalOnIdgenStrategy})
     */
    Class<?> configuration();

    /**
     * @return the sections of settings the strategy declares ({@code XProperties.SECTION}): the auto-configuration
     *         binds each for every generator at start-up, so that a bad value fails it whatever the strategy in use
     */
    default List<IdgenSettings<?>> sections() {
        return List.of();
    }

    /**
     * @param definition a generator of this strategy
     * @return the optional dependencies it needs, each with the beans of the application's own that waive it
     */
    default List<Requirement> requirements(IdgenGenerators.Definition definition) {
        return List.of();
    }

    /**
     * @param definition a generator of this strategy
     * @return the tables it writes, for the check that two generators do not put two kinds of row in one table
     */
    default List<TableClaim> tables(IdgenGenerators.Definition definition) {
        return List.of();
    }

    /**
     * @param definition a generator of this strategy
     * @return the setting that makes it use a Redis backend (for messages), or null when it uses none
     */
    default String redisUse(IdgenGenerators.Definition definition) {
        return null;
    }

    /**
     * @param definition a generator, of this strategy or not: the auto-configuration checks every strategy's choices
     *     for every generator, so that a bad value fails start-up whatever the strategy in use
     * @return the settings that choose where it keeps something, as set: its store, a store it switches from, the
     *     store of its Redis windows, its worker id assigner; only those its other settings make it use
     */
    default List<StoreChoice> storeChoices(IdgenGenerators.Definition definition) {
        return List.of();
    }

    /**
     * @param definition a generator of this strategy
     * @return the setting that makes it take its segments from idgen servers, or did before a store switch (for
     *         messages), or null when it does not
     */
    default String remoteUse(IdgenGenerators.Definition definition) {
        return null;
    }

    /**
     * @param definition a generator of this strategy
     * @return where it keeps its state, as the endpoint lists it (for example {@code jdbc}), or null for nowhere
     */
    default String store(IdgenGenerators.Definition definition) {
        return null;
    }

    /**
     * Called only when Spring Boot's health API is on the classpath.
     *
     * @return the strategy's part of a generator's health, or null when it has none of its own
     */
    default IdgenGeneratorHealth health() {
        return null;
    }

    /**
     * Called only when Micrometer is on the classpath.
     *
     * @return the strategy's meters, or null when it has none of its own
     */
    default IdgenGeneratorMeters meters() {
        return null;
    }

    /**
     * Adds what the {@code idgen} endpoint shows of a generator, when it is one of this strategy's. Issues no ID and
     * touches no store.
     *
     * @param backend the generator under any period or shard wrapper
     * @param detail the generator's details so far
     */
    default void describe(IdService backend, Map<String, Object> detail) {}

    /**
     * What the start-up line says of a generator, when it is one of this strategy's and the store's own description
     * ({@code service=} and its {@code toString()}) is not what people look for first.
     *
     * @param backend the generator under any period or shard wrapper
     * @return for example {@code workerId=3 (leased as 'pod-a', 29812 ms left, renewed by a heartbeat), layout=...}, or
     *     null when the backend is not this strategy's or its {@code toString()} says it best
     */
    default String describeAtStartup(IdService backend) {
        return null;
    }

    /**
     * An optional dependency a generator needs.
     *
     * @param dependency the dependency
     * @param feature the setting that needs it, for the failure report: {@code idgen.strategy=ticket}
     * @param waivedBy bean types that, defined by the application itself, make the dependency unnecessary
     */
    record Requirement(IdgenDependency dependency, String feature, List<Class<?>> waivedBy) {

        /**
         * @param defaultPieces what waives it for the default generator, whose pieces are beans the application may
         *        define itself; nothing does for a named generator
         */
        public static Requirement of(
                IdgenDependency dependency,
                String feature,
                IdgenGenerators.Definition definition,
                Class<?>... defaultPieces) {
            return new Requirement(dependency, feature, definition.isDefault() ? List.of(defaultPieces) : List.of());
        }

        /** The same, also waived by an application's own {@link DataSource} bean. */
        public Requirement orDataSource() {
            List<Class<?>> with = new ArrayList<>(waivedBy);
            with.add(DataSource.class);
            return new Requirement(dependency, feature, List.copyOf(with));
        }

        /** For callers that take an array. */
        public Class<?>[] waivedByArray() {
            return waivedBy.toArray(new Class<?>[0]);
        }

        @Override
        public String toString() {
            return feature + " needs " + dependency.what() + " unless " + Arrays.toString(waivedByArray());
        }
    }

    /**
     * A table a generator writes.
     *
     * @param table its name, or null when none is configured
     * @param kind the kind of row: {@code segment}, {@code ticket}, {@code worker id lease}
     * @param property the property that names it, for messages
     */
    record TableClaim(String table, String kind, String property) {}
}
