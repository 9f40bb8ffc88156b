package dev.idgen.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Asks the sentinels every {@link #INTERVAL} which node is the master, and calls {@code onSwitch} when the answer
 * changes.
 *
 * <p>Why: after a failover the old master stays writable until the sentinels turn it into a replica, about ten seconds
 * later (and a master that was paused takes writes again as soon as it resumes). A connection to it sees no error
 * meanwhile, so a process that stays on it while others moved to the new master has two masters: harmless for the
 * windowed counter (each master counts in windows the database reserved for it), but readable-ID buckets and worker
 * id leases would be issued on both. Following the sentinels' answer bounds that overlap to about one interval plus a
 * round trip, which the bucket fence ({@link BucketedRedisSequence#FAILOVER_FENCE}) and the lease warm-up after a
 * failover cover. Assumption: this process reaches a sentinel that knows; one cut off from every sentinel but not
 * from the old master is in a real network partition, which {@code min-replicas-to-write} on the masters handles.
 */
final class SentinelMasterWatch implements AutoCloseable {

    /** How often the sentinels are asked. */
    static final Duration INTERVAL = Duration.ofMillis(250);

    private static final System.Logger LOG = System.getLogger(SentinelMasterWatch.class.getName());

    private final RedisClient client;
    private final String masterName;
    private final List<RedisURI> sentinels;
    private final Duration timeout;
    private final Runnable onSwitch;
    private final Thread thread;
    private volatile boolean closed;
    private StatefulRedisSentinelConnection<String, String> connection;
    private int current;
    private SocketAddress master;

    /**
     * @param client the Lettuce client to open sentinel connections with (the one the data connections come from)
     * @param masterName the name of the master the sentinels watch
     * @param sentinels the sentinels, each with the credentials to ask it
     * @param timeout how long to wait for a sentinel's answer
     * @param onSwitch what to do when the sentinels name another master
     */
    SentinelMasterWatch(RedisClient client, String masterName, List<RedisURI> sentinels, Duration timeout,
            Runnable onSwitch) {
        this.client = client;
        this.masterName = masterName;
        this.sentinels = List.copyOf(sentinels);
        this.timeout = timeout;
        this.onSwitch = onSwitch;
        this.thread = new Thread(this::run, "idgen-sentinel-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!closed) {
            SocketAddress named = askSentinels();
            if (named != null) {
                if (master != null && !master.equals(named)) {
                    LOG.log(System.Logger.Level.WARNING, "The sentinels name " + named + " as master '" + masterName
                            + "' instead of " + master + ": reconnecting");
                    onSwitch.run();
                }
                master = named;
            }
            LockSupport.parkNanos(INTERVAL.toNanos());
        }
        closeConnection();
    }

    /**
     * @return the master the first sentinel that answers names, or {@code null} when none answers
     */
    private SocketAddress askSentinels() {
        for (int tried = 0; tried < sentinels.size() && !closed; tried++) {
            try {
                if (connection == null) {
                    connection = client.connectSentinel(sentinels.get(current));
                }
                return connection.async().getMasterAddrByName(masterName).get(timeout.toNanos(),
                        TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                // This sentinel is down or slow: the next one.
                closeConnection();
                current = (current + 1) % sentinels.size();
            }
        }
        return null;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException ignored) {
                // already unusable
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
