package dev.idgen.spring.reactive;

import dev.idgen.core.IdService;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The {@link IdService} for reactive callers (WebFlux, R2DBC, Reactor): the same generators, names and guarantees,
 * as publishers that never block the subscribing thread.
 *
 * <p>How an ID arrives depends on the strategy serving the name: Snowflake and segments with IDs in memory emit it at
 * once, on the subscribing thread; the {@code redis} strategy emits on Lettuce's event loop when its round trip
 * completes; tickets, and a segment buffer that must wait for a load, run the blocking call on a bounded executor
 * ({@code idgen.reactive.*}) and emit there. Operators downstream therefore must not block.
 *
 * <p>Every publisher is cold: nothing is generated until it is subscribed to, and each subscription takes new IDs.
 * Failures arrive as {@code onError}: an {@link IllegalArgumentException} (an
 * {@link dev.idgen.core.InvalidArgumentException} naming the argument) for a bad name or count, an
 * {@link dev.idgen.core.IdGenerationException} when no ID can be issued safely.
 */
public interface ReactiveIdService {

    /**
     * @return the next ID of the {@linkplain IdService#DEFAULT_NAME default} sequence
     */
    default Mono<Long> nextId() {
        return nextId(IdService.DEFAULT_NAME);
    }

    /**
     * @param name the sequence, as in {@link IdService#nextId(String)}
     * @return the next ID of the named sequence
     */
    Mono<Long> nextId(String name);

    /**
     * @param name the sequence, as in {@link IdService#nextIds(String, int)}
     * @param count how many IDs, from 1 to {@link IdService#MAX_BATCH_SIZE}
     * @return a new array of {@code count} IDs, in the order they were issued
     */
    Mono<long[]> nextIds(String name, int count);

    /**
     * An endless stream of the named sequence's IDs, in the order they were issued, taken in batches of at most what
     * the subscriber requested (and at most {@link IdService#MAX_BATCH_SIZE}): IDs are taken only on demand, so a
     * subscriber that cancels leaves at most the rest of one batch unused (a gap, never a repeat).
     *
     * @param name the sequence, as in {@link IdService#nextIds(String, int)}
     * @return the IDs; use {@code take(n)} to bound it
     */
    Flux<Long> ids(String name);

    /**
     * @return the blocking service behind this one, for {@code decode} and everything that does not wait
     */
    IdService blocking();
}
