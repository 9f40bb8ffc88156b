package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Segment settings: how blocks are sized and loaded.
 */
@ConfigurationProperties("idgen.segment")
public class SegmentProperties {

    /**
     * The section as every generator has it: {@code idgen.segment.*}, and each named generator's own {@code idgen.generators.<name>.segment.*} over it.
     */
    public static final IdgenSettings<SegmentProperties> SECTION = IdgenSettings.of("segment", SegmentProperties::new);

    /** A database row per name (idgen.jdbc.*). */
    public static final StoreName JDBC = StoreName.of("jdbc");

    /** A Redis counter per name, in windows reserved from the database (or an engine: redis.window-store). */
    public static final StoreName REDIS = StoreName.of("redis");

    /** Redis first, the database directly while Redis fails. */
    public static final StoreName DUAL = StoreName.of("dual");

    /**
     * Blocks taken over HTTP from idgen servers (idgen.remote.*), which allocate them from their own store; needs
     * dev.idgen:idgen-client. The application then reaches no database, Redis or cluster of its own.
     */
    public static final StoreName REMOTE = StoreName.of("remote");

    /** The strategy's own values of store and switch-from; an engine's value (etcd, zookeeper) is accepted too. */
    public static final List<StoreName> OWN_STORES = List.of(JDBC, REDIS, DUAL, REMOTE);

    /**
     * The first block's size, and the smallest the dynamic step fetches unless min-step is set lower.
     */
    private long step = 1000;

    /**
     * The smallest block the dynamic step fetches, from 1 to step. Defaults to step.
     */
    private Long minStep;

    /**
     * The largest block the dynamic step fetches, from step to 1000000000. Larger blocks mean fewer database
     * round trips and larger gaps after a restart.
     */
    private long maxStep = 1_000_000;

    /**
     * How long one block should last at the observed rate, from 1s to 1d; each fetch is sized for it, within
     * min-step and max-step.
     */
    private Duration bufferDuration = Duration.ofMinutes(5);

    /**
     * The used fraction of the current block after which the next one loads in the background, between 0 and 1.
     */
    private double preloadThreshold = 0.2;

    /**
     * How long a caller waits for the next block when the current one is used up before failing with a
     * store-unavailable exception, from 0 to 1m.
     */
    private Duration awaitTimeout = Duration.ofSeconds(1);

    /**
     * How long the first callers of a name wait for its first block, from 0 to 5m. Longer than await-timeout
     * because the first load may create the row (or the table) and open connections, with nothing buffered yet.
     */
    private Duration firstLoadTimeout = Duration.ofSeconds(10);

    /**
     * 0 (off) to serve a name from one shared cursor, so its IDs strictly increase across the instance; 1 to 65536
     * to let each thread claim up to that many IDs at a time and serve them alone (faster with many threads, but IDs
     * then increase per thread only). A thread's claims start at 1 ID and double up to this size, so a thread that
     * ends (one per request, virtual threads) leaves a gap of at most the IDs it used.
     */
    private int stripeSize = 0;

    /**
     * Where blocks come from: 'jdbc' (a database row per name), 'redis' (a Redis counter per name, in windows
     * reserved from the database), 'dual' (Redis first, the database directly while Redis fails), 'etcd' or
     * 'zookeeper' (a key or znode per name, idgen.etcd.* or idgen.zookeeper.*) or 'remote' (blocks from idgen servers,
     * idgen.remote.*).
     */
    private StoreName store = JDBC;

    /**
     * Segments spread over independent databases (no replication needed): DataSource bean names
     * (idgen.segment.servers[k].data-source), each its own
     * server with its own row per name, each issuing a disjoint class of IDs; calls fail over to the next server
     * when one is lost. Empty means one store on the application's DataSource. The position in the list fixes the
     * IDs a server issues: never reorder the list or remove a server from its middle (a lost server stays listed).
     */
    private List<Server> servers = new ArrayList<>();

    /**
     * With servers: how many consecutive IDs each server owns in turn (server 0 the first slot-size IDs, server 1
     * the next, ...). The same on every instance and never changed once IDs were issued. At least max-step, or
     * blocks are capped at it; servers times slot-size at most 2^40.
     */
    private long slotSize = 1_000_000;

    /**
     * A store switch: the store this generator's names were on before 'store' (jdbc, redis, dual, etcd, zookeeper or
     * remote, reached with its usual settings). Each name's first block in each instance starts above what that store
     * handed out, read from it then; the store must be reachable until every name has been served once on the new
     * one. Required when idgen sees the generator's names live on another store; remove it when the switch is done
     * (see docs/switching.md).
     */
    private StoreName switchFrom;

    /**
     * Every name of this generator starts above this ID and never goes below it: the highest ID handed out by a store
     * idgen cannot read, or by another generator. Also accepted, instead of switch-from, as the answer to a store
     * switch. Unset by default.
     */
    private Long startAbove;

    /**
     * Per name (idgen.segment.names.<name>.*): start-above, or start-above-max-of a table.column whose highest value
     * (an auto-increment column, another counter) the name's first block starts above.
     */
    private Map<String, NameStart> names = new LinkedHashMap<>();

    public StoreName getSwitchFrom() {
        return switchFrom;
    }

    public void setSwitchFrom(StoreName switchFrom) {
        this.switchFrom = switchFrom;
    }

    public Long getStartAbove() {
        return startAbove;
    }

    public void setStartAbove(Long startAbove) {
        this.startAbove = startAbove;
    }

    public Map<String, NameStart> getNames() {
        return names;
    }

    public void setNames(Map<String, NameStart> names) {
        this.names = names;
    }

    public List<Server> getServers() {
        return servers;
    }

    public void setServers(List<Server> servers) {
        this.servers = servers;
    }

    public long getSlotSize() {
        return slotSize;
    }

    public void setSlotSize(long slotSize) {
        this.slotSize = slotSize;
    }

    public StoreName getStore() {
        return store;
    }

    public void setStore(StoreName store) {
        this.store = store;
    }

    public int getStripeSize() {
        return stripeSize;
    }

    public void setStripeSize(int stripeSize) {
        this.stripeSize = stripeSize;
    }

    public long getStep() {
        return step;
    }

    public void setStep(long step) {
        this.step = step;
    }

    public Long getMinStep() {
        return minStep;
    }

    public void setMinStep(Long minStep) {
        this.minStep = minStep;
    }

    public long getMaxStep() {
        return maxStep;
    }

    public void setMaxStep(long maxStep) {
        this.maxStep = maxStep;
    }

    public Duration getBufferDuration() {
        return bufferDuration;
    }

    public void setBufferDuration(Duration bufferDuration) {
        this.bufferDuration = bufferDuration;
    }

    public double getPreloadThreshold() {
        return preloadThreshold;
    }

    public void setPreloadThreshold(double preloadThreshold) {
        this.preloadThreshold = preloadThreshold;
    }

    public Duration getFirstLoadTimeout() {
        return firstLoadTimeout;
    }

    public void setFirstLoadTimeout(Duration firstLoadTimeout) {
        this.firstLoadTimeout = firstLoadTimeout;
    }

    public Duration getAwaitTimeout() {
        return awaitTimeout;
    }

    public void setAwaitTimeout(Duration awaitTimeout) {
        this.awaitTimeout = awaitTimeout;
    }

    /**
     * One segment server.
     */
    public static class Server {

        /**
         * The name of the DataSource bean of this server.
         */
        private String dataSource;

        public String getDataSource() {
            return dataSource;
        }

        public void setDataSource(String dataSource) {
            this.dataSource = dataSource;
        }
    }

    /**
     * Where one name starts.
     */
    public static class NameStart {

        /**
         * The name's IDs start above this one and never go below it.
         */
        private Long startAbove;

        /**
         * A column the application already fills, as table.column or schema.table.column on the application's
         * DataSource (an auto-increment primary key, another generator's IDs): the name's first block in each
         * instance starts above its highest value, read then.
         */
        private String startAboveMaxOf;

        public Long getStartAbove() {
            return startAbove;
        }

        public void setStartAbove(Long startAbove) {
            this.startAbove = startAbove;
        }

        public String getStartAboveMaxOf() {
            return startAboveMaxOf;
        }

        public void setStartAboveMaxOf(String startAboveMaxOf) {
            this.startAboveMaxOf = startAboveMaxOf;
        }
    }

    /** @return whether {@code store} counts in Redis (with windows from a durable store) */
    public static boolean usesRedis(StoreName store) {
        return REDIS.equals(store) || DUAL.equals(store);
    }
}
