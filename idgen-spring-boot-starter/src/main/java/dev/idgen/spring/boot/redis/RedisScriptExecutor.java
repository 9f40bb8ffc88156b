package dev.idgen.spring.boot.redis;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.spring.boot.redis.RedisRoundTrips.Outcome;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Runs idgen's Lua scripts on the application's Spring Data Redis {@link LettuceConnectionFactory}, over its shared
 * native connection (Lettuce pipelines the commands of concurrent callers on it), and waits for each answer at most
 * {@code timeout}: a Redis that is down, restarting or partitioned away costs a caller that long and then a
 * {@link RedisUnavailableException}, never a hang. Every round trip is timed into {@link RedisRoundTrips}.
 */
public final class RedisScriptExecutor {

    /** The longest timeout accepted: a generator that waits longer than this for Redis is a stalled generator. */
    public static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);

    private final LettuceConnectionFactory connectionFactory;
    private final Duration timeout;
    private final long timeoutNanos;
    private final RedisRoundTrips roundTrips;
    private volatile Native cached;
    private java.util.concurrent.CompletableFuture<Native> connecting;

    private static final java.util.concurrent.Executor CONNECTOR = runnable -> {
        Thread thread = new Thread(runnable, "idgen-redis-connect");
        thread.setDaemon(true);
        thread.start();
    };

    private record Native(RedisConnection connection, RedisClusterAsyncCommands<byte[], byte[]> commands) {
    }

    /**
     * @param connectionFactory the application's Lettuce connection factory
     * @param timeout how long to wait for each answer, from 1 ms to {@link #MAX_TIMEOUT}
     * @param roundTrips where round trips are counted
     */
    public RedisScriptExecutor(LettuceConnectionFactory connectionFactory, Duration timeout,
            RedisRoundTrips roundTrips) {
        if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new InvalidArgumentException("timeout", timeout,
                    "timeout must be between 1ms and " + MAX_TIMEOUT.toSeconds() + "s, but was " + timeout);
        }
        this.connectionFactory = connectionFactory;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
        this.roundTrips = roundTrips;
        // Connect now, in the background: the first connection of a JVM (Netty starting up) can take longer than a
        // short timeout, and should not fail the first call.
        connectAttempt();
    }

    public Duration timeout() {
        return timeout;
    }

    public RedisRoundTrips roundTrips() {
        return roundTrips;
    }

    /**
     * @return where Redis is, for messages
     */
    public String describe() {
        return "Redis at " + connectionFactory.getHostName() + ":" + connectionFactory.getPort();
    }

    long evalLong(RedisScript script, byte[][] keys, byte[]... args) {
        Long result = eval(script, ScriptOutputType.INTEGER, keys, args);
        return result;
    }

    /**
     * One plain {@code INCRBY}: a Lua call costs Redis about ten times an {@code INCRBY}, so the hot path avoids it.
     */
    long incrBy(byte[] key, long amount) {
        long started = System.nanoTime();
        Long result = await(commands().incrby(key, amount), "INCRBY", started);
        return result;
    }

    byte[] get(byte[] key) {
        long started = System.nanoTime();
        return await(commands().get(key), "GET", started);
    }

    List<Object> evalList(RedisScript script, byte[][] keys, byte[]... args) {
        return eval(script, ScriptOutputType.MULTI, keys, args);
    }

    /**
     * @param parameter a configuration parameter, such as {@code appendfsync}
     * @return its value from {@code CONFIG GET}
     */
    Map<String, String> config(String parameter) {
        long started = System.nanoTime();
        return await(commands().configGet(parameter), "CONFIG GET " + parameter, started);
    }

    /**
     * Waits, at most {@code wait}, for the first connection and a first {@code PING}, so that the first calls after
     * start-up are not spent on connecting (a JVM's first Lettuce connection can take longer than a short timeout).
     * A Redis that is down is not an error here: calls fail until it is up.
     *
     * @param wait the longest wait
     * @return whether Redis answered
     */
    public boolean awaitReady(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        java.util.concurrent.CompletableFuture<Native> attempt = connectAttempt();
        try {
            attempt.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            ping();
            return true;
        } catch (ExecutionException e) {
            // Down at start-up: the next call tries a new connection rather than reporting this old failure.
            synchronized (this) {
                if (connecting == attempt) {
                    connecting = null;
                }
            }
            return false;
        } catch (TimeoutException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Sends {@code PING}, for health checks.
     */
    public void ping() {
        long started = System.nanoTime();
        await(commands().ping(), "PING", started);
    }

    private <T> T eval(RedisScript script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        long started = System.nanoTime();
        RedisClusterAsyncCommands<byte[], byte[]> commands = commands();
        try {
            return await(commands.<T>evalsha(script.sha1(), type, keys, args), script.name(), started);
        } catch (RedisUnavailableException e) {
            if (!(e.getCause() instanceof RedisNoScriptException)) {
                throw e;
            }
        }
        // Redis does not know the script (first use, or it restarted): EVAL sends it once and Redis caches it.
        return await(commands.<T>eval(script.source().getBytes(StandardCharsets.UTF_8), type, keys, args),
                script.name(), System.nanoTime());
    }

    private <T> T await(RedisFuture<T> future, String what, long started) {
        try {
            T result = future.get(timeoutNanos - (System.nanoTime() - started), TimeUnit.NANOSECONDS);
            roundTrips.record(Outcome.SUCCESS, System.nanoTime() - started);
            return result;
        } catch (TimeoutException e) {
            future.cancel(false);
            roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
            throw new RedisUnavailableException(describe() + " did not answer " + what + " within " + timeout
                    + " (idgen.redis.timeout)", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (!(cause instanceof RedisNoScriptException)) {
                roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
                forgetConnectionIfClosed(cause);
            }
            throw new RedisUnavailableException(describe() + " failed " + what + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(false);
            throw new IdGenerationException("Interrupted while waiting for Redis (" + what + ")", e);
        }
    }

    private RedisClusterAsyncCommands<byte[], byte[]> commands() {
        Native current = cached;
        if (current != null) {
            return current.commands();
        }
        return connect(System.nanoTime());
    }

    /**
     * Connects on a thread of its own, so that the wait for a Redis that accepts connections but never answers the
     * handshake is bounded by the timeout too, not by the connection factory's own timeouts.
     */
    private RedisClusterAsyncCommands<byte[], byte[]> connect(long started) {
        java.util.concurrent.CompletableFuture<Native> attempt;
        synchronized (this) {
            if (cached != null) {
                return cached.commands();
            }
            attempt = connectAttempt();
        }
        try {
            Native connected = attempt.get(timeoutNanos - (System.nanoTime() - started), TimeUnit.NANOSECONDS);
            synchronized (this) {
                cached = connected;
                connecting = null;
            }
            return connected.commands();
        } catch (TimeoutException e) {
            roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
            throw new RedisUnavailableException(describe() + " did not accept a connection within " + timeout
                    + " (idgen.redis.timeout)", e);
        } catch (ExecutionException e) {
            synchronized (this) {
                if (connecting == attempt) {
                    connecting = null;
                }
            }
            roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new RedisUnavailableException(describe() + " cannot be reached: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IdGenerationException("Interrupted while connecting to Redis", e);
        }
    }

    private synchronized java.util.concurrent.CompletableFuture<Native> connectAttempt() {
        if (connecting == null) {
            connecting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                RedisConnection connection = connectionFactory.getConnection();
                if (!(connection instanceof LettuceConnection lettuce)) {
                    connection.close();
                    throw new IllegalStateException("idgen's Redis backends need Lettuce");
                }
                return new Native(connection, lettuce.getNativeConnection());
            }, CONNECTOR);
        }
        return connecting;
    }

    private void forgetConnectionIfClosed(Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        if (message.contains("closed") || message.contains("Closed")) {
            Native current = cached;
            cached = null;
            if (current != null) {
                try {
                    current.connection().close();
                } catch (RuntimeException ignored) {
                    // already unusable
                }
            }
        }
    }
}
