package dev.idgen.core;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Runs a call that may block on an executor meant for it, for the {@code ...Async} methods of {@link IdService} and
 * {@link ReadableIdService} that cannot answer from memory or on an I/O thread.
 */
public final class AsyncCalls {

    private AsyncCalls() {}

    /**
     * @param call the blocking call
     * @param blocking where it runs
     * @param what names the generator in the error when {@code blocking} refuses the task, e.g. {@code ticket}
     * @return completes with the call's result or its exception; fails with a {@link StoreUnavailableException} when
     *         {@code blocking} refuses the task (its queue is full, it is shut down)
     */
    public static <T> CompletableFuture<T> offload(Supplier<T> call, Executor blocking, String what) {
        Objects.requireNonNull(blocking, "blocking");
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            blocking.execute(() -> {
                try {
                    result.complete(call.get());
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new StoreUnavailableException(
                    "The executor for blocking idgen calls refused a call to the " + what
                            + " generator (its queue is full, or it is shut down): too many calls are waiting for the"
                            + " store; raise idgen.reactive.blocking-queue or idgen.reactive.blocking-threads, or"
                            + " slow the callers down",
                    e));
        }
        return result;
    }
}
