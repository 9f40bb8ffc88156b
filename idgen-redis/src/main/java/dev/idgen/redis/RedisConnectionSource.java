package dev.idgen.redis;

import dev.idgen.redis.RedisScriptExecutor.Topology;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.List;

/**
 * Where a {@link RedisScriptExecutor} gets its Lettuce connections: plain Lettuce clients the executor owns (see
 * {@link RedisScriptExecutor#standalone}, {@link RedisScriptExecutor#sentinel}, {@link RedisScriptExecutor#cluster}),
 * or the application's Spring Data Redis connection factory ({@link SpringLettuceConnectionSource}).
 *
 * <p>Sealed: the executor's failover handling relies on exactly what these two do when it connects, drops a
 * connection and reconnects, so it cannot be handed a source it was not tested with.
 */
public sealed interface RedisConnectionSource extends AutoCloseable
        permits LettuceConnectionSource, SpringLettuceConnectionSource {

    /**
     * A connection the executor holds until it drops it.
     */
    interface Connection {

        /**
         * @return the native async commands: a {@code RedisAdvancedClusterAsyncCommands} on a cluster
         */
        RedisClusterAsyncCommands<byte[], byte[]> commands();

        /** Gives the connection up; a connection that is already unusable is closed quietly. */
        void close();

        /**
         * Gives the connection up without blocking the caller, which may be an event-loop thread or hold a lock that
         * one takes: the close completes in the background, and a connection that is already unusable is closed
         * quietly.
         */
        void closeAsync();
    }

    /**
     * @return how Redis is reached
     */
    Topology topology();

    /**
     * @return the single Redis, the sentinels (with the credentials to ask them) or the cluster's seed nodes; never
     *         empty
     */
    List<RedisURI> nodes();

    /**
     * @return on {@link Topology#SENTINEL} the name of the master the sentinels watch, otherwise {@code null}
     */
    String masterName();

    /**
     * @return the Lettuce client: a {@code RedisClient} (single Redis, Sentinel), a {@code RedisClusterClient}
     *         (cluster); {@code null} when it is not known
     */
    AbstractRedisClient client();

    /**
     * Connects, blocking: on Sentinel to the master the sentinels name now. The executor calls it on a thread of its
     * own and bounds the wait itself.
     *
     * @return a connection
     */
    Connection connect();

    /**
     * Called after the executor dropped its connection: makes sure the next {@link #connect()} opens a new one rather
     * than handing out one that still leads to the old master.
     */
    void reset();

    /**
     * Releases what this source owns (the clients it created); a connection factory of the application stays open.
     */
    @Override
    void close();
}
