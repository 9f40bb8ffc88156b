package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A ticket server's own small executor, for the work that can block far longer than any statement timeout (borrowing
 * or giving back a connection, a round trip on H2 or on a driver that cannot bound its own reads), with the one way a
 * caller waits for it: at most until its deadline, then {@link StoreUnavailableException} naming the server and its
 * timeout. Kept apart from {@link TicketServer} because bounding a wait is the same whatever the work is, and can be
 * checked without a database.
 */
final class BoundedExecutor {

    /**
     * The most tasks one server runs on its executor at once (borrowing or giving back a connection, a round trip on H2
     * or a driver that cannot bound its own reads); more wait in line, their callers within their own deadlines.
     */
    private static final int MAX_CONCURRENT_TASKS = 64;

    private final String id;
    private final long timeoutNanos;
    private final ThreadPoolExecutor executor;

    /**
     * @param id the ticket server's name, for its threads and messages
     * @param timeoutNanos the server's timeout, for the message of a call that ran out of time
     */
    BoundedExecutor(String id, long timeoutNanos) {
        this.id = id;
        this.timeoutNanos = timeoutNanos;
        AtomicInteger threads = new AtomicInteger();
        // Threads end after a few seconds idle: tasks are rare (borrowing and giving back connections about once a
        // second) unless the database makes every round trip one.
        this.executor = new ThreadPoolExecutor(
                MAX_CONCURRENT_TASKS,
                MAX_CONCURRENT_TASKS,
                2,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, "idgen-ticket-" + id + "-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        this.executor.allowCoreThreadTimeOut(true);
    }

    /**
     * @return the executor itself, for work nobody waits on (a connection given back) or that bounds its own wait
     */
    Executor executor() {
        return executor;
    }

    /**
     * Runs {@code work} on this server's executor and waits for it at most until the deadline.
     */
    <T> T bounded(long deadline, Callable<T> work) {
        Future<T> future;
        try {
            future = executor.submit(work);
        } catch (RejectedExecutionException e) {
            throw new StoreUnavailableException("Ticket server " + id + " is shut down", e);
        }
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // Interrupting frees a wait for the pool at once; a blocked socket read ends at its network timeout.
            future.cancel(true);
            throw timedOut(e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while waiting for ticket server " + id, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new StoreUnavailableException("Ticket server " + id + " failed: " + cause.getMessage(), cause);
        }
    }

    /**
     * @return the failure of a call that ran out of time, given its cause if any
     */
    StoreUnavailableException timedOut(Exception cause) {
        return new StoreUnavailableException(
                "Ticket server " + id + " did not answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                        + " ms (idgen.jdbc.timeout)",
                cause);
    }

    /** Stops the executor: work running is interrupted, and work submitted later is refused. */
    void shutdownNow() {
        executor.shutdownNow();
    }
}
