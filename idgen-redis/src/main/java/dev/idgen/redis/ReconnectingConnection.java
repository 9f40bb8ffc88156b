package dev.idgen.redis;

import dev.idgen.core.IdGenerationException;
import dev.idgen.redis.RedisConnectionSource.Connection;
import dev.idgen.redis.RedisRoundTrips.Outcome;
import dev.idgen.redis.RedisScriptExecutor.Topology;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one native connection a {@link RedisScriptExecutor} sends on: connecting (one attempt at a time, on a connector
 * thread, every wait bounded by the timeout), caching what an attempt connected, giving up an attempt that hangs, and
 * dropping the connection (or, on a cluster, reloading the slot map) when it leads to an old master. On Sentinel it
 * also runs the {@link SentinelMasterWatch} that drops the connection when the sentinels name another master. It is a
 * class of its own because this state ({@code cached}, {@code connecting}, {@code connectingSince}) changes only under
 * its monitor and in the orders stated here, apart from the commands sent on the connection: the executor only asks
 * for commands and reports failures. Its monitor is never held across a blocking call (an event-loop thread may take
 * it on its way to a connection).
 */
final class ReconnectingConnection {

    private final RedisConnectionSource source;
    private final Duration timeout;
    private final long timeoutNanos;
    private final RedisRoundTrips roundTrips;
    private final Topology topology;
    private volatile Connection cached;
    private CompletableFuture<Connection> connecting;
    /** When the connection was last dropped or the slot map reloaded, so that a burst of failures does it once. */
    private final AtomicLong lastReset = new AtomicLong(System.nanoTime() - TimeUnit.DAYS.toNanos(1));

    private final LongAdder resets = new LongAdder();
    /** On Sentinel: follows the sentinels' answer, so that no connection stays on a master they no longer name. */
    private final SentinelMasterWatch sentinelWatch;
    /** When the connection attempt under way started (nanoTime); guarded by this. */
    private long connectingSince;

    private static final Executor CONNECTOR = runnable -> {
        Thread thread = new Thread(runnable, "idgen-redis-connect");
        thread.setDaemon(true);
        thread.start();
    };

    ReconnectingConnection(
            RedisConnectionSource source, Topology topology, Duration timeout, RedisRoundTrips roundTrips) {
        this.source = source;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
        this.roundTrips = roundTrips;
        this.topology = topology;
        this.sentinelWatch = topology == Topology.SENTINEL && source.client() instanceof RedisClient client
                ? new SentinelMasterWatch(client, source.masterName(), source.nodes(), timeout, () -> reconnect(true))
                : null;
    }

    /**
     * @return where Redis is, for messages
     */
    private String describe() {
        return RedisMasters.describe(source, topology);
    }

    /**
     * @return how many times the connection was dropped (or, on a cluster, the slot map reloaded)
     */
    long reconnects() {
        return resets.sum();
    }

    /**
     * @return the cached connection's commands, or {@code null} while none is cached
     */
    RedisClusterAsyncCommands<byte[], byte[]> cachedCommands() {
        Connection current = cached;
        return current != null ? current.commands() : null;
    }

    /**
     * Forgets {@code attempt} if it is still the attempt under way, so that the next call tries a new connection rather
     * than reporting its old failure.
     */
    synchronized void forgetAttempt(CompletableFuture<Connection> attempt) {
        if (connecting == attempt) {
            connecting = null;
        }
    }

    /**
     * {@link #connect(long)} without blocking the caller: the same attempt (one at a time, on a connector thread), the
     * same caching of its connection, and the same bound.
     */
    CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connectAsync(long started) {
        CompletableFuture<Connection> attempt;
        synchronized (this) {
            if (cached != null) {
                return CompletableFuture.completedFuture(cached.commands());
            }
            attempt = connectAttempt();
        }
        long left = Math.max(1, timeoutNanos - (System.nanoTime() - started));
        CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> result = new CompletableFuture<>();
        // A copy: the caller's timeout must not fail the attempt that other callers share.
        attempt.copy().orTimeout(left, TimeUnit.NANOSECONDS).whenComplete((connected, thrown) -> {
            if (thrown == null) {
                // This may run on an event-loop thread (an attempt already done when a round trip chained to it):
                // the monitor only decides, and the connection given up is closed after it, without waiting.
                Connection current = cache(attempt, connected);
                if (current != null) {
                    if (current != connected) {
                        // A reset gave this attempt up meanwhile, and a newer one is in place: use that.
                        connected.closeAsync();
                    }
                    result.complete(current.commands());
                    return;
                }
                // A reset gave this attempt up (it may lead to the old master): try once more, within what is left,
                // as the blocking path does.
                connected.closeAsync();
                if (System.nanoTime() - started >= timeoutNanos) {
                    roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
                    result.completeExceptionally(new RedisUnavailableException(
                            describe() + " did not accept a connection within " + timeout
                                    + " (idgen.redis.timeout): the connection was being replaced",
                            null));
                    return;
                }
                connectAsync(started).whenComplete((again, failure) -> {
                    if (failure == null) {
                        result.complete(again);
                    } else {
                        result.completeExceptionally(BoundedCommands.unwrap(failure));
                    }
                });
                return;
            }
            Throwable cause = BoundedCommands.unwrap(thrown);
            if (cause instanceof TimeoutException) {
                roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
                giveUpIfHanging(attempt);
                result.completeExceptionally(new RedisUnavailableException(
                        describe() + " did not accept a connection within " + timeout + " (idgen.redis.timeout)",
                        cause));
                return;
            }
            forgetAttempt(attempt);
            roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
            result.completeExceptionally(
                    new RedisUnavailableException(describe() + " cannot be reached: " + cause.getMessage(), cause));
        });
        return result;
    }

    RedisClusterAsyncCommands<byte[], byte[]> commands() {
        Connection current = cached;
        if (current != null) {
            return current.commands();
        }
        return connect(System.nanoTime());
    }

    /**
     * Connects on a thread of its own, so that the wait for a Redis that accepts connections but never answers the
     * handshake is bounded by the timeout too, not by the client's own timeouts.
     */
    private RedisClusterAsyncCommands<byte[], byte[]> connect(long started) {
        CompletableFuture<Connection> attempt;
        synchronized (this) {
            if (cached != null) {
                return cached.commands();
            }
            attempt = connectAttempt();
        }
        try {
            Connection connected = attempt.get(timeoutNanos - (System.nanoTime() - started), TimeUnit.NANOSECONDS);
            Connection current = cache(attempt, connected);
            if (current != null) {
                if (current != connected) {
                    // A reset gave this attempt up meanwhile, and a newer one is in place: use that.
                    connected.closeAsync();
                }
                return current.commands();
            }
            // A reset gave this attempt up (it may lead to the old master): try once more, within what is left.
            connected.closeAsync();
            return connectAgain(started);
        } catch (TimeoutException e) {
            roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
            giveUpIfHanging(attempt);
            throw new RedisUnavailableException(
                    describe() + " did not accept a connection within " + timeout
                            + " (idgen.redis.timeout); Lettuce's own connect timeout (its SocketOptions,"
                            + " spring.data.redis.connect-timeout) bounds how long a hanging attempt lasts",
                    e);
        } catch (ExecutionException e) {
            forgetAttempt(attempt);
            roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new RedisUnavailableException(describe() + " cannot be reached: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IdGenerationException("Interrupted while connecting to Redis", e);
        }
    }

    synchronized CompletableFuture<Connection> connectAttempt() {
        if (connecting == null) {
            connectingSince = System.nanoTime();
            connecting = CompletableFuture.supplyAsync(this::connectAndLocate, CONNECTOR);
        }
        return connecting;
    }

    /**
     * Connects; on Sentinel also asks the server for its own address for this connection ({@code CLIENT INFO}) and
     * tells the watch, which compares it with the sentinels' answer: a failover between this connection and the
     * watch's next look then still moves the connection (a baseline taken from the sentinels would miss it).
     */
    private Connection connectAndLocate() {
        Connection connection = source.connect();
        SentinelMasterWatch watch = sentinelWatch;
        if (watch != null) {
            String address = null;
            try {
                String info = connection.commands().clientInfo().get(timeoutNanos, TimeUnit.NANOSECONDS);
                address = RedisMasters.serverAddress(info, null);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                // Not known (CLIENT forbidden, slow): the watch follows changes of the sentinels' answer instead.
            }
            watch.reached(address);
        }
        return connection;
    }

    private RedisClusterAsyncCommands<byte[], byte[]> connectAgain(long started) {
        if (System.nanoTime() - started >= timeoutNanos) {
            roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
            throw new RedisUnavailableException(
                    describe() + " did not accept a connection within " + timeout
                            + " (idgen.redis.timeout): the connection was being replaced",
                    null);
        }
        return connect(started);
    }

    /**
     * Caches what {@code attempt} connected if it is still the attempt under way.
     *
     * @return the connection to use: {@code connected} now cached, or the one a newer attempt cached meanwhile (the
     *         caller then closes {@code connected}); {@code null} when a reset gave the attempt up and nothing is
     *         cached
     */
    private synchronized Connection cache(CompletableFuture<Connection> attempt, Connection connected) {
        if (connecting == attempt) {
            cached = connected;
            connecting = null;
        }
        return cached;
    }

    /**
     * Gives up an attempt that hangs (a frozen master that accepted the connection) after two timeouts, so that a
     * later call tries again rather than waiting on it; it is never cached when it ends, and its connection is closed
     * then, outside this monitor and without waiting.
     */
    private void giveUpIfHanging(CompletableFuture<Connection> attempt) {
        boolean givenUp;
        synchronized (this) {
            givenUp = connecting == attempt && System.nanoTime() - connectingSince > 2 * timeoutNanos;
            if (givenUp) {
                connecting = null;
            }
        }
        if (givenUp) {
            closeWhenConnected(attempt);
        }
    }

    /**
     * Closes the connection {@code attempt} makes, now if it is done (on this thread) or when it is (on the connector
     * thread), without waiting for the close. Never called under this monitor: an event-loop thread takes it on its
     * way to a connection ({@code AsyncRangeCoalescer.sendIfIdle}, {@link RedisScriptExecutor#evalListAsync}, then
     * {@code connectAsync}), and Lettuce's blocking close waits for an event loop, so a close under it could deadlock
     * the two.
     */
    private static void closeWhenConnected(CompletableFuture<Connection> attempt) {
        attempt.thenAccept(Connection::closeAsync);
    }

    /**
     * @return whether the failure says the connection leads nowhere useful any more: closed, or to a node that is no
     *         longer the master (demoted after a failover, {@code READONLY}; a cluster replica, {@code MOVED} that
     *         Lettuce could not follow)
     */
    static boolean pointsAtAnOldMaster(Throwable cause) {
        if (cause instanceof RedisConnectionException) {
            return true;
        }
        String message = String.valueOf(cause.getMessage());
        return message.startsWith("READONLY")
                || message.startsWith("MOVED")
                || message.startsWith("CLUSTERDOWN")
                || message.contains("closed")
                || message.contains("Closed")
                || message.contains("not connected")
                || message.contains("Connection reset");
    }

    /**
     * Drops the connection (Sentinel, single Redis) or reloads the slot map (cluster), in the background: the next call
     * connects afresh, to the master the sentinels name now. After a failure at most once per timeout, so that a burst
     * of failures does it once; when the sentinels named another master ({@code force}), always.
     */
    void reconnect(boolean force) {
        long now = System.nanoTime();
        long last = lastReset.get();
        if (!force && (now - last < timeoutNanos || !lastReset.compareAndSet(last, now))) {
            return;
        }
        lastReset.set(now);
        resets.increment();
        CONNECTOR.execute(() -> {
            try {
                if (topology == Topology.CLUSTER) {
                    if (source.client() instanceof RedisClusterClient client) {
                        client.refreshPartitions();
                    }
                    return;
                }
                Connection current;
                CompletableFuture<Connection> abandoned;
                synchronized (this) {
                    current = cached;
                    cached = null;
                    // An attempt under way may still hand out the old connection: connect() caches only the current
                    // one.
                    abandoned = connecting;
                    connecting = null;
                }
                // Outside this monitor, which an event-loop thread may be waiting for (see closeWhenConnected), and
                // without waiting for the event loops. Resetting also takes the source's lock (Spring's connection
                // factory), which a connection attempt holds.
                if (abandoned != null) {
                    closeWhenConnected(abandoned);
                }
                if (current != null) {
                    current.closeAsync();
                }
                source.reset();
            } catch (RuntimeException e) {
                // the next failure tries again
            }
        });
    }

    /**
     * Stops following the sentinels and closes the connection source.
     */
    void close() {
        if (sentinelWatch != null) {
            sentinelWatch.close();
        }
        source.close();
    }
}
