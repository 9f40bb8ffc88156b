package dev.idgen.redis;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.redis.RedisConnectionSource.Connection;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs idgen's Lua scripts over one native Lettuce connection (Lettuce pipelines the commands of concurrent callers on
 * it), and waits for each answer at most {@code timeout}: a Redis that is down, restarting or partitioned away costs a
 * caller that long and then a {@link RedisUnavailableException}, never a hang. Every round trip is timed into
 * {@link RedisRoundTrips}.
 *
 * <h2>Connections</h2>
 * Without Spring, {@link #standalone}, {@link #sentinel} and {@link #cluster} build an executor on a Lettuce client of
 * its own, which {@link #close()} shuts down (add {@code io.lettuce:lettuce-core}; idgen-redis declares it optional):
 * <pre>{@code
 * RedisScriptExecutor redis = RedisScriptExecutor.standalone(RedisURI.create("redis://127.0.0.1:6379"),
 *         Duration.ofMillis(500));
 * IdService ids = new RedisIdService(new RedisWindowedCounter(redis, databaseSegmentStore, "idgen:", 100_000));
 * }</pre>
 * With Spring Data Redis, {@code new RedisScriptExecutor(new SpringLettuceConnectionSource(factory), timeout,
 * roundTrips)} runs on the application's connection factory and its shared native connection.
 *
 * <h2>Topologies</h2>
 * A single Redis, a Sentinel-monitored master or a Redis Cluster; see {@link Topology}. Scripts and key commands go
 * where Lettuce routes them: the master, or on a cluster the master owning the key's slot (idgen's keys put their
 * name in a hash tag, so the keys of one script share a slot). Commands that belong to a node rather than a key
 * ({@code CONFIG GET}, and {@code INFO replication} for health) go to every master on a cluster.
 *
 * <p>After a failover the connection may still point at the old master: frozen (every command times out), still
 * writable (the sentinels demote it only some ten seconds later) or demoted (every write fails with {@code READONLY}).
 * Lettuce only asks the sentinels again when it reconnects, and its reconnects back off up to 30 s. So on Sentinel a
 * {@link SentinelMasterWatch} asks the sentinels every 250 ms and drops the connection as soon as they name another
 * master; a {@code READONLY}, a {@code MOVED} or a closed connection drops it too (at most once per timeout). With
 * Spring's shared native connection that is the shared one, whose commands in flight fail with it. The next call
 * connects afresh, which resolves the current master. On a cluster a timeout or those errors make Lettuce reload the
 * slot map instead. That bounds how long service stays down after a failover to the failover itself plus about one
 * timeout. Detecting that the data behind a key changed hands is not done here but in each script, which compares the
 * replication id the key was written under with the node's own (see {@link RedisWindowedCounter}).
 *
 * <h2>Parts</h2>
 * The executor is the public face of four parts: {@link ReconnectingConnection} (the connection, its attempts and its
 * drops), {@link BoundedCommands} (each answer waited for within the timeout, timed, its failure judged),
 * {@link ScriptRunner} ({@code EVALSHA}, and {@code EVAL} on {@code NOSCRIPT}) and {@link RedisMasters} (the masters
 * of the topology, named and asked).
 */
public final class RedisScriptExecutor implements AutoCloseable {

    /** How idgen reaches Redis. */
    public enum Topology {
        /** One Redis at one address ({@link RedisScriptExecutor#standalone}, or {@code spring.data.redis.host}). */
        STANDALONE,
        /**
         * The master that Redis Sentinel names ({@link RedisScriptExecutor#sentinel}, or
         * {@code spring.data.redis.sentinel.*}).
         */
        SENTINEL,
        /** A Redis Cluster ({@link RedisScriptExecutor#cluster}, or {@code spring.data.redis.cluster.*}). */
        CLUSTER
    }

    /** The longest timeout accepted: a generator that waits longer than this for Redis is a stalled generator. */
    public static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);

    private final RedisConnectionSource source;
    private final Duration timeout;
    private final RedisRoundTrips roundTrips;
    private final Topology topology;
    private final ReconnectingConnection connection;
    private final BoundedCommands bounded;
    private final ScriptRunner scripts;
    private final RedisMasters masters;

    /**
     * @param source where connections come from; {@link #close()} closes it
     * @param timeout how long to wait for each answer, from 1 ms to {@link #MAX_TIMEOUT}
     * @param roundTrips where round trips are counted
     * @throws InvalidArgumentException naming {@code timeout} when it is out of range
     */
    public RedisScriptExecutor(RedisConnectionSource source, Duration timeout, RedisRoundTrips roundTrips) {
        checkTimeout(timeout);
        this.source = Objects.requireNonNull(source, "source");
        this.timeout = timeout;
        this.roundTrips = Objects.requireNonNull(roundTrips, "roundTrips");
        this.topology = source.topology();
        this.connection = new ReconnectingConnection(source, topology, timeout, roundTrips);
        this.bounded = new BoundedCommands(connection, source, topology, timeout, roundTrips);
        this.scripts = new ScriptRunner(connection, bounded, roundTrips);
        this.masters = new RedisMasters(source, topology, connection, bounded, timeout);
        // Connect now, in the background: the first connection of a JVM (Netty starting up) can take longer than a
        // short timeout, and should not fail the first call.
        connection.connectAttempt();
    }

    /**
     * An executor on a single Redis, over a Lettuce client of its own (no Spring needed).
     *
     * @param uri the Redis, such as {@code RedisURI.create("redis://127.0.0.1:6379")}; its credentials, database and
     *        TLS settings apply
     * @param timeout how long to wait for each answer, from 1 ms to {@link #MAX_TIMEOUT}
     * @return a connecting executor; {@link #close()} shuts its client down
     * @throws InvalidArgumentException naming {@code uri} or {@code timeout}
     */
    public static RedisScriptExecutor standalone(RedisURI uri, Duration timeout) {
        checkTimeout(timeout);
        return on(LettuceConnectionSource.standalone(uri), timeout);
    }

    /**
     * An executor on the master that Redis Sentinel names, over a Lettuce client of its own (no Spring needed). It
     * asks the sentinels every 250 ms and moves to a new master as soon as they name one.
     *
     * @param uri the sentinels and the master's name, such as
     *        {@code RedisURI.create("redis-sentinel://10.0.0.1:26379,10.0.0.2:26379#mymaster")}; each sentinel's
     *        credentials are used to ask it, the URI's own for the master
     * @param timeout how long to wait for each answer, from 1 ms to {@link #MAX_TIMEOUT}
     * @return a connecting executor; {@link #close()} shuts its client down
     * @throws InvalidArgumentException naming {@code uri} (no sentinel, no master name) or {@code timeout}
     */
    public static RedisScriptExecutor sentinel(RedisURI uri, Duration timeout) {
        checkTimeout(timeout);
        return on(LettuceConnectionSource.sentinel(uri), timeout);
    }

    /**
     * An executor on a Redis Cluster, over a Lettuce cluster client of its own (no Spring needed), which reloads the
     * slot map on Lettuce's adaptive triggers ({@code MOVED}, reconnects) and every second.
     *
     * @param seedNodes some nodes of the cluster, such as {@code RedisURI.create("redis://10.0.0.1:6379")}
     * @param timeout how long to wait for each answer, from 1 ms to {@link #MAX_TIMEOUT}
     * @return a connecting executor; {@link #close()} shuts its client down
     * @throws InvalidArgumentException naming {@code seedNodes} or {@code timeout}
     */
    public static RedisScriptExecutor cluster(List<RedisURI> seedNodes, Duration timeout) {
        checkTimeout(timeout);
        return on(LettuceConnectionSource.cluster(seedNodes), timeout);
    }

    private static RedisScriptExecutor on(RedisConnectionSource source, Duration timeout) {
        try {
            return new RedisScriptExecutor(source, timeout, new RedisRoundTrips());
        } catch (RuntimeException | Error e) {
            source.close();
            throw e;
        }
    }

    private static void checkTimeout(Duration timeout) {
        if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new InvalidArgumentException(
                    "timeout",
                    timeout,
                    "timeout must be between 1ms and " + MAX_TIMEOUT.toSeconds() + "s, but was " + timeout);
        }
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
        return RedisMasters.describe(source, topology);
    }

    /**
     * @return how idgen reaches Redis
     */
    public Topology topology() {
        return topology;
    }

    /**
     * @return how many times the connection was dropped (or, on a cluster, the slot map reloaded) after a timeout, a
     *         {@code READONLY}, a {@code MOVED} or a closed connection
     */
    public long reconnects() {
        return connection.reconnects();
    }

    /**
     * @return the connection this executor sends on, for tests that drop it as the sentinel watch does
     */
    ReconnectingConnection connection() {
        return connection;
    }

    long evalLong(RedisScript script, byte[][] keys, byte[]... args) {
        Long result = scripts.eval(script, ScriptOutputType.INTEGER, keys, args);
        return result;
    }

    List<Object> evalList(RedisScript script, byte[][] keys, byte[]... args) {
        return scripts.eval(script, ScriptOutputType.MULTI, keys, args);
    }

    /**
     * {@code CONFIG GET} on the master, or on every master of a cluster (each owns some of idgen's keys).
     *
     * @param parameters configuration parameters, such as {@code appendfsync}
     * @return per master ({@code host:port}, or the description of a single master), the parameters' values
     */
    Map<String, Map<String, String>> config(String... parameters) {
        return masters.config(parameters);
    }

    /**
     * Asks the master, or every master of a cluster, for {@code INFO replication}, all at once, and waits for the
     * answers at most the timeout in all: for health.
     *
     * @return per master ({@code host:port} where known), what it answered, such as {@code "master, 2 replicas"}, or
     *         {@code "DOWN: "} and the failure
     */
    public Map<String, String> probeMasters() {
        return masters.probeMasters();
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
        CompletableFuture<Connection> attempt = connection.connectAttempt();
        try {
            attempt.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            ping();
            return true;
        } catch (ExecutionException e) {
            // Down at start-up: the next call tries a new connection rather than reporting this old failure.
            connection.forgetAttempt(attempt);
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
        bounded.await(connection.commands().ping(), "PING", started);
    }

    /**
     * Runs {@code script} without blocking the caller: the future completes on Lettuce's event loop when Redis
     * answers, or with a {@link RedisUnavailableException} when it does not within the timeout (then on the JDK's
     * timer thread) or the command fails, exactly as the blocking calls would throw. While no connection is open,
     * connecting runs on a connector thread, bounded by the timeout as in the blocking calls. Stages chained to the
     * future must not block.
     */
    CompletableFuture<List<Object>> evalListAsync(RedisScript script, byte[][] keys, byte[]... args) {
        return scripts.evalAsync(script, ScriptOutputType.MULTI, keys, args);
    }

    /**
     * Stops following the sentinels and closes the connection source: the Lettuce client of {@link #standalone},
     * {@link #sentinel} and {@link #cluster} is shut down, while a Spring connection factory stays open.
     */
    @Override
    public void close() {
        connection.close();
    }
}
