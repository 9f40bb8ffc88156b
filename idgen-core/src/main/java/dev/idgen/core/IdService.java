package dev.idgen.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Hands out globally unique, roughly time-ordered 64-bit IDs.
 *
 * <p>Every ID is positive. An implementation never hands out the same ID twice for one name: when it cannot be sure
 * of that (the clock moved backwards too far, the store is unreachable or lost its data) it throws an
 * {@link IdGenerationException} instead of guessing.
 *
 * <p>Implementations are thread-safe.
 */
public interface IdService {

    /** The name {@link #nextId()} draws from. */
    String DEFAULT_NAME = "default";

    /** The largest {@code count} that {@link #nextIds(String, int)} accepts. */
    int MAX_BATCH_SIZE = 10_000;

    /**
     * The strategy behind this service, as configured with {@code idgen.strategy}, for example {@code snowflake}.
     *
     * @return the strategy name, never {@code null}
     */
    String strategy();

    /**
     * The next ID of the {@linkplain #DEFAULT_NAME default} sequence.
     *
     * @return a positive ID
     * @throws IdGenerationException when no ID can be issued safely
     */
    default long nextId() {
        return nextId(DEFAULT_NAME);
    }

    /**
     * The next ID of the named sequence.
     *
     * @param name the sequence: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, the first a letter or digit (see
     *        {@link IdArguments#checkName})
     * @return a positive ID
     * @throws IllegalArgumentException when the name breaks the rule
     * @throws IdGenerationException when no ID can be issued safely
     */
    long nextId(String name);

    /**
     * The next {@code count} IDs of the named sequence, in the order they were issued.
     *
     * @param name the sequence: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, the first a letter or digit
     * @param count how many IDs, from 1 to {@link #MAX_BATCH_SIZE}
     * @return a new array of {@code count} positive IDs
     * @throws IllegalArgumentException when the name or the count breaks its rule
     * @throws IdGenerationException when no ID can be issued safely; IDs already taken for the batch are gaps
     */
    long[] nextIds(String name, int count);

    /**
     * The next ID of the named sequence, without blocking the calling thread. A generator that has the ID in memory
     * completes the future at once, on the caller's thread; one whose round trip can complete on its client's I/O
     * thread (the {@code redis} strategy) completes it there; every other call runs {@link #nextId(String)} on
     * {@code blocking}. This default does the last for every call: a generator overrides it where it can do better.
     *
     * <p>The future completes on the thread that produced the ID, which may be an I/O thread: stages chained to it
     * must not block.
     *
     * @param name the sequence: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, the first a letter or digit
     * @param blocking runs the calls that may block (a store's round trip, a wait for a load); one that refuses the
     *        task (a full queue) fails the future with a {@link StoreUnavailableException}
     * @return the ID, or an {@link IdGenerationException} when no ID can be issued safely
     * @throws IllegalArgumentException at once, when the name breaks its rule
     */
    default CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        IdArguments.checkName(name);
        return AsyncCalls.offload(() -> nextId(name), blocking, strategy());
    }

    /**
     * The next {@code count} IDs of the named sequence, without blocking the calling thread: as
     * {@link #nextIdAsync(String, Executor)}, for {@link #nextIds(String, int)}.
     *
     * @param name the sequence: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, the first a letter or digit
     * @param count how many IDs, from 1 to {@link #MAX_BATCH_SIZE}
     * @param blocking runs the calls that may block
     * @return a new array of {@code count} positive IDs, in the order they were issued
     * @throws IllegalArgumentException at once, when the name or the count breaks its rule
     */
    default CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        IdArguments.checkName(name);
        IdArguments.checkCount(count);
        return AsyncCalls.offload(() -> nextIds(name, count), blocking, strategy());
    }

    /**
     * What an ID issued by this service carries.
     *
     * @param id a positive ID
     * @return its parts
     * @throws IllegalArgumentException when {@code id} is not positive or cannot have been issued by this strategy
     */
    DecodedId decode(long id);

    /**
     * What an ID of the named sequence carries, read by the generator that serves the name. Where several generators
     * serve different names ({@link RoutingIdService}), only this form can tell which one to ask; on a service with a
     * single generator it is {@link #decode(long)}.
     *
     * @param name the sequence the ID was issued for
     * @param id a positive ID
     * @return its parts
     * @throws IllegalArgumentException when the name breaks its rule, or {@code id} is not positive or cannot have
     *         been issued by this strategy
     */
    default DecodedId decode(String name, long id) {
        IdArguments.checkName(name);
        return decode(id);
    }

    /**
     * A handle on the named sequence that skips the name's check and any routing on each call: keep it in a field.
     *
     * @param name the sequence: 1 to 64 characters of {@code [A-Za-z0-9._:-]}, the first a letter or digit
     * @return the sequence, bound to the generator that serves the name
     * @throws IllegalArgumentException when the name breaks the rule
     */
    default IdSequence sequence(String name) {
        return new BoundIdSequence(this, IdArguments.checkName(name), RoutingIdService.DEFAULT_GENERATOR);
    }
}
