package dev.idgen.server;

import java.util.concurrent.ConcurrentHashMap;
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
 * <p>No client may hold more than half of either bound, so that one client's flood leaves the other half to the
 * others. A call past a bound is refused at once with {@link RejectedExecutionException}, which the service answers as
 * {@link ServerRefusal.Reason#OVERLOADED}. The permits, not the queue, bound the calls: the queue is unbounded in type
 * but never holds more than the permits let in, so no {@code RejectedExecutionException} can come from the pool
 * itself once a call was admitted.
 */
public final class StoreWork implements AutoCloseable {

    private final ThreadPoolExecutor pool;

    private final Semaphore admitted;

    private final int threads;

    private final int queue;

    /**
     * The request threads waiting for a store, whatever does the work (a StoreWork thread, or a store's own client
     * library completing it later, as Redis's does): as many as the pool takes.
     */
    private final Semaphore waiting;

    /** The most waits one client may hold: half, so that one client's flood leaves the other half to the others. */
    private final int perClient;

    private final ConcurrentHashMap<String, AtomicInteger> waitsByClient = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, Executor> lanes = new ConcurrentHashMap<>();

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
        this.waiting = new Semaphore(threads + queue);
        this.perClient = Math.max(1, (threads + queue) / 2);
    }

    /**
     * Lets a request thread wait for a store, within the bound of all waits and of its client's share of them.
     *
     * @param client the caller's client id, from configuration (so the map of clients stays bounded)
     * @return whether it may wait; if so, {@link #endWait(String)} must follow
     */
    public boolean tryWait(String client) {
        AtomicInteger mine = waitsByClient.computeIfAbsent(client, key -> new AtomicInteger());
        if (mine.incrementAndGet() > perClient) {
            mine.decrementAndGet();
            return false;
        }
        if (!waiting.tryAcquire()) {
            mine.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Ends a wait that {@link #tryWait(String)} allowed. */
    public void endWait(String client) {
        waiting.release();
        waitsByClient.get(client).decrementAndGet();
    }

    /**
     * @param client the caller's client id, from configuration (so the map of clients stays bounded)
     * @return where that client's calls to a store run: within the pool's bound and the client's share of it
     */
    public Executor forClient(String client) {
        return lanes.computeIfAbsent(client, key -> {
            AtomicInteger mine = new AtomicInteger();
            return call -> execute(key, mine, call);
        });
    }

    private void execute(String client, AtomicInteger mine, Runnable call) {
        if (mine.incrementAndGet() > perClient) {
            mine.decrementAndGet();
            throw new RejectedExecutionException("The client '" + client + "' has " + perClient
                    + " calls to the stores already: half of what the server runs and queues");
        }
        if (!admitted.tryAcquire()) {
            mine.decrementAndGet();
            throw new RejectedExecutionException("All " + threads + " store threads are busy and " + queue
                    + " calls already wait for them (idgen.server.store-threads, idgen.server.store-queue)");
        }
        try {
            pool.execute(() -> {
                try {
                    call.run();
                } finally {
                    admitted.release();
                    mine.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException shutDown) {
            admitted.release();
            mine.decrementAndGet();
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
