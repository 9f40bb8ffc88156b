package dev.idgen.redis;

import dev.idgen.redis.RedisScriptExecutor.Topology;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The masters behind an executor's connection, found from the topology: the single Redis, the master the sentinels
 * sent the connection to (its own address from {@code CLIENT INFO}), or every cluster master that owns slots. It names
 * them for messages and sends them the commands that belong to a node rather than a key ({@code CONFIG GET},
 * {@code INFO replication} for health). Apart from the executor because finding and naming the masters is its own
 * job, and its parsing of Redis's answers ({@code INFO} fields, {@code laddr}) can be tested without a server.
 */
final class RedisMasters {

    private static final Pattern LADDR = Pattern.compile("laddr=(\\S+)");

    private final RedisConnectionSource source;
    private final Topology topology;
    private final ReconnectingConnection connection;
    private final BoundedCommands bounded;
    private final Duration timeout;
    private final long timeoutNanos;

    RedisMasters(
            RedisConnectionSource source,
            Topology topology,
            ReconnectingConnection connection,
            BoundedCommands bounded,
            Duration timeout) {
        this.source = source;
        this.topology = topology;
        this.connection = connection;
        this.bounded = bounded;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * @return where Redis is, for messages
     */
    static String describe(RedisConnectionSource source, Topology topology) {
        return switch (topology) {
            case STANDALONE -> "Redis at " + address(source.nodes().get(0));
            case SENTINEL ->
                "Redis Sentinel master '" + source.masterName() + "' (sentinels "
                        + source.nodes().stream().map(RedisMasters::address).collect(Collectors.joining(", ")) + ")";
            case CLUSTER ->
                "Redis Cluster (seed nodes "
                        + source.nodes().stream().map(RedisMasters::address).collect(Collectors.joining(", ")) + ")";
        };
    }

    private String describe() {
        return describe(source, topology);
    }

    static String address(RedisURI uri) {
        return uri.getSocket() != null ? uri.getSocket() : uri.getHost() + ":" + uri.getPort();
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
                values.putAll(bounded.await(
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
    Map<String, String> probeMasters() {
        long started = System.nanoTime();
        Map<String, CompletableFuture<String>> sent = new LinkedHashMap<>();
        Map<String, String> byNode = new LinkedHashMap<>();
        CompletableFuture<String> address = null;
        try {
            RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
            if (commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
                for (RedisClusterNode node : mastersOwningSlots(cluster)) {
                    String name = name(node);
                    try {
                        // Asynchronously: a dead node's connection must not hold up the others or the health bound.
                        sent.put(
                                name,
                                cluster.getStatefulConnection()
                                        .getConnectionAsync(node.getNodeId())
                                        .thenCompose(nodeConnection ->
                                                nodeConnection.async().info("replication")));
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

    /**
     * @param info an {@code INFO} answer
     * @return the value of its field {@code name}, or {@code "?"}
     */
    static String field(String info, String name) {
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
        RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
        if (!(commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster)) {
            String node = singleMasterName();
            if (topology == Topology.SENTINEL) {
                try {
                    // The server's own address for this connection: where the sentinels sent us.
                    node = serverAddress(bounded.await(commands.clientInfo(), "CLIENT INFO", System.nanoTime()), node);
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

    /**
     * @param clientInfo a {@code CLIENT INFO} answer
     * @return the server's own address for this connection ({@code laddr}), or {@code fallback}
     */
    static String serverAddress(String clientInfo, String fallback) {
        Matcher laddr = LADDR.matcher(clientInfo);
        return laddr.find() ? laddr.group(1) : fallback;
    }
}
