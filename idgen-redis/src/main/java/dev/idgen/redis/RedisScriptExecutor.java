package dev.idgen.redis;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.redis.RedisConnectionSource.Connection;
import dev.idgen.redis.RedisRoundTrips.Outcome;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
        this.timeoutNanos = timeout.toNanos();
        this.roundTrips = Objects.requireNonNull(roundTrips, "roundTrips");
        this.topology = source.topology();
        this.sentinelWatch = topology == Topology.SENTINEL && source.client() instanceof RedisClient client
                ? new SentinelMasterWatch(client, source.masterName(), source.nodes(), timeout, () -> reconnect(true))
                : null;
        // Connect now, in the background: the first connection of a JVM (Netty starting up) can take longer than a
        // short timeout, and should not fail the first call.
        connectAttempt();
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
        return switch (topology) {
            case STANDALONE -> "Redis at " + address(source.nodes().get(0));
            case SENTINEL ->
                "Redis Sentinel master '" + source.masterName() + "' (sentinels "
                        + source.nodes().stream()
                                .map(RedisScriptExecutor::address)
                                .collect(Collectors.joining(", ")) + ")";
            case CLUSTER ->
                "Redis Cluster (seed nodes "
                        + source.nodes().stream()
                                .map(RedisScriptExecutor::address)
                                .collect(Collectors.joining(", ")) + ")";
        };
    }

    private static String address(RedisURI uri) {
        return uri.getSocket() != null ? uri.getSocket() : uri.getHost() + ":" + uri.getPort();
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
        return resets.sum();
    }

    long evalLong(RedisScript script, byte[][] keys, byte[]... args) {
        Long result = eval(script, ScriptOutputType.INTEGER, keys, args);
        return result;
    }

    List<Object> evalList(RedisScript script, byte[][] keys, byte[]... args) {
        return eval(script, ScriptOutputType.MULTI, keys, args);
    }

    /**
     * {@code CONFIG GET} on the master, or on every master of a cluster (each owns some of idgen's keys).
     *
     * @param parameters configuration parameters, such as {@code appendfsync}
     * @return per master ({@code host:port}, or the description of a single master), the parameters' values
     */
    Map<String, Map<String, String>> config(String... parameters) {
        Map<String, Map<String, String>> byNode = new LinkedHashMap<>();
        forEachMaster((node, commands) -> {
            Map<String, String> values = new LinkedHashMap<>();
            for (String parameter : parameters) {
                values.putAll(await(
                        commands.configGet(parameter), "CONFIG GET " + parameter + " on " + node, System.nanoTime()));
            }
            byNode.put(node, values);
        });
        return byNode;
    }

    /**
     * Asks the master, or every master of a cluster, for {@code INFO replication}, all at once, and waits for the
     * answers at most the timeout in all: for health.
     *
     * @return per master ({@code host:port} where known), what it answered, such as {@code "master, 2 replicas"}, or
     *         {@code "DOWN: "} and the failure
     */
    // getStatefulConnection() is deprecated on the commands, but the commands are all this executor holds of a
    // connection (a Spring-managed one included), and Lettuce 7.5 still serves it.
    @SuppressWarnings("deprecation")
    public Map<String, String> probeMasters() {
        long started = System.nanoTime();
        Map<String, CompletableFuture<String>> sent = new LinkedHashMap<>();
        Map<String, String> byNode = new LinkedHashMap<>();
        CompletableFuture<String> address = null;
        try {
            RedisClusterAsyncCommands<byte[], byte[]> commands = commands();
            if (commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
                for (RedisClusterNode node : mastersOwningSlots(cluster)) {
                    String name = name(node);
                    try {
                        // Asynchronously: a dead node's connection must not hold up the others or the health bound.
                        sent.put(
                                name,
                                cluster.getStatefulConnection()
                                        .getConnectionAsync(node.getNodeId())
                                        .thenCompose(
                                                connection -> connection.async().info("replication")));
                    } catch (RuntimeException e) {
                        byNode.put(name, "DOWN: " + e.getMessage());
                    }
                }
            } else {
                if (topology == Topology.SENTINEL) {
                    // The server's own address for this connection: where the sentinels sent us. Sent together with
                    // INFO, so that both share the one timeout.
                    address = commands.clientInfo().toCompletableFuture();
                }
                sent.put(singleMasterName(), commands.info("replication").toCompletableFuture());
            }
        } catch (RuntimeException e) {
            byNode.put(describe(), "DOWN: " + e.getMessage());
        }
        for (Map.Entry<String, CompletableFuture<String>> answer : sent.entrySet()) {
            String node = answer.getKey();
            try {
                String info = answer.getValue()
                        .get(Math.max(0, timeoutNanos - (System.nanoTime() - started)), TimeUnit.NANOSECONDS);
                if (address != null) {
                    node = serverAddress(
                            address.get(
                                    Math.max(0, timeoutNanos - (System.nanoTime() - started)), TimeUnit.NANOSECONDS),
                            node);
                }
                String role = field(info, "role");
                byNode.put(
                        node,
                        "master".equals(role)
                                ? "master, " + field(info, "connected_slaves") + " replicas"
                                : "DOWN: answers as " + role + ", not as master");
            } catch (TimeoutException e) {
                byNode.put(node, "DOWN: no answer within " + timeout + " (idgen.redis.timeout)");
            } catch (ExecutionException e) {
                byNode.put(node, "DOWN: " + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
            } catch (CancellationException e) {
                byNode.put(node, "DOWN: the connection was closed or reset");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                byNode.put(node, "DOWN: interrupted");
            }
        }
        return byNode;
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "?";
    }

    private interface NodeCommand {
        void run(String node, RedisClusterAsyncCommands<byte[], byte[]> commands);
    }

    private void forEachMaster(NodeCommand command) {
        RedisClusterAsyncCommands<byte[], byte[]> commands = commands();
        if (!(commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster)) {
            String node = singleMasterName();
            if (topology == Topology.SENTINEL) {
                try {
                    // The server's own address for this connection: where the sentinels sent us.
                    node = serverAddress(await(commands.clientInfo(), "CLIENT INFO", System.nanoTime()), node);
                } catch (RuntimeException e) {
                    // keep the generic name; the command below reports the failure
                }
            }
            command.run(node, commands);
            return;
        }
        List<RedisClusterNode> masters = mastersOwningSlots(cluster);
        if (masters.isEmpty()) {
            throw new RedisUnavailableException(describe() + " has no master that owns slots", null);
        }
        for (RedisClusterNode node : masters) {
            command.run(name(node), cluster.getConnection(node.getNodeId()));
        }
    }

    /** See {@link #probeMasters()} on the deprecated {@code getStatefulConnection()}. */
    @SuppressWarnings("deprecation")
    private static List<RedisClusterNode> mastersOwningSlots(
            RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
        List<RedisClusterNode> masters = new ArrayList<>();
        for (RedisClusterNode node : cluster.getStatefulConnection().getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
                masters.add(node);
            }
        }
        return masters;
    }

    private static String name(RedisClusterNode node) {
        return node.getUri().getHost() + ":" + node.getUri().getPort();
    }

    /** How a single master is named before it is asked: its configured address, or on Sentinel just "master". */
    private String singleMasterName() {
        return topology == Topology.STANDALONE ? address(source.nodes().get(0)) : "master";
    }

    private static final Pattern LADDR = Pattern.compile("laddr=(\\S+)");

    /**
     * @param clientInfo a {@code CLIENT INFO} answer
     * @return the server's own address for this connection ({@code laddr}), or {@code fallback}
     */
    private static String serverAddress(String clientInfo, String fallback) {
        Matcher laddr = LADDR.matcher(clientInfo);
        return laddr.find() ? laddr.group(1) : fallback;
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
        CompletableFuture<Connection> attempt = connectAttempt();
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
        return await(
                commands.<T>eval(script.source().getBytes(StandardCharsets.UTF_8), type, keys, args),
                script.name(),
                System.nanoTime());
    }

    private <T> T await(RedisFuture<T> future, String what, long started) {
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
    private RedisUnavailableException failure(Throwable cause, String what, long started) {
        if (cause instanceof TimeoutException) {
            roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
            if (topology == Topology.CLUSTER) {
                // The slot's master may be dead or frozen: reload the slot map (a single Redis has one address, and on
                // Sentinel the watch follows the sentinels, so that a merely slow master keeps its connection).
                reconnect(false);
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
            if (pointsAtAnOldMaster(cause)) {
                reconnect(false);
            }
        }
        return new RedisUnavailableException(describe() + " failed " + what + ": " + cause.getMessage(), cause);
    }

    /**
     * Runs {@code script} without blocking the caller: the future completes on Lettuce's event loop when Redis
     * answers, or with a {@link RedisUnavailableException} when it does not within the timeout (then on the JDK's
     * timer thread) or the command fails, exactly as the blocking calls would throw. While no connection is open,
     * connecting runs on a connector thread, bounded by the timeout as in the blocking calls. Stages chained to the
     * future must not block.
     */
    CompletableFuture<List<Object>> evalListAsync(RedisScript script, byte[][] keys, byte[]... args) {
        return evalAsync(script, ScriptOutputType.MULTI, keys, args);
    }

    private <T> CompletableFuture<T> evalAsync(
            RedisScript script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        long started = System.nanoTime();
        Connection current = cached;
        if (current != null) {
            return sendAsync(current.commands(), script, type, keys, args, started);
        }
        return connectAsync(started).thenCompose(commands -> sendAsync(commands, script, type, keys, args, started));
    }

    private <T> CompletableFuture<T> sendAsync(
            RedisClusterAsyncCommands<byte[], byte[]> commands,
            RedisScript script,
            ScriptOutputType type,
            byte[][] keys,
            byte[][] args,
            long started) {
        CompletableFuture<T> result = new CompletableFuture<>();
        RedisFuture<T> sha;
        try {
            sha = commands.evalsha(script.sha1(), type, keys, args);
        } catch (RuntimeException e) {
            result.completeExceptionally(failure(e, script.name(), started));
            return result;
        }
        bounded(sha, started).whenComplete((value, thrown) -> {
            if (thrown == null) {
                roundTrips.record(Outcome.SUCCESS, System.nanoTime() - started);
                result.complete(value);
                return;
            }
            Throwable cause = unwrap(thrown);
            if (!(cause instanceof RedisNoScriptException)) {
                result.completeExceptionally(failure(cause, script.name(), started));
                return;
            }
            // Redis does not know the script (first use, or it restarted): EVAL sends it once and Redis caches it.
            long again = System.nanoTime();
            RedisFuture<T> eval;
            try {
                eval = commands.eval(script.source().getBytes(StandardCharsets.UTF_8), type, keys, args);
            } catch (RuntimeException e) {
                result.completeExceptionally(failure(e, script.name(), again));
                return;
            }
            bounded(eval, again).whenComplete((evalValue, evalThrown) -> {
                if (evalThrown == null) {
                    roundTrips.record(Outcome.SUCCESS, System.nanoTime() - again);
                    result.complete(evalValue);
                } else {
                    result.completeExceptionally(failure(unwrap(evalThrown), script.name(), again));
                }
            });
        });
        return result;
    }

    /** The command's answer, or a {@link TimeoutException} once what is left of the timeout has passed. */
    private <T> CompletableFuture<T> bounded(RedisFuture<T> command, long started) {
        long left = Math.max(1, timeoutNanos - (System.nanoTime() - started));
        // A copy: the timeout must not complete Lettuce's own command future, which its event loop completes later.
        return command.toCompletableFuture().copy().orTimeout(left, TimeUnit.NANOSECONDS);
    }

    private static Throwable unwrap(Throwable thrown) {
        Throwable cause = thrown;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * {@link #connect(long)} without blocking the caller: the same attempt (one at a time, on a connector thread), the
     * same caching of its connection, and the same bound.
     */
    private CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connectAsync(long started) {
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
                        result.completeExceptionally(unwrap(failure));
                    }
                });
                return;
            }
            Throwable cause = unwrap(thrown);
            if (cause instanceof TimeoutException) {
                roundTrips.record(Outcome.TIMEOUT, System.nanoTime() - started);
                giveUpIfHanging(attempt);
                result.completeExceptionally(new RedisUnavailableException(
                        describe() + " did not accept a connection within " + timeout + " (idgen.redis.timeout)",
                        cause));
                return;
            }
            synchronized (this) {
                if (connecting == attempt) {
                    connecting = null;
                }
            }
            roundTrips.record(Outcome.ERROR, System.nanoTime() - started);
            result.completeExceptionally(
                    new RedisUnavailableException(describe() + " cannot be reached: " + cause.getMessage(), cause));
        });
        return result;
    }

    private RedisClusterAsyncCommands<byte[], byte[]> commands() {
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

    private synchronized CompletableFuture<Connection> connectAttempt() {
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
                Matcher laddr = LADDR.matcher(info);
                address = laddr.find() ? laddr.group(1) : null;
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
     * then, outside this executor's monitor and without waiting.
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
     * thread), without waiting for the close. Never called under this executor's monitor: an event-loop thread takes
     * it on its way to a connection ({@code AsyncRangeCoalescer.sendIfIdle}, {@link #evalListAsync}, then
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
    private static boolean pointsAtAnOldMaster(Throwable cause) {
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
    private void reconnect(boolean force) {
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
                // Outside this executor's monitor, which an event-loop thread may be waiting for (see
                // closeWhenConnected), and without waiting for the event loops. Resetting also takes the source's lock
                // (Spring's connection factory), which a connection attempt holds.
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
     * Stops following the sentinels and closes the connection source: the Lettuce client of {@link #standalone},
     * {@link #sentinel} and {@link #cluster} is shut down, while a Spring connection factory stays open.
     */
    @Override
    public void close() {
        if (sentinelWatch != null) {
            sentinelWatch.close();
        }
        source.close();
    }
}
