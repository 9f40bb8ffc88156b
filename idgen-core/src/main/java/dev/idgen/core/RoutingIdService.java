package dev.idgen.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Several generators behind one {@link IdService}: a name that has a generator of its own is served by it, every
 * other name by the default generator. Usable from plain Java; the Spring Boot starter builds one from
 * {@code idgen.generators.<name>.*}.
 *
 * <p>Each generator serves only its own names, so two generators never write the same sequence even when they share a
 * table or a Redis prefix: the generator {@code invoice} is asked for the name {@code invoice} only, and the default
 * generator never for {@code invoice}.
 *
 * <p>{@link #decode(long)} cannot tell from a bare ID which generator issued it (their IDs may overlap, as two
 * sequences' IDs may), so it asks the default generator; {@link #decode(String, long)} asks the generator serving the
 * name. Either answer names the generator.
 *
 * <p>Routing costs one hash lookup per call; {@link #sequence(String)} hands out a handle bound to the generator, with
 * no lookup.
 */
public final class RoutingIdService implements IdService, AutoCloseable {

    /** The name of the generator that serves every name without a generator of its own. */
    public static final String DEFAULT_GENERATOR = "default";

    private final IdService defaultGenerator;

    /** Read-only after construction, so lookups need no lock. */
    private final Map<String, IdService> generators;

    /**
     * @param defaultGenerator serves every name not in {@code generators}
     * @param generators each name's generator of its own, by name; the name {@value #DEFAULT_GENERATOR} is reserved
     * @throws IllegalArgumentException when a name breaks the name rule or is {@value #DEFAULT_GENERATOR}, or a
     *         generator is null
     */
    public RoutingIdService(IdService defaultGenerator, Map<String, ? extends IdService> generators) {
        if (defaultGenerator == null) {
            throw new InvalidArgumentException("defaultGenerator", null, "defaultGenerator must not be null");
        }
        Map<String, IdService> copy = new LinkedHashMap<>();
        generators.forEach((name, generator) -> {
            IdArguments.checkName(name);
            if (DEFAULT_GENERATOR.equals(name)) {
                throw new InvalidArgumentException(
                        "generators",
                        name,
                        "The generator name '" + DEFAULT_GENERATOR + "' is reserved for the default generator");
            }
            if (generator == null) {
                throw new InvalidArgumentException("generators", name, "The generator of '" + name + "' is null");
            }
            copy.put(name, generator);
        });
        this.defaultGenerator = defaultGenerator;
        this.generators = Collections.unmodifiableMap(copy);
    }

    /**
     * @return the default generator's strategy
     */
    @Override
    public String strategy() {
        return defaultGenerator.strategy();
    }

    @Override
    public long nextId(String name) {
        return serving(name).nextId(name);
    }

    @Override
    public long[] nextIds(String name, int count) {
        return serving(name).nextIds(name, count);
    }

    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        return serving(name).nextIdAsync(name, blocking);
    }

    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        return serving(name).nextIdsAsync(name, count, blocking);
    }

    @Override
    public DecodedId decode(long id) {
        return GeneratorDecodedId.of(DEFAULT_GENERATOR, defaultGenerator.decode(id));
    }

    @Override
    public DecodedId decode(String name, long id) {
        IdArguments.checkName(name);
        return GeneratorDecodedId.of(generatorOf(name), serving(name).decode(name, id));
    }

    @Override
    public IdSequence sequence(String name) {
        IdArguments.checkName(name);
        IdSequence own = serving(name).sequence(name);
        String generator = generatorOf(name);
        return own.generator().equals(generator) ? own : new RenamedSequence(own, generator);
    }

    /**
     * @param name a sequence name
     * @return the name of the generator that serves it: {@code name} itself when it has a generator of its own,
     *         {@value #DEFAULT_GENERATOR} otherwise
     */
    public String generatorOf(String name) {
        return generators.containsKey(name) ? name : DEFAULT_GENERATOR;
    }

    /**
     * @return every generator by name, the default one first under {@value #DEFAULT_GENERATOR}
     */
    public Map<String, IdService> generators() {
        Map<String, IdService> all = new LinkedHashMap<>();
        all.put(DEFAULT_GENERATOR, defaultGenerator);
        all.putAll(generators);
        return Collections.unmodifiableMap(all);
    }

    /**
     * @param service any service
     * @return its generators by name: a routing service's {@link #generators()}, or any other service alone under
     *         {@value #DEFAULT_GENERATOR}
     */
    public static Map<String, IdService> generatorsOf(IdService service) {
        return service instanceof RoutingIdService routing ? routing.generators() : Map.of(DEFAULT_GENERATOR, service);
    }

    /**
     * Closes every generator that is {@link AutoCloseable}, the named ones first; the first failure is rethrown after
     * all were tried.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (IdService generator : generators.values()) {
            failure = closeQuietly(generator, failure);
        }
        failure = closeQuietly(defaultGenerator, failure);
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException closeQuietly(IdService generator, RuntimeException failure) {
        if (generator instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                RuntimeException wrapped = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                if (failure == null) {
                    return wrapped;
                }
                failure.addSuppressed(wrapped);
            }
        }
        return failure;
    }

    private IdService serving(String name) {
        // A null name finds no generator; the default generator rejects it with the name rule's message.
        IdService own = name == null ? null : generators.get(name);
        return own != null ? own : defaultGenerator;
    }

    /** A generator's own handle, under the name the router knows the generator by. */
    private record RenamedSequence(IdSequence own, String generator) implements IdSequence {

        @Override
        public String name() {
            return own.name();
        }

        @Override
        public String strategy() {
            return own.strategy();
        }

        @Override
        public long nextId() {
            return own.nextId();
        }

        @Override
        public long[] nextIds(int count) {
            return own.nextIds(count);
        }

        @Override
        public DecodedId decode(long id) {
            return GeneratorDecodedId.of(generator, own.decode(id));
        }
    }

    @Override
    public String toString() {
        return "RoutingIdService" + generators().keySet();
    }
}
