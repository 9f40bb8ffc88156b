package dev.idgen.core;

import dev.idgen.core.readable.ReadableIdFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Hands out IDs as strings a person can read: the time they were issued, a short business code and a counter, for
 * example {@code 250314093015123ORD04200017} for an order issued at 2025-03-14 09:30:15.123.
 *
 * <p>Unlike {@link IdService}'s 64-bit IDs these are not numbers, and they are only roughly time-ordered. An
 * implementation never hands out the same string twice; when it cannot be sure of that it throws an
 * {@link IdGenerationException} instead of guessing.
 *
 * <p>Implementations are thread-safe.
 */
public interface ReadableIdService {

    /**
     * The next readable ID, carrying {@code bizCode} as it is.
     *
     * @param bizCode a business code of 0 to 4 characters of {@code [A-Za-z0-9]}, for example {@code ORD}; the empty
     *        string leaves it out
     * @return a new ID, never {@code null}
     * @throws InvalidArgumentException naming {@code bizCode} when it breaks the rule
     * @throws IdGenerationException when no ID can be issued safely, for example {@link StoreUnavailableException}
     *         when the store behind the service does not answer
     */
    String nextReadableId(String bizCode);

    /**
     * The next readable ID, without blocking the calling thread: completed on the client's I/O thread where the store
     * allows it, otherwise by running {@link #nextReadableId(String)} on {@code blocking} (this default does that for
     * every call). Stages chained to the future must not block.
     *
     * @param bizCode a business code of 0 to 4 characters of {@code [A-Za-z0-9]}
     * @param blocking runs the calls that may block; one that refuses the task fails the future with a
     *        {@link StoreUnavailableException}
     * @return the ID, or an {@link IdGenerationException} when none can be issued safely
     * @throws InvalidArgumentException at once, naming {@code bizCode} when it breaks the rule
     */
    default CompletableFuture<String> nextReadableIdAsync(String bizCode, Executor blocking) {
        ReadableIdFormat.checkBizCode(bizCode);
        return AsyncCalls.offload(() -> nextReadableId(bizCode), blocking, "readable IDs");
    }

    /**
     * What a readable ID issued by this service carries: at least when it was issued and its business code.
     *
     * @param id an ID from {@link #nextReadableId(String)} of a service configured like this one
     * @return its parts
     * @throws InvalidArgumentException naming {@code id} when it is {@code null} or cannot have been issued by this
     *         service (wrong length, a non-digit where digits belong, an impossible date)
     */
    DecodedId decodeReadable(String id);
}
