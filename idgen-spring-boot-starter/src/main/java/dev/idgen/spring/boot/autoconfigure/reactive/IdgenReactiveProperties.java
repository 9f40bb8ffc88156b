package dev.idgen.spring.boot.autoconfigure.reactive;

import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The executor on which the reactive face runs the calls that must block (tickets, a segment buffer waiting for its
 * load, any store without an asynchronous client).
 */
@ConfigurationProperties("idgen.reactive")
public class IdgenReactiveProperties implements InitializingBean {

    static final int MAX_BLOCKING_THREADS = 1_000;
    static final int MAX_BLOCKING_QUEUE = 1_000_000;

    /**
     * How many threads (named idgen-blocking-N) may run blocking idgen calls for reactive callers at once, from 1 to
     * 1000. Unset: 10 times the available processors, as Reactor's bounded elastic scheduler.
     */
    private Integer blockingThreads;

    /**
     * How many blocking idgen calls may wait for each of those threads once all are busy, from 1 to 1000000 (so at
     * most blocking-threads times this many wait in all). A call beyond it fails at once with a
     * StoreUnavailableException (the store is not keeping up) instead of waiting without limit.
     */
    private int blockingQueue = 10_000;

    public Integer getBlockingThreads() {
        return blockingThreads;
    }

    public void setBlockingThreads(Integer blockingThreads) {
        this.blockingThreads = blockingThreads;
    }

    public int getBlockingQueue() {
        return blockingQueue;
    }

    public void setBlockingQueue(int blockingQueue) {
        this.blockingQueue = blockingQueue;
    }

    /**
     * @return {@code idgen.reactive.blocking-threads}, or its default for this machine when unset
     */
    public int blockingThreadsOrDefault() {
        return blockingThreads != null
                ? blockingThreads
                : Math.min(MAX_BLOCKING_THREADS, 10 * Runtime.getRuntime().availableProcessors());
    }

    @Override
    public void afterPropertiesSet() {
        if (blockingThreads != null && (blockingThreads < 1 || blockingThreads > MAX_BLOCKING_THREADS)) {
            throw new IdgenPropertyValueException(
                    "idgen.reactive.blocking-threads",
                    blockingThreads,
                    "must be between 1 and " + MAX_BLOCKING_THREADS,
                    "Set idgen.reactive.blocking-threads between 1 and " + MAX_BLOCKING_THREADS
                            + ", or leave it unset for 10 times the available processors.");
        }
        if (blockingQueue < 1 || blockingQueue > MAX_BLOCKING_QUEUE) {
            throw new IdgenPropertyValueException(
                    "idgen.reactive.blocking-queue",
                    blockingQueue,
                    "must be between 1 and " + MAX_BLOCKING_QUEUE,
                    "Set idgen.reactive.blocking-queue between 1 and " + MAX_BLOCKING_QUEUE
                            + ", or leave it unset for 10000.");
        }
    }
}
