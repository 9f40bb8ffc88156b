package dev.idgen.server;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one place where requests wait for a store: a fixed number of threads and a fixed number of calls waiting for
 * them, shared by every transport. A request whose IDs are in memory never comes here (the segment buffer completes
 * it on the request's own thread), so while a store is slow or paused, the names served from memory keep answering at
 * once, and the request threads held waiting for the store are at most this pool's threads plus its queue.
 *
 * <p>A call past both is refused at once with {@link RejectedExecutionException}, which the service answers as
 * {@link ServerRefusal.Reason#OVERLOADED}. The permits, not the queue, bound the calls: the queue is unbounded in type
 * but never holds more than the permits let in, so no {@code RejectedExecutionException} can come from the pool
 * itself once a call was admitted.
 */
public final class StoreWork implements Executor, AutoCloseable {

    private final ThreadPoolExecutor pool;

    private final Semaphore admitted;

    private final int threads;

    private final int queue;

    /**
     * @param threads the calls that run against a store at once, at least 1
     * @param queue the calls that may wait for one of them, at least 0
     */
    public StoreWork(int threads, int queue) {
        this.threads = threads;
        this.queue = queue;
        AtomicInteger number = new AtomicInteger();
        this.pool =
                new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "idgen-store-" + number.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        this.pool.allowCoreThreadTimeOut(true);
        this.admitted = new Semaphore(threads + queue);
    }

    @Override
    public void execute(Runnable call) {
        if (!admitted.tryAcquire()) {
            throw new RejectedExecutionException("All " + threads + " store threads are busy and " + queue
                    + " calls already wait for them (idgen.server.store-threads, idgen.server.store-queue)");
        }
        try {
            pool.execute(() -> {
                try {
                    call.run();
                } finally {
                    admitted.release();
                }
            });
        } catch (RejectedExecutionException shutDown) {
            admitted.release();
            throw shutDown;
        }
    }

    /** @return the calls running or waiting now */
    public int inFlight() {
        return threads + queue - admitted.availablePermits();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
