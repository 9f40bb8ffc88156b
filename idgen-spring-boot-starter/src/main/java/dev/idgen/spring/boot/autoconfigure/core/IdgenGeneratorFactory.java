package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdService;

/**
 * Builds the generators of one strategy; each strategy's configuration declares one, and
 * {@code IdgenAutoConfiguration} asks it for every generator of that strategy.
 */
public interface IdgenGeneratorFactory {

    IdgenProperties.Strategy strategy();

    /**
     * @param definition the generator: the default one is built on the strategy's beans (which the application may
     *        replace), a named one on pieces of its own
     * @return the generator; an {@link AutoCloseable} one is closed with the context
     */
    IdService create(IdgenGenerators.Definition definition);
}
