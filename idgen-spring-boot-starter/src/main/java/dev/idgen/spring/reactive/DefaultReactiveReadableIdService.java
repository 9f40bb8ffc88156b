package dev.idgen.spring.reactive;

import dev.idgen.core.ReadableIdService;
import java.util.Objects;
import java.util.concurrent.Executor;
import reactor.core.publisher.Mono;

/**
 * The {@link ReactiveReadableIdService} over {@link ReadableIdService#nextReadableIdAsync}: cold and lazy, as
 * {@link DefaultReactiveIdService}.
 */
public final class DefaultReactiveReadableIdService implements ReactiveReadableIdService {

    private final ReadableIdService ids;
    private final Executor blocking;

    /**
     * @param ids the readable IDs
     * @param blocking runs the calls that must block, where the store cannot complete on its I/O thread
     */
    public DefaultReactiveReadableIdService(ReadableIdService ids, Executor blocking) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.blocking = Objects.requireNonNull(blocking, "blocking");
    }

    @Override
    public Mono<String> nextReadableId(String bizCode) {
        return Mono.defer(() -> DefaultReactiveIdService.mono(ids.nextReadableIdAsync(bizCode, blocking)));
    }

    @Override
    public ReadableIdService blocking() {
        return ids;
    }
}
