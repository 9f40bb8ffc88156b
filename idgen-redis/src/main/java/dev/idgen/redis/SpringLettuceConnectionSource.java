package dev.idgen.redis;

import dev.idgen.redis.RedisScriptExecutor.Topology;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.List;
import java.util.Objects;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Connections from the application's Spring Data Redis {@link LettuceConnectionFactory}: its topology
 * ({@code spring.data.redis.sentinel.*}, {@code spring.data.redis.cluster.*}), its Lettuce client, and by default its
 * shared native connection (Lettuce pipelines the commands of concurrent callers on it). When the executor drops a
 * connection, the factory's shared one is reset too, so that the next connection asks the sentinels afresh; the
 * application's own commands in flight on it fail with it, as they would on a dead or demoted master.
 *
 * <p>The factory stays the application's: {@link #close()} leaves it open. Needs Spring Data Redis on the class path,
 * which idgen-redis declares optional; the plain Lettuce sources never load this class.
 */
public final class SpringLettuceConnectionSource implements RedisConnectionSource {

    private final LettuceConnectionFactory connectionFactory;
    private final Topology topology;
    private final List<RedisURI> nodes;
    private final String masterName;

    /**
     * @param connectionFactory the application's connection factory, started
     */
    public SpringLettuceConnectionSource(LettuceConnectionFactory connectionFactory) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.topology = connectionFactory.isClusterAware()
                ? Topology.CLUSTER
                : connectionFactory.isRedisSentinelAware() ? Topology.SENTINEL : Topology.STANDALONE;
        this.nodes = switch (topology) {
            case STANDALONE -> List.of(RedisURI.create(connectionFactory.getHostName(), connectionFactory.getPort()));
            case SENTINEL ->
                connectionFactory.getSentinelConfiguration().getSentinels().stream()
                        .map(node -> sentinelUri(node, connectionFactory.getSentinelConfiguration()))
                        .toList();
            case CLUSTER ->
                connectionFactory.getClusterConfiguration().getClusterNodes().stream()
                        .map(node -> RedisURI.create(node.getHost(), node.getPort()))
                        .toList();
        };
        this.masterName = topology == Topology.SENTINEL
                ? connectionFactory.getSentinelConfiguration().getMaster().getName()
                : null;
    }

    /** A sentinel's address with the credentials Spring uses for the sentinels (not those of the data nodes). */
    private static RedisURI sentinelUri(RedisNode node, RedisSentinelConfiguration configuration) {
        RedisURI.Builder uri = RedisURI.builder().withHost(node.getHost()).withPort(node.getPort());
        if (configuration.getSentinelPassword().isPresent()) {
            char[] password = configuration.getSentinelPassword().get();
            String user = configuration.getSentinelUsername();
            uri = user != null ? uri.withAuthentication(user, password) : uri.withPassword(password);
        }
        return uri.build();
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
        return masterName;
    }

    @Override
    public AbstractRedisClient client() {
        return connectionFactory.getNativeClient();
    }

    @Override
    public Connection connect() {
        RedisConnection connection = connectionFactory.getConnection();
        if (!(connection instanceof LettuceConnection lettuce)) {
            connection.close();
            throw new IllegalStateException("idgen's Redis backends need Lettuce");
        }
        RedisClusterAsyncCommands<byte[], byte[]> commands = lettuce.getNativeConnection();
        return new Connection() {
            @Override
            public RedisClusterAsyncCommands<byte[], byte[]> commands() {
                return commands;
            }

            @Override
            public void close() {
                connection.close();
            }

            /**
             * On a thread of its own: closing Spring's connection releases it (a dedicated connection goes back to
             * its provider, which may close it and wait for that).
             */
            @Override
            public void closeAsync() {
                Thread closer = new Thread(
                        () -> {
                            try {
                                connection.close();
                            } catch (RuntimeException e) {
                                // already unusable
                            }
                        },
                        "idgen-redis-close");
                closer.setDaemon(true);
                closer.start();
            }
        };
    }

    /**
     * Resets the factory's shared native connection, if it shares one: closing the executor's {@link RedisConnection}
     * only releases it, and a fresh shared connection asks the sentinels for the master.
     */
    @Override
    public void reset() {
        if (connectionFactory.getShareNativeConnection()) {
            connectionFactory.resetConnection();
        }
    }

    /** Leaves the application's connection factory open. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return "SpringLettuceConnectionSource[" + topology + "]";
    }
}
