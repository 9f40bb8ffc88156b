package dev.idgen.redis;

import dev.idgen.core.StoreUnavailableException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The window work of one name of a {@link RedisWindowedCounter} (reserving from the database, installing in Redis),
 * which blocks: run off Lettuce's event loop on idgen's own window threads, one at a time in the order asked for, each
 * caller's wait bounded by {@link RedisWindowedCounter#WINDOW_WORK_TIMEOUT}. A class of its own because this chaining
 * and bounding is about threads, not about windows, and can be tested without Redis or a database.
 */
final class SerialWindowWork {

    /**
     * Runs the window work (reserving from the database, installing in Redis), which blocks, off Lettuce's event loop.
     * A name's window work runs one at a time ({@link #run}), so a name whose database call hangs holds one thread, not
     * all of them.
     */
    private static final ThreadPoolExecutor WINDOW_WORK;

    static {
        WINDOW_WORK =
                new ThreadPoolExecutor(32, 32, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new ThreadFactory() {
                    private final AtomicInteger count = new AtomicInteger();

                    @Override
                    public Thread newThread(Runnable runnable) {
                        Thread thread = new Thread(runnable, "idgen-redis-window-" + count.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    }
                });
        WINDOW_WORK.allowCoreThreadTimeOut(true);
    }

    /** The name's latest window work: the next one runs after it, so that none waits on another's lock. */
    private CompletableFuture<?> windowWorkTail = CompletableFuture.completedFuture(null);

    private final Object windowWorkLock = new Object();
    private final String name;

    /**
     * @param name the counter's name, for messages
     */
    SerialWindowWork(String name) {
        this.name = name;
    }

    /**
     * Runs {@code work} on the window threads after the name's earlier window work.
     *
     * @return its result; failed with a {@link StoreUnavailableException} when it has not ended within
     *         {@link RedisWindowedCounter#WINDOW_WORK_TIMEOUT} (it goes on, and any window it installs is used by later
     *         calls)
     */
    CompletableFuture<Long> run(Supplier<Long> work) {
        CompletableFuture<Long> result;
        synchronized (windowWorkLock) {
            result = windowWorkTail.handleAsync((ignored, failure) -> work.get(), WINDOW_WORK);
            windowWorkTail = result;
        }
        // A copy: the bound ends this caller's wait, not the chain, whose next work must still wait for this one.
        return result.copy()
                .orTimeout(RedisWindowedCounter.WINDOW_WORK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        failure instanceof TimeoutException
                                ? new StoreUnavailableException(
                                        "The next Redis window of '" + name + "' was not reserved and installed"
                                                + " within " + RedisWindowedCounter.WINDOW_WORK_TIMEOUT
                                                + " (the database or Redis is slow); it still may be",
                                        failure)
                                : failure instanceof CompletionException && failure.getCause() != null
                                        ? failure.getCause()
                                        : failure));
    }
}
