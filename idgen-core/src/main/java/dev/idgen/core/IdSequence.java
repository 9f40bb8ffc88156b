package dev.idgen.core;

/**
 * One name's IDs, bound to the generator that serves the name: the hot-path handle that {@link IdService#sequence}
 * returns. It checks the name once, when it is made, and looks nothing up per call.
 *
 * <p>Implementations are thread-safe.
 */
public interface IdSequence {

    /**
     * @return the name this sequence issues IDs for
     */
    String name();

    /**
     * @return the generator serving the name: {@value RoutingIdService#DEFAULT_GENERATOR} or the name of a generator
     *         of its own
     */
    String generator();

    /**
     * @return the strategy of that generator, for example {@code ticket}
     */
    String strategy();

    /**
     * The next ID of this sequence.
     *
     * @return a positive ID
     * @throws IdGenerationException when no ID can be issued safely
     */
    long nextId();

    /**
     * The next {@code count} IDs of this sequence, in the order they were issued.
     *
     * @param count how many IDs, from 1 to {@link IdService#MAX_BATCH_SIZE}
     * @return a new array of {@code count} positive IDs
     * @throws IllegalArgumentException when the count breaks its rule
     * @throws IdGenerationException when no ID can be issued safely
     */
    long[] nextIds(int count);

    /**
     * What an ID of this sequence carries, read by the generator that issued it.
     *
     * @param id a positive ID
     * @return its parts, with the generator's name
     * @throws IllegalArgumentException when {@code id} is not positive or cannot have been issued by the generator
     */
    DecodedId decode(long id);
}
