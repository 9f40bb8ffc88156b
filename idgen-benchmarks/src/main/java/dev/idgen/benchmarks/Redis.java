package dev.idgen.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.redis.SpringLettuceConnectionSource;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * idgen's Redis backend as the starter wires it, for the Redis benchmarks: a Spring Data Redis
 * {@link LettuceConnectionFactory} (one shared native connection), a {@link RedisScriptExecutor} with a 2 s timeout,
 * and a {@link RedisWindowedCounter} whose windows are reserved from MariaDB ({@link JdbcSegmentStore} on a pool,
 * see {@link MariaDb}). Redis is {@code IDGEN_BENCH_REDIS_HOST} (default {@code 127.0.0.1}) port
 * {@code IDGEN_BENCH_REDIS_PORT} (default 6379); or the master a Sentinel group names,
 * {@code IDGEN_BENCH_REDIS_SENTINEL=master@host:port,host:port,...}; or a Redis Cluster,
 * {@code IDGEN_BENCH_REDIS_CLUSTER=host:port,host:port,...} (with Lettuce's adaptive topology refresh, as
 * {@code spring.data.redis.lettuce.cluster.refresh.adaptive=true} sets it). Every run counts under a key prefix of its own
 * ({@code idgen-bench:<kind>:<time>:<pid>:}); the benchmarks delete their keys when they finish.
 */
final class Redis implements AutoCloseable {

    /** The table the windows are reserved from. */
    static final String WINDOW_TABLE = "idgen_bench_redis_window";

    private final HikariDataSource pool;
    private final LettuceConnectionFactory connectionFactory;
    private final RedisWindowedCounter counter;
    private final String prefix;

    private Redis(
            HikariDataSource pool,
            LettuceConnectionFactory connectionFactory,
            RedisWindowedCounter counter,
            String prefix) {
        this.pool = pool;
        this.connectionFactory = connectionFactory;
        this.counter = counter;
        this.prefix = prefix;
    }

    /**
     * @param kind what the run measures, part of the key prefix
     * @param windowSize how many values one database reservation covers
     * @return the counter, its persistence checked as the starter does
     */
    static Redis counter(String kind, long windowSize) {
        HikariDataSource pool = MariaDb.pool(2);
        JdbcSegmentStore windows =
                new JdbcSegmentStore(pool, WINDOW_TABLE, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        LettuceConnectionFactory connectionFactory = newConnectionFactory();
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        RedisScriptExecutor executor = new RedisScriptExecutor(
                new SpringLettuceConnectionSource(connectionFactory), Duration.ofSeconds(2), new RedisRoundTrips());
        String prefix = uniquePrefix(kind);
        RedisWindowedCounter counter = new RedisWindowedCounter(executor, windows, prefix, windowSize);
        counter.verifyPersistence();
        return new Redis(pool, connectionFactory, counter, prefix);
    }

    RedisWindowedCounter counter() {
        return counter;
    }

    LettuceConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    String prefix() {
        return prefix;
    }

    /**
     * @return a client of the same Redis through Lettuce's own API, for the raw baselines (a single Redis only)
     */
    static RedisClient client() {
        return RedisClient.create("redis://" + host() + ":" + port());
    }

    /** Lettuce's own API on the same Redis, Sentinel or Cluster: one connection, sync commands. */
    record Raw(
            AbstractRedisClient client,
            StatefulConnection<String, String> connection,
            RedisStringCommands<String, String> strings,
            RedisKeyCommands<String, String> keys)
            implements AutoCloseable {

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }

    /**
     * @return Lettuce's own client and one connection, on the Redis the environment names, for the raw baselines
     */
    static Raw raw() {
        String sentinel = env("IDGEN_BENCH_REDIS_SENTINEL", "");
        String cluster = env("IDGEN_BENCH_REDIS_CLUSTER", "");
        if (!cluster.isEmpty()) {
            List<RedisURI> seeds = new ArrayList<>();
            for (String node : cluster.split(",")) {
                seeds.add(RedisURI.create("redis://" + node.trim()));
            }
            RedisClusterClient client = RedisClusterClient.create(seeds);
            client.setOptions(clusterOptions());
            var connection = client.connect();
            return new Raw(client, connection, connection.sync(), connection.sync());
        }
        RedisClient client;
        if (!sentinel.isEmpty()) {
            String[] parts = sentinel.split("@");
            RedisURI.Builder uri = null;
            for (String node : parts[1].split(",")) {
                String[] hostPort = node.trim().split(":");
                uri = uri == null
                        ? RedisURI.Builder.sentinel(hostPort[0], Integer.parseInt(hostPort[1]), parts[0])
                        : uri.withSentinel(hostPort[0], Integer.parseInt(hostPort[1]));
            }
            client = RedisClient.create(uri.build());
        } else {
            client = client();
        }
        StatefulRedisConnection<String, String> connection = client.connect();
        return new Raw(client, connection, connection.sync(), connection.sync());
    }

    /**
     * @return a Spring Data Redis connection factory, not yet started, on the Redis the environment names
     */
    static LettuceConnectionFactory newConnectionFactory() {
        String sentinel = env("IDGEN_BENCH_REDIS_SENTINEL", "");
        String cluster = env("IDGEN_BENCH_REDIS_CLUSTER", "");
        if (!cluster.isEmpty()) {
            RedisClusterConfiguration configuration = new RedisClusterConfiguration();
            for (String node : cluster.split(",")) {
                String[] hostPort = node.trim().split(":");
                configuration.clusterNode(hostPort[0], Integer.parseInt(hostPort[1]));
            }
            return new LettuceConnectionFactory(
                    configuration,
                    LettuceClientConfiguration.builder()
                            .clientOptions(clusterOptions())
                            .build());
        }
        if (!sentinel.isEmpty()) {
            String[] parts = sentinel.split("@");
            RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(parts[0]);
            for (String node : parts[1].split(",")) {
                String[] hostPort = node.trim().split(":");
                configuration.sentinel(hostPort[0], Integer.parseInt(hostPort[1]));
            }
            return new LettuceConnectionFactory(configuration);
        }
        return new LettuceConnectionFactory(new RedisStandaloneConfiguration(host(), port()));
    }

    private static ClusterClientOptions clusterOptions() {
        // Every adaptive refresh trigger (redirections, reconnects) is on by default since Lettuce 7.
        return ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().build())
                .build();
    }

    /**
     * Deletes keys this run wrote.
     */
    static void deleteKeys(StatefulRedisConnection<String, String> connection, String... keys) {
        if (keys.length > 0) {
            connection.sync().del(keys);
        }
    }

    /**
     * @param name a name counted in this run
     * @return its counter and window keys
     */
    String[] keysOf(String name) {
        String counterKey = prefix + "{" + name + "}";
        return new String[] {counterKey, counterKey + ":window"};
    }

    @Override
    public void close() {
        connectionFactory.destroy();
        pool.close();
    }

    private static String uniquePrefix(String kind) {
        return "idgen-bench:" + kind + ":" + Long.toString(System.currentTimeMillis(), 36) + ":"
                + Long.toString(ProcessHandle.current().pid(), 36) + ":";
    }

    private static String host() {
        return env("IDGEN_BENCH_REDIS_HOST", "127.0.0.1");
    }

    private static int port() {
        return Integer.parseInt(env("IDGEN_BENCH_REDIS_PORT", "6379"));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
