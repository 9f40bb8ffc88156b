package dev.idgen.redis;

import dev.idgen.core.IdGenerationException;
import dev.idgen.redis.RedisRoundTrips.Outcome;
import dev.idgen.redis.RedisScriptExecutor.Topology;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for one command's answer at most what is left of the timeout, times the round trip into
 * {@link RedisRoundTrips}, and turns what went wrong into the caller's {@link RedisUnavailableException}, starting a
 * reconnect where the failure says the connection leads to an old master. Apart from the connection and the scripts
 * because every command the executor sends (scripts, {@code PING}, {@code CONFIG GET}) ends here, under the same rules.
 */
final class BoundedCommands {

    private final ReconnectingConnection connection;
    private final Duration timeout;
    private final long timeoutNanos;
    private final RedisRoundTrips roundTrips;
    private final Topology topology;
    private final RedisConnectionSource source;

    BoundedCommands(
            ReconnectingConnection connection,
            RedisConnectionSource source,
            Topology topology,
            Duration timeout,
            RedisRoundTrips roundTrips) {
        this.connection = connection;
        this.source = source;
        this.topology = topology;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
        this.roundTrips = roundTrips;
    }

    private String describe() {
        return RedisMasters.describe(source, topology);
    }

    /**
     * @return the answer, within what is left of the timeout since {@code started}
     * @throws RedisUnavailableException see {@link #failure}
     */
    <T> T await(RedisFuture<T> future, String what, long started) {
        try {
            T result = future.get(timeoutNanos - (System.nanoTime() - started), TimeUnit.NANOSECONDS);
            roundTrips.record(Outcome.SUCCESS, System.nanoTime() - started);
            return result;
        } catch (TimeoutException e) {
            future.cancel(false);
            throw failure(e, what, started);
        } catch (ExecutionException e) {
            throw failure(e.getCause() != null ? e.getCause() : e, what, started);
        } catch (CancellationException e) {
            throw failure(e, what, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(false);
            throw new IdGenerationException("Interrupted while waiting for Redis (" + what + ")", e);
        }
    }

    /**
     * What a round trip that ended with {@code cause} means for the caller, after recording it and, where the failure
     * says the connection leads nowhere useful, starting a reconnect.
     *
     * @param cause a {@link TimeoutException} (no answer within the timeout), a {@link CancellationException} or the
     *        command's own failure
     */
    RedisUnavailableException failure(Throwable cause, String what, long started) {
        if (cause instanceof TimeoutException) {
            roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
            if (topology == Topology.CLUSTER) {
                // The slot's master may be dead or frozen: reload the slot map (a single Redis has one address, and on
                // Sentinel the watch follows the sentinels, so that a merely slow master keeps its connection).
                connection.reconnect(false);
            }
            return new RedisUnavailableException(
                    describe() + " did not answer " + what + " within " + timeout + " (idgen.redis.timeout)", cause);
        }
        if (cause instanceof CancellationException) {
            // Lettuce cancels the commands pending on a connection that is closed or reset, as when another caller's
            // timeout reconnects during a failover. Like a timeout, the command may or may not have run.
            roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
            return new RedisUnavailableException(
                    describe() + " cancelled " + what + ": its connection was closed or" + " reset", cause);
        }
        if (!(cause instanceof RedisNoScriptException)) {
            roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
            if (ReconnectingConnection.pointsAtAnOldMaster(cause)) {
                connection.reconnect(false);
            }
        }
        return new RedisUnavailableException(describe() + " failed " + what + ": " + cause.getMessage(), cause);
    }

    /** The command's answer, or a {@link TimeoutException} once what is left of the timeout has passed. */
    <T> CompletableFuture<T> bounded(RedisFuture<T> command, long started) {
        long left = Math.max(1, timeoutNanos - (System.nanoTime() - started));
        // A copy: the timeout must not complete Lettuce's own command future, which its event loop completes later.
        return command.toCompletableFuture().copy().orTimeout(left, TimeUnit.NANOSECONDS);
    }

    static Throwable unwrap(Throwable thrown) {
        Throwable cause = thrown;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
