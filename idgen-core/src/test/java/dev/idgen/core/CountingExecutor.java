package dev.idgen.core;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code blocking} executor of the {@code ...Async} tests: counts the calls handed to it, so a test can tell an
 * answer from memory (no call) from a hand-over, and runs them on threads of its own.
 */
public final class CountingExecutor implements java.util.concurrent.Executor, AutoCloseable {

    private final AtomicInteger calls = new AtomicInteger();
    private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "test-blocking");
        thread.setDaemon(true);
        return thread;
    });

    @Override
    public void execute(Runnable command) {
        calls.incrementAndGet();
        threads.execute(command);
    }

    /** @return how many calls were handed over so far */
    public int calls() {
        return calls.get();
    }

    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
