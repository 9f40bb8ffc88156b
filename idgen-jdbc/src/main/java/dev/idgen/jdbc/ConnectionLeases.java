package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Connections a store keeps between its calls, so that a call runs its statements on the caller's own thread, with a
 * bounded wait, and without borrowing from the pool every time.
 *
 * <p><b>Why.</b> Borrowing from a pool can block in ways nothing on the borrowing thread can cut short: a pool
 * validating an idle connection against a frozen database, a driver connecting to it. So a call that borrows does so
 * on another thread (the store's executor) and waits for it at most until its deadline: a thread hand-off, which at
 * one thread costs about a quarter of a round trip. A connection already in hand is bounded on the caller's own
 * thread: before each use its network timeout (the socket's read timeout) is set to the time the call has left, so a
 * database that stops answering fails the call by its deadline, and the driver closes the connection. Nothing else a
 * statement does waits on the database. (A store only runs calls here on drivers that support network timeouts, and
 * not on H2: embedded, a lock wait has no socket to time out; over TCP, H2 ignores network timeouts.)
 *
 * <p><b>Lifecycle.</b> A connection is borrowed on the executor, switched to auto-commit, lent to one call at a time
 * and kept between calls, most recently used first. It goes back to its pool as lent (auto-commit and network timeout
 * restored) once it has been idle for {@link #IDLE_NANOS} or out of the pool for {@link #HOLD_NANOS}, when a statement
 * on it failed in a way that may have broken it (the other idle ones then go back too: a restart breaks them all), or
 * when the store closes. So the pool sees each connection back at least about once a second, and an application that
 * shares the pool finds idgen's connections back in it within about 200 ms of idgen's last call. How many are out at
 * once is how many round trips run at once, at most {@link #MAX_IDLE} of them kept idle.
 *
 * @param <S> the store's statements
 */
final class ConnectionLeases<S> {

    /** A connection idle this long goes back to its pool. */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** A connection out of its pool this long goes back after its current call. */
    static final long HOLD_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The most connections kept idle. */
    static final int MAX_IDLE = 8;

    /**
     * Times the return of idle connections for every store: one daemon thread, started when a store keeps a
     * connection, ending a few seconds after none does. It only moves connections out of the idle list; giving them
     * back, which may talk to the database, runs on the store's executor.
     */
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    /** One connection in the store's hands. */
    private static final class Lease {
        final Connection connection;
        /** The auto-commit and network timeout the pool lent it with, put back when it goes back. */
        final boolean autoCommit;

        final int networkTimeout;
        final long borrowed;
        /** The network timeout last set, in ms; only the call that holds the lease touches it. */
        int timeoutSet;
        /** When it went idle; guarded by the lock. */
        long idleSince;

        Lease(Connection connection, boolean autoCommit, int networkTimeout, long borrowed) {
            this.connection = connection;
            this.autoCommit = autoCommit;
            this.networkTimeout = networkTimeout;
            this.borrowed = borrowed;
            this.timeoutSet = networkTimeout;
        }
    }

    private final DataSource dataSource;
    private final JdbcStatements<S> statements;
    private final Executor executor;
    private final long timeoutNanos;
    private final Function<Exception, StoreUnavailableException> timedOut;

    private final ReentrantLock lock = new ReentrantLock();
    /** Idle connections, most recently used last. Guarded by {@link #lock}. */
    private final ArrayDeque<Lease> idle = new ArrayDeque<>();
    /** Whether the timer has a sweep of {@link #idle} coming. Guarded by {@link #lock}. */
    private boolean sweepDue;
    /** Guarded by {@link #lock}. */
    private boolean closed;

    /**
     * @param dataSource the pool
     * @param statements the store's statements, which also name it in errors
     * @param executor where connections are borrowed and given back
     * @param timeout the store's timeout; also bounds the reads that give a connection back
     * @param timedOut the failure of a call that ran out of time, given its cause if any
     */
    ConnectionLeases(
            DataSource dataSource,
            JdbcStatements<S> statements,
            Executor executor,
            Duration timeout,
            Function<Exception, StoreUnavailableException> timedOut) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.statements = Objects.requireNonNull(statements, "statements");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.timeoutNanos = timeout.toNanos();
        this.timedOut = Objects.requireNonNull(timedOut, "timedOut");
    }

    /**
     * Runs {@code work} on a kept connection on this thread, or on one borrowed for it; makes a second attempt on a
     * newly borrowed connection when none could be borrowed or the one used turned out to be broken (after a database
     * restart the kept ones are). Only for work whose repetition can waste values (a gap) but never hand one out
     * twice.
     *
     * @param operation what it does, for the message
     * @param deadline the {@link System#nanoTime()} by which the call must end
     * @return what {@code work} returned
     * @throws StoreUnavailableException when the database could not be reached, did not answer by the deadline, or a
     *         statement failed
     */
    <T> T execute(String operation, long deadline, JdbcStatements.Work<S, T> work) {
        return statements.retryingOnce(operation, true, again -> {
            if (again) {
                // A kept connection broke, or none could be borrowed: give back the other kept ones too, which the
                // same cause (a database restart) breaks alike.
                releaseIdle();
            }
            return attempt(deadline, work, again);
        });
    }

    private <T> T attempt(long deadline, JdbcStatements.Work<S, T> work, boolean borrowNew)
            throws SQLException, JdbcStatements.Retryable {
        Lease lease = borrowNew ? null : poll();
        if (lease == null) {
            lease = borrow(deadline);
        }
        boolean keep = true;
        try {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw timedOut.apply(null);
            }
            // Whole milliseconds, rounded up: at most a millisecond late. A lone caller has its full timeout left on
            // every call, so the timeout rarely changes.
            int millis = (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
            if (millis != lease.timeoutSet) {
                lease.connection.setNetworkTimeout(JdbcStatements.IN_CALLER, millis);
                lease.timeoutSet = millis;
            }
            return work.run(lease.connection, statements.statements(lease.connection));
        } catch (SQLException e) {
            if (System.nanoTime() - deadline >= 0) {
                // Its read timed out (the driver has closed it), or it failed as the time ran out.
                keep = false;
                throw timedOut.apply(e);
            }
            if (SqlStates.isBrokenConnection(e)) {
                keep = false;
                throw new JdbcStatements.Retryable(e);
            }
            throw e; // the statement failed, not the connection
        } catch (RuntimeException | Error e) {
            // Not a failure the driver reported in its protocol: the connection may be out of step with the server,
            // and the next call could read this one's reply. Never reuse it.
            keep = false;
            throw e;
        } finally {
            release(lease, keep);
        }
    }

    /**
     * Borrows a connection on the executor, waiting at most until the deadline; one that comes later is kept for the
     * next call.
     */
    private Lease borrow(long deadline) throws JdbcStatements.Retryable {
        Borrowing borrowing = new Borrowing();
        try {
            executor.execute(borrowing);
        } catch (RejectedExecutionException e) {
            throw new StoreUnavailableException(
                    "Could not borrow a connection for " + description() + ": the store is closed", e);
        }
        try {
            return borrowing.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // Interrupting frees a wait for the pool at once; a connection it still gets is the next call's.
            if (!borrowing.cancel(true)) {
                keepLate(borrowing);
            }
            throw timedOut.apply(e);
        } catch (InterruptedException e) {
            if (!borrowing.cancel(true)) {
                keepLate(borrowing);
            }
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while borrowing a connection for " + description(), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof JdbcStatements.Retryable retryable) {
                throw retryable;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new JdbcStatements.Retryable(
                    cause instanceof Exception exception ? exception : new SQLException(cause));
        }
    }

    /** A borrowing that completed as its caller gave up: its connection goes idle. */
    private void keepLate(Borrowing borrowing) {
        try {
            release(borrowing.get(), true);
        } catch (ExecutionException | CancellationException e) {
            // Nothing was borrowed.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // not reached: the borrowing is done
        }
    }

    /** Borrows one connection and readies it for calls: auto-commit on. */
    private final class Borrowing extends FutureTask<Lease> {

        Borrowing() {
            super(ConnectionLeases.this::open);
        }

        @Override
        protected void set(Lease lease) {
            super.set(lease);
            if (isCancelled()) {
                // Its caller gave up before it came: the next call's.
                release(lease, true);
            }
        }
    }

    private Lease open() throws SQLException, JdbcStatements.Retryable {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException | RuntimeException e) {
            throw new JdbcStatements.Retryable(e);
        }
        try {
            boolean autoCommit = connection.getAutoCommit();
            int networkTimeout = JdbcStatements.networkTimeout(connection);
            if (!autoCommit) {
                // Each statement must commit at once, so that no other instance waits on a lock it holds and no later
                // rollback undoes a value already handed out.
                connection.setAutoCommit(true);
            }
            return new Lease(connection, autoCommit, networkTimeout, System.nanoTime());
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection, e);
            if (e instanceof SQLException sql && SqlStates.isBrokenConnection(sql)) {
                throw new JdbcStatements.Retryable(sql);
            }
            throw e;
        }
    }

    /**
     * @return the most recently used idle connection, or {@code null}
     */
    private Lease poll() {
        lock.lock();
        try {
            return idle.pollLast();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Keeps {@code lease} idle for the next call, or gives it back to the pool when it must go.
     */
    private void release(Lease lease, boolean keep) {
        long now = System.nanoTime();
        if (keep && now - lease.borrowed < HOLD_NANOS) {
            boolean schedule = false;
            lock.lock();
            try {
                if (!closed && idle.size() < MAX_IDLE) {
                    lease.idleSince = now;
                    idle.addLast(lease);
                    if (!sweepDue) {
                        sweepDue = true;
                        schedule = true;
                    }
                    lease = null;
                }
            } finally {
                lock.unlock();
            }
            if (schedule) {
                scheduleSweep();
            }
            if (lease == null) {
                return;
            }
        }
        giveBackLater(lease);
    }

    private void scheduleSweep() {
        try {
            TIMER.schedule(this::sweep, IDLE_NANOS, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // Not reached: the timer is never shut down.
            lock.lock();
            try {
                sweepDue = false;
            } finally {
                lock.unlock();
            }
        }
    }

    /** On the timer: takes out the connections that must go back, and comes again while any stay idle. */
    private void sweep() {
        List<Lease> due = new ArrayList<>();
        boolean again;
        lock.lock();
        try {
            long now = System.nanoTime();
            // Oldest use first: the idle-too-long ones are at the front. Any may be out of the pool too long.
            idle.removeIf(lease -> {
                boolean go = now - lease.idleSince >= IDLE_NANOS || now - lease.borrowed >= HOLD_NANOS;
                if (go) {
                    due.add(lease);
                }
                return go;
            });
            again = !idle.isEmpty() && !closed;
            sweepDue = again;
        } finally {
            lock.unlock();
        }
        due.forEach(this::giveBackLater);
        if (again) {
            scheduleSweep();
        }
    }

    /** Gives every idle connection back: after one turned out broken, the others probably are too. */
    private void releaseIdle() {
        List<Lease> all;
        lock.lock();
        try {
            all = new ArrayList<>(idle);
            idle.clear();
        } finally {
            lock.unlock();
        }
        all.forEach(this::giveBackLater);
    }

    /**
     * Gives the idle connections back to the pool, on this thread, and every one in use after its call; no connection
     * is kept any more.
     */
    void close() {
        List<Lease> all;
        lock.lock();
        try {
            closed = true;
            all = new ArrayList<>(idle);
            idle.clear();
        } finally {
            lock.unlock();
        }
        all.forEach(this::giveBack);
    }

    /**
     * @return how many connections are kept idle (for tests)
     */
    int idleCount() {
        lock.lock();
        try {
            return idle.size();
        } finally {
            lock.unlock();
        }
    }

    private void giveBackLater(Lease lease) {
        try {
            executor.execute(() -> giveBack(lease));
        } catch (RejectedExecutionException e) {
            giveBack(lease);
        }
    }

    /**
     * Puts back what a lease changed and returns the connection to its pool. A broken connection just goes back (the
     * pool drops it); reads are bounded by the store's timeout meanwhile.
     */
    private void giveBack(Lease lease) {
        Connection connection = lease.connection;
        try {
            if (!lease.autoCommit) {
                // A round trip: bounded like a call, whatever the last call left.
                int bound = (int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
                if (lease.timeoutSet != bound) {
                    connection.setNetworkTimeout(JdbcStatements.IN_CALLER, bound);
                    lease.timeoutSet = bound;
                }
                connection.setAutoCommit(false);
            }
            if (lease.networkTimeout >= 0 && lease.timeoutSet != lease.networkTimeout) {
                connection.setNetworkTimeout(JdbcStatements.IN_CALLER, lease.networkTimeout);
            }
        } catch (SQLException | RuntimeException e) {
            // The pool checks the connection itself when it comes back.
        } finally {
            closeQuietly(connection, null);
        }
    }

    private static void closeQuietly(Connection connection, Exception failure) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    private String description() {
        return statements.description();
    }

    private static ScheduledThreadPoolExecutor timer() {
        AtomicInteger threads = new AtomicInteger();
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "idgen-jdbc-connection-timer-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        timer.setKeepAliveTime(5, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }
}
