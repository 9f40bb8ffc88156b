package dev.idgen.redis;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.redis.RedisScriptExecutor.Topology;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;

/**
 * Connections from a Lettuce client of its own, without Spring: a {@link RedisClient} for a single Redis or a
 * Sentinel-monitored master, a {@link RedisClusterClient} for a cluster. Every {@link #connect()} opens a new
 * connection (on Sentinel, asking the sentinels for the master), so a dropped connection needs no further reset.
 * {@link #close()} shuts the client down.
 */
final class LettuceConnectionSource implements RedisConnectionSource {

    /**
     * How often a cluster client reloads the slot map besides Lettuce's adaptive triggers (a {@code MOVED}, a
     * reconnect): the settings the failover tests run with.
     */
    static final Duration CLUSTER_REFRESH_PERIOD = Duration.ofSeconds(1);

    private final Topology topology;
    private final AbstractRedisClient client;
    /** The URI to connect to: the single Redis, or the master as the sentinels name it; null on a cluster. */
    private final RedisURI uri;

    private final List<RedisURI> nodes;

    private LettuceConnectionSource(Topology topology, AbstractRedisClient client, RedisURI uri, List<RedisURI> nodes) {
        this.topology = topology;
        this.client = client;
        this.uri = uri;
        this.nodes = nodes;
    }

    /**
     * @param uri the single Redis, such as {@code RedisURI.create("redis://127.0.0.1:6379")}
     * @throws InvalidArgumentException naming {@code uri} when it is null or names sentinels
     */
    static LettuceConnectionSource standalone(RedisURI uri) {
        if (uri == null || !uri.getSentinels().isEmpty()) {
            throw new InvalidArgumentException(
                    "uri",
                    uri,
                    "uri must be the address of a single Redis, but was "
                            + (uri == null ? "null" : "a Sentinel URI (use sentinel(...) for it)"));
        }
        return new LettuceConnectionSource(Topology.STANDALONE, RedisClient.create(), uri, List.of(uri));
    }

    /**
     * @param uri the sentinels (each with the credentials to ask it) and the master's name, such as
     *        {@code RedisURI.create("redis-sentinel://10.0.0.1:26379,10.0.0.2:26379#mymaster")} or
     *        {@code RedisURI.Builder.sentinel(host, port, masterName).withSentinel(...)}; its own credentials are the
     *        data nodes'
     * @throws InvalidArgumentException naming {@code uri} when it is null, names no sentinel or no master
     */
    static LettuceConnectionSource sentinel(RedisURI uri) {
        return sentinel(uri, null);
    }

    /**
     * {@link #sentinel(RedisURI)} over the given client resources (which {@link #close()} leaves to their owner), so
     * that a test can route the client's connections (its {@code SocketAddressResolver}).
     *
     * @param resources the client's resources, or {@code null} for a client with resources of its own
     */
    static LettuceConnectionSource sentinel(RedisURI uri, ClientResources resources) {
        if (uri == null
                || uri.getSentinels().isEmpty()
                || uri.getSentinelMasterId() == null
                || uri.getSentinelMasterId().isBlank()) {
            throw new InvalidArgumentException(
                    "uri",
                    uri,
                    "uri must name the sentinels and the master they watch"
                            + " (redis-sentinel://host:26379,host:26379#master), but was " + uri);
        }
        return new LettuceConnectionSource(
                Topology.SENTINEL,
                resources == null ? RedisClient.create() : RedisClient.create(resources),
                uri,
                List.copyOf(uri.getSentinels()));
    }

    /**
     * @param seedNodes some of the cluster's nodes, from which the client learns the rest
     * @throws InvalidArgumentException naming {@code seedNodes} when it is null, empty or holds null
     */
    static LettuceConnectionSource cluster(List<RedisURI> seedNodes) {
        if (seedNodes == null || seedNodes.isEmpty() || seedNodes.contains(null)) {
            throw new InvalidArgumentException(
                    "seedNodes",
                    seedNodes,
                    "seedNodes must name at least one node of the cluster, but was " + seedNodes);
        }
        List<RedisURI> seeds = List.copyOf(seedNodes);
        RedisClusterClient client = RedisClusterClient.create(seeds);
        // Follow a failover without waiting for a command to fail: the refresh settings the tests verified. Every
        // adaptive refresh trigger (redirections, reconnects) is on by default since Lettuce 7.
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(CLUSTER_REFRESH_PERIOD)
                        .build())
                .build());
        return new LettuceConnectionSource(Topology.CLUSTER, client, null, seeds);
    }

    @Override
    public Topology topology() {
        return topology;
    }

    @Override
    public List<RedisURI> nodes() {
        return nodes;
    }

    @Override
    public String masterName() {
        return topology == Topology.SENTINEL ? uri.getSentinelMasterId() : null;
    }

    @Override
    public AbstractRedisClient client() {
        return client;
    }

    @Override
    public Connection connect() {
        if (client instanceof RedisClusterClient cluster) {
            StatefulRedisClusterConnection<byte[], byte[]> connection = cluster.connect(ByteArrayCodec.INSTANCE);
            return connection(connection.async(), connection);
        }
        StatefulRedisConnection<byte[], byte[]> connection =
                ((RedisClient) client).connect(ByteArrayCodec.INSTANCE, uri);
        return connection(connection.async(), connection);
    }

    private static Connection connection(
            RedisClusterAsyncCommands<byte[], byte[]> commands, StatefulConnection<byte[], byte[]> connection) {
        return new Connection() {
            @Override
            public RedisClusterAsyncCommands<byte[], byte[]> commands() {
                return commands;
            }

            /** Waits for the channel's event loop to close the channel: never on that event loop or under a lock. */
            @Override
            public void close() {
                try {
                    connection.close();
                } catch (Exception e) {
                    // already unusable
                }
            }

            /** Lettuce's own asynchronous close: the channel's event loop closes it later. */
            @Override
            public void closeAsync() {
                try {
                    connection.closeAsync();
                } catch (Exception e) {
                    // already unusable
                }
            }
        };
    }

    /** Nothing to do: the executor closed the connection, and the next {@link #connect()} opens a new one. */
    @Override
    public void reset() {}

    @Override
    public void close() {
        client.shutdown();
    }

    @Override
    public String toString() {
        return "LettuceConnectionSource[" + topology + "]";
    }
}
