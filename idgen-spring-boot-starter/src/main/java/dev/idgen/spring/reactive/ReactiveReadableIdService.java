package dev.idgen.spring.reactive;

import dev.idgen.core.ReadableIdService;
import reactor.core.publisher.Mono;

/**
 * The {@link ReadableIdService} for reactive callers: readable IDs from the bucketed Redis sequences
 * ({@code idgen.redis.buckets.enabled=true}), emitted on Lettuce's event loop when the round trip completes.
 * Present only when readable IDs are on.
 */
public interface ReactiveReadableIdService {

    /**
     * @param bizCode a business code of 0 to 4 characters of {@code [A-Za-z0-9]}; the empty string leaves it out
     * @return the next readable ID; an {@link dev.idgen.core.InvalidArgumentException} naming {@code bizCode} when it
     *         breaks the rule
     */
    Mono<String> nextReadableId(String bizCode);

    /**
     * @return the blocking service behind this one, for {@code decodeReadable}
     */
    ReadableIdService blocking();
}
