package dev.idgen.spring.boot.autoconfigure.redis;

import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of idgen's Redis backends: the redis strategy, the Redis segment stores, the bucketed readable IDs and
 * Redis worker id leases. Redis itself is the application's Spring Data Redis connection (spring.data.redis.*),
 * which must use Lettuce.
 */
@ConfigurationProperties("idgen.redis")
public class RedisProperties {

    /**
     * The keys below {@code redis} that every generator shares (one connection's timeout, one set of buckets for
     * readable IDs): set under a generator they are refused.
     */
    public static final List<String> SHARED = List.of("timeout", "buckets");

    /**
     * The section as every generator has it: {@code idgen.redis.*}, and each named generator's own {@code idgen.generators.<name>.redis.*} over it.
     */
    public static final IdgenSettings<RedisProperties> SECTION =
            IdgenSettings.of("redis", RedisProperties::new).withSharedKeys(SHARED);

    /** The windows' store of its own: the segment table on the application's DataSource (idgen.jdbc.*). */
    public static final StoreName JDBC = StoreName.of("jdbc");

    /** The window-store values of its own; an engine's value (etcd, zookeeper) is accepted too. */
    public static final List<StoreName> OWN_WINDOW_STORES = List.of(JDBC);

    /**
     * The prefix of every key idgen writes: 0 to 64 of A-Z a-z 0-9 . _ : - (no braces, which idgen uses as Redis
     * Cluster hash tags).
     */
    private String prefix = "idgen:";

    /**
     * How long a call waits for Redis to answer before it fails with a store-unavailable error, from 1ms to 60s.
     */
    private Duration timeout = Duration.ofMillis(500);

    /**
     * How many values one database reservation covers for the redis strategy and the Redis segment stores, from 1
     * to 2^40. Redis loses at most this many values (as a gap) when it loses its data.
     */
    private long windowSize = 100_000;

    /**
     * Whether to refuse a Redis whose persistence could bring back older counters after a restart (RDB snapshots,
     * appendfsync everysec): only no persistence or appendfsync always is safe for the redis strategy.
     */
    private boolean verifyPersistence = true;

    /**
     * Where the redis strategy and the Redis segment stores reserve their windows (and where the dual store falls
     * back to): the database (idgen.jdbc.*), or etcd or ZooKeeper, so that a Redis deployment needs no SQL database.
     */
    private StoreName windowStore = JDBC;

    private final Buckets buckets = new Buckets();

    public StoreName getWindowStore() {
        return windowStore;
    }

    public void setWindowStore(StoreName windowStore) {
        this.windowStore = windowStore;
    }

    public String getPrefix() {
        return prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public long getWindowSize() {
        return windowSize;
    }

    public void setWindowSize(long windowSize) {
        this.windowSize = windowSize;
    }

    public boolean isVerifyPersistence() {
        return verifyPersistence;
    }

    public void setVerifyPersistence(boolean verifyPersistence) {
        this.verifyPersistence = verifyPersistence;
    }

    public Buckets getBuckets() {
        return buckets;
    }

    /**
     * Readable String IDs from bucketed Redis sequences (a ReadableIdService bean).
     */
    public static class Buckets {

        /**
         * Whether to provide a ReadableIdService: IDs like 2611211530000001234ORD04200017 (time, business code, bucket,
         * sequence) from bucketed Redis sequences with a circuit breaker per bucket.
         */
        private boolean enabled = false;

        /**
         * How many buckets (Redis keys, spread over cluster slots) callers rotate through, from 1 to 1024.
         */
        private int count = 256;

        /**
         * The largest sequence a bucket issues before it wraps, from 9 to 99999999; its digit count is the sequence
         * part's width.
         */
        private long maxSequence = 99_999;

        /**
         * The time zone of the IDs' time part.
         */
        private ZoneId zone = ZoneId.of("UTC");

        /**
         * How long a bucket whose command failed is skipped before one call probes it again.
         */
        private Duration openDuration = Duration.ofSeconds(5);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            this.count = count;
        }

        public long getMaxSequence() {
            return maxSequence;
        }

        public void setMaxSequence(long maxSequence) {
            this.maxSequence = maxSequence;
        }

        public ZoneId getZone() {
            return zone;
        }

        public void setZone(ZoneId zone) {
            this.zone = zone;
        }

        public Duration getOpenDuration() {
            return openDuration;
        }

        public void setOpenDuration(Duration openDuration) {
            this.openDuration = openDuration;
        }
    }
}
