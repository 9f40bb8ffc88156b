package dev.idgen.core.spi;

import java.util.OptionalLong;

/**
 * A worker id held by one generator, from {@link WorkerIdAssigner#acquire(long)} until {@link #close()}.
 */
public interface WorkerIdLease extends AutoCloseable {

    /**
     * @return the worker id, from 0 to the {@code maxWorkerId} it was acquired with
     */
    long workerId();

    /**
     * The last timestamp a previous holder of this worker id is known to have used. A generator never issues an ID
     * with an earlier timestamp, so a clock that moved backwards across a restart is caught.
     *
     * @return milliseconds since the Unix epoch, or empty when nothing is known
     */
    OptionalLong lastUsedTimestamp();

    /**
     * Records the newest timestamp in use, for the next holder's {@link #lastUsedTimestamp()}. Generators call it
     * when they close; leasing implementations may also call it on their heartbeat. The default keeps nothing.
     *
     * @param epochMillis the newest timestamp in use, in milliseconds since the Unix epoch
     */
    default void recordTimestamp(long epochMillis) {}

    /**
     * Throws when IDs must not be issued under this lease now: it may have expired unrenewed, so another instance may
     * hold the worker id. Generators call it on every ID, after reading the clock, so it must be cheap. Fixed worker
     * ids never expire: the default does nothing.
     *
     * @throws dev.idgen.core.LeaseLostException when the lease is not known to be valid now
     */
    default void checkValid() {}

    /**
     * @return whether IDs may be issued under this lease now; {@link #checkValid()} throws exactly when this is false
     */
    default boolean isValid() {
        return true;
    }

    /**
     * Registers {@code action} to run once, on a thread of the lease's own, when this lease is lost for good: the
     * store refused a renewal (another instance may hold the worker id), or the lease expired unrenewed by this
     * process's clock. A lost lease is never renewed again; only a fresh {@link WorkerIdAssigner#acquire} (through
     * the store's reuse delay and last-timestamp hand-over) may give this process a worker id again, which is what
     * {@link dev.idgen.core.snowflake.SnowflakeGenerator} does. An action registered after the loss runs at once.
     * Fixed worker ids are never lost: the default does nothing.
     *
     * @param action what to do once the lease is lost; it must not throw
     */
    default void whenLost(Runnable action) {}

    /**
     * Gives the worker id back. Closing twice has no further effect.
     */
    @Override
    void close();
}
