package dev.idgen.spring.reactive;

import dev.idgen.core.IdService;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The {@link ReactiveIdService} over an {@link IdService}'s {@code ...Async} methods: each generator decides how its
 * ID arrives (from memory on the subscribing thread, on its client's I/O thread, or on {@code blocking}); this class
 * only makes the calls cold and lazy.
 */
public final class DefaultReactiveIdService implements ReactiveIdService {

    private final IdService ids;
    private final Executor blocking;

    /**
     * @param ids the generators
     * @param blocking runs the calls that must block; a bounded one ({@link BoundedBlockingExecutor}) keeps a slow
     *        store from piling up calls without limit
     */
    public DefaultReactiveIdService(IdService ids, Executor blocking) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.blocking = Objects.requireNonNull(blocking, "blocking");
    }

    @Override
    public Mono<Long> nextId(String name) {
        // defer: an argument error thrown by nextIdAsync arrives as onError, and every subscription takes a new ID.
        return Mono.defer(() -> mono(ids.nextIdAsync(name, blocking)));
    }

    @Override
    public Mono<long[]> nextIds(String name, int count) {
        return Mono.defer(() -> mono(ids.nextIdsAsync(name, count, blocking)));
    }

    @Override
    public Flux<Long> ids(String name) {
        return new IdFlux(ids, name, blocking);
    }

    @Override
    public IdService blocking() {
        return ids;
    }

    /**
     * A future already complete (an ID from memory) becomes a plain {@code Mono.just}; otherwise the Mono waits for
     * it without cancelling it on cancel: the generator may share one round trip among callers (tickets coalesce
     * their updates), and one caller going away must not fail the others. The ID it would have got is a gap.
     */
    static <T> Mono<T> mono(CompletableFuture<T> future) {
        if (future.isDone() && !future.isCompletedExceptionally()) {
            return Mono.just(future.join());
        }
        return Mono.fromFuture(future, true);
    }
}
