package dev.idgen.spring.reactive;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Where the reactive face runs the calls that must block (a ticket's round trip, a segment buffer waiting for its
 * load): a bounded elastic scheduler of at most {@code threads} threads named {@code idgen-blocking-N}, each with at
 * most {@code queue} calls waiting for it once all are busy. A call beyond that is refused at once, which fails its
 * publisher with a
 * {@link dev.idgen.core.StoreUnavailableException}, instead of piling up behind a store that does not answer.
 */
public final class BoundedBlockingExecutor implements Executor, AutoCloseable {

    /** The prefix of its threads' names. */
    public static final String THREAD_NAME_PREFIX = "idgen-blocking";

    /** How long an idle thread lives, as Reactor's own bounded elastic scheduler. */
    private static final int IDLE_THREAD_SECONDS = 60;

    private final Scheduler scheduler;

    /**
     * @param threads at most this many threads run calls at once
     * @param queue at most this many calls wait for each thread once all are busy
     */
    public BoundedBlockingExecutor(int threads, int queue) {
        // Daemon threads: an application that forgets to close the context still exits.
        this.scheduler = Schedulers.newBoundedElastic(threads, queue, THREAD_NAME_PREFIX, IDLE_THREAD_SECONDS, true);
    }

    /**
     * @throws RejectedExecutionException when every thread is busy and has {@code queue} calls waiting, or after
     *         {@link #close()}
     */
    @Override
    public void execute(Runnable command) {
        scheduler.schedule(command);
    }

    /**
     * @return the scheduler behind this executor, for {@code publishOn}/{@code subscribeOn} of an application's own
     *         blocking calls next to idgen's
     */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Stops its threads; a call after it is refused. */
    @Override
    public void close() {
        scheduler.dispose();
    }
}
