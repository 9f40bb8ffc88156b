package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.TickUnit;
import dev.idgen.spring.boot.autoconfigure.core.Form;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import dev.idgen.spring.boot.autoconfigure.forms.IdgenFormFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Snowflake settings: the layout, the worker id and how to handle the clock.
 */
@ConfigurationProperties("idgen.snowflake")
public class SnowflakeProperties {

    /**
     * The section as every generator has it: {@code idgen.snowflake.*}, and each named generator's own {@code idgen.generators.<name>.snowflake.*} over it.
     */
    public static final IdgenSettings<SnowflakeProperties> SECTION =
            IdgenSettings.of("snowflake", SnowflakeProperties::new).adjustedBy(SnowflakeProperties::adjust);

    /** The configured idgen.snowflake.worker-id; the operator keeps it unique. */
    public static final StoreName STATIC = StoreName.of("static");

    /** Leased from Redis, with a ttl and a heartbeat. */
    public static final StoreName REDIS = StoreName.of("redis");

    /** Leased from a database table, with a ttl and a heartbeat. */
    public static final StoreName JDBC = StoreName.of("jdbc");

    /**
     * The instance's ordinal (a StatefulSet pod's host name ends in it) plus idgen.snowflake.ordinal.offset; the
     * platform keeps it unique.
     */
    public static final StoreName ORDINAL = StoreName.of("ordinal");

    /**
     * The sequence number of a persistent sequential node under /snowflake/{idgen.snowflake.leaf.name}/forever in
     * ZooKeeper (idgen.zookeeper.*), registered and refreshed as a Meituan Leaf server in Snowflake mode does, so that
     * idgen instances and Leaf servers never share a worker id. Needs idgen.snowflake.preset=leaf.
     */
    public static final StoreName LEAF_ZOOKEEPER = StoreName.of("leaf-zookeeper");

    /**
     * The worker id assigners of its own; an engine's value (etcd, zookeeper: an engine's lease per worker id, renewed
     * by the heartbeat) is accepted too.
     */
    public static final List<StoreName> OWN_ASSIGNERS = List.of(STATIC, REDIS, JDBC, ORDINAL, LEAF_ZOOKEEPER);

    /** @return whether {@code assigner} leases the worker id from a store: Redis, a table or an engine */
    public static boolean leases(StoreName assigner) {
        return REDIS.equals(assigner) || JDBC.equals(assigner) || !OWN_ASSIGNERS.contains(assigner);
    }

    /**
     * The layout to start from: 'standard' (41/10/12 bits, milliseconds) or 'javascript-safe' (31/6/16 bits,
     * seconds; IDs below 2^53); or another library's layout and epoch, to keep issuing in it while switching to idgen:
     * 'twitter', 'hutool', 'mybatis-plus', 'leaf', 'cosid', 'uid-generator', 'yitter' ('sonyflake' is refused: idgen
     * cannot produce its bit order). The settings below override single parts of it.
     */
    private Preset preset = Preset.STANDARD;

    /**
     * The instant tick 0 stands for, ISO-8601. Must not be in the future. Defaults to the preset's,
     * 2025-01-01T00:00:00Z.
     */
    private Instant epoch;

    /**
     * The unit of the timestamp: 'milliseconds' or 'seconds'. Defaults to the preset's.
     */
    private TickUnit timeUnit;

    /**
     * Timestamp bits, from 1 to 62. Defaults to the preset's (41 for standard).
     */
    private Integer timestampBits;

    /**
     * Worker bits, from 0 to 61. Defaults to the preset's (10 for standard).
     */
    private Integer workerBits;

    /**
     * Sequence bits, from 1 to 62; the three bit counts sum to at most 63. Defaults to the preset's (12 for
     * standard).
     */
    private Integer sequenceBits;

    /**
     * This instance's worker id, from 0 to 2^worker-bits - 1. Must be unique among the instances running at once.
     */
    private long workerId = 0;

    /**
     * How many ticks the generator may run ahead of the clock when a tick's sequence is used up: at most one
     * second's worth (1000 millisecond ticks, or 1 second tick). 0 waits for the clock instead.
     */
    private long maxBorrow = 0;

    /**
     * How far the clock may step backwards and be waited out, from 0 to 10s. Further steps fail with a clock
     * exception (and health DOWN) until the clock catches up.
     */
    private Duration clockBackwardsTolerance = SnowflakeGenerator.DEFAULT_CLOCK_BACKWARDS_TOLERANCE;

    /**
     * Where the worker id comes from: 'static' (idgen.snowflake.worker-id), 'redis' (leased from Redis), 'jdbc'
     * (leased from a database table, idgen.jdbc.worker-table), 'etcd' (leased from etcd, idgen.etcd.*), 'zookeeper'
     * (leased from ZooKeeper, idgen.zookeeper.*), 'ordinal' (the instance's ordinal, from a StatefulSet host name or
     * an environment variable: idgen.snowflake.ordinal.*) or 'leaf-zookeeper' (registered in ZooKeeper as a Meituan
     * Leaf server in Snowflake mode registers, beside Leaf's own servers: idgen.snowflake.leaf.*, idgen.zookeeper.*).
     */
    private StoreName workerIdAssigner = STATIC;

    private final Lease lease = new Lease();

    private final Ordinal ordinal = new Ordinal();

    private final Switch switching = new Switch();

    private final Leaf leaf = new Leaf();

    /** @return idgen.snowflake.leaf.*: the Leaf Snowflake nodes idgen.snowflake.worker-id-assigner=leaf-zookeeper uses */
    public Leaf getLeaf() {
        return leaf;
    }

    public Ordinal getOrdinal() {
        return ordinal;
    }

    /** @return idgen.snowflake.switch.*: the Snowflake generator a fleet is switching from */
    public Switch getSwitch() {
        return switching;
    }

    public StoreName getWorkerIdAssigner() {
        return workerIdAssigner;
    }

    public void setWorkerIdAssigner(StoreName workerIdAssigner) {
        this.workerIdAssigner = workerIdAssigner;
    }

    public Lease getLease() {
        return lease;
    }

    public Preset getPreset() {
        return preset;
    }

    public void setPreset(Preset preset) {
        this.preset = preset;
    }

    public Instant getEpoch() {
        return epoch;
    }

    public void setEpoch(Instant epoch) {
        this.epoch = epoch;
    }

    public TickUnit getTimeUnit() {
        return timeUnit;
    }

    public void setTimeUnit(TickUnit timeUnit) {
        this.timeUnit = timeUnit;
    }

    public Integer getTimestampBits() {
        return timestampBits;
    }

    public void setTimestampBits(Integer timestampBits) {
        this.timestampBits = timestampBits;
    }

    public Integer getWorkerBits() {
        return workerBits;
    }

    public void setWorkerBits(Integer workerBits) {
        this.workerBits = workerBits;
    }

    public Integer getSequenceBits() {
        return sequenceBits;
    }

    public void setSequenceBits(Integer sequenceBits) {
        this.sequenceBits = sequenceBits;
    }

    public long getWorkerId() {
        return workerId;
    }

    public void setWorkerId(long workerId) {
        this.workerId = workerId;
    }

    public long getMaxBorrow() {
        return maxBorrow;
    }

    public void setMaxBorrow(long maxBorrow) {
        this.maxBorrow = maxBorrow;
    }

    public Duration getClockBackwardsTolerance() {
        return clockBackwardsTolerance;
    }

    public void setClockBackwardsTolerance(Duration clockBackwardsTolerance) {
        this.clockBackwardsTolerance = clockBackwardsTolerance;
    }

    /**
     * Switching a fleet to idgen from another Snowflake generator without a repeat: either keep the old layout and
     * disjoint worker ids (old-worker-ids), or issue above the old IDs (start-above, start-above-max-of). Both are
     * checked at start-up.
     */
    public static class Switch {

        /**
         * The generator the fleet is switching from: 'twitter', 'hutool', 'mybatis-plus', 'leaf', 'cosid',
         * 'uid-generator', 'sonyflake' or 'yitter' (at the library's default layout and epoch). Without
         * old-worker-ids, start-up checks that idgen's smallest ID now is above every ID it can issue up to
         * old-writers-stop-by plus clock-margin; old writers running after that may repeat idgen's IDs.
         */
        private String from;

        /**
         * The worker ids the old fleet uses, as ids and ranges: '0-31,40'. idgen then keeps out of them: a static or
         * ordinal worker id inside them fails start-up, leases never grant one. Needs switch.from, and preset (or the
         * layout) equal to its layout: disjoint worker ids only keep IDs apart within one layout. The way for an
         * open-ended side-by-side run: disjoint worker ids keep the two fleets' IDs apart for as long as both run.
         */
        private String oldWorkerIds;

        /**
         * The time by which the old fleet issues its last ID, at most 366 days ahead. With switch.from and no
         * old-worker-ids, start-up checks that idgen's smallest ID now is above every ID the old generator can issue
         * by then plus clock-margin; IDs it issues later may repeat idgen's. Unset: the old writers have already
         * stopped before idgen starts.
         */
        private Instant oldWritersStopBy;

        /**
         * An ID idgen's IDs must stay above, such as the highest ID the old generator issued: start-up fails while
         * idgen's smallest ID now (this tick, worker 0, sequence 0) is not above it.
         */
        private Long startAbove;

        /**
         * 'table.column' whose MAX, read at start-up from the application's DataSource, idgen's IDs must stay above.
         * Without switch.from it is read twice, recheck-interval apart, and start-up fails if it moved: stop the old
         * writers first, or set switch.from and old-writers-stop-by.
         */
        private String startAboveMaxOf;

        /**
         * How far the old fleet's clocks may be ahead of this host's, from 0 to 1h: with switch.from, idgen's IDs must
         * be above the highest ID the old generator can issue by now (or old-writers-stop-by, if later) plus this
         * margin.
         */
        private Duration clockMargin = Duration.ofMinutes(1);

        /**
         * With start-above-max-of and no switch.from: how long start-up waits between its two reads of the MAX, from
         * 10ms to 1m.
         */
        private Duration recheckInterval = Duration.ofSeconds(1);

        public String getFrom() {
            return from;
        }

        public void setFrom(String from) {
            this.from = from;
        }

        public Instant getOldWritersStopBy() {
            return oldWritersStopBy;
        }

        public void setOldWritersStopBy(Instant oldWritersStopBy) {
            this.oldWritersStopBy = oldWritersStopBy;
        }

        public String getOldWorkerIds() {
            return oldWorkerIds;
        }

        public void setOldWorkerIds(String oldWorkerIds) {
            this.oldWorkerIds = oldWorkerIds;
        }

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

        public Duration getClockMargin() {
            return clockMargin;
        }

        public void setClockMargin(Duration clockMargin) {
            this.clockMargin = clockMargin;
        }

        public Duration getRecheckInterval() {
            return recheckInterval;
        }

        public void setRecheckInterval(Duration recheckInterval) {
            this.recheckInterval = recheckInterval;
        }
    }

    /**
     * Meituan Leaf's Snowflake nodes in ZooKeeper, for idgen.snowflake.worker-id-assigner=leaf-zookeeper.
     */
    public static class Leaf {

        /**
         * Leaf's leaf.name: the worker id is the sequence number of this instance's node under
         * /snowflake/{name}/forever, numbered by the same ZooKeeper counter as the Leaf servers' nodes there. Required
         * with leaf-zookeeper.
         */
        private String name;

        /**
         * The ip:port this instance registers as, unique per running instance: an instance finds its node again by it
         * on restart, as a Leaf server does by its IP address and leaf.snowflake.port; a Leaf server's address takes
         * over its worker id once it has stopped. Defaults to the host's first non-loopback IPv4 address (as Leaf picks
         * it) and server.port, which must then be set.
         */
        private String address;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = address;
        }
    }

    /**
     * Where idgen.snowflake.worker-id-assigner=ordinal reads the ordinal.
     */
    public static class Ordinal {

        /**
         * A regular expression with one group, the ordinal, found in the host name (the HOSTNAME environment
         * variable, else the local host's name). The default takes the number after the last dash, as in a
         * StatefulSet pod's name 'orders-7'.
         */
        private String pattern = ".*-(\\d+)$"; // OrdinalWorkerId.DEFAULT_PATTERN, written out for the metadata

        /**
         * An environment variable that holds the ordinal, read instead of the host name, e.g. POD_INDEX (set from
         * the pod label apps.kubernetes.io/pod-index).
         */
        private String env;

        /**
         * Added to the ordinal to make the worker id, which must be from 0 to 2^worker-bits - 1; negative for
         * ordinals that count from 1.
         */
        private long offset = 0;

        public String getPattern() {
            return pattern;
        }

        public void setPattern(String pattern) {
            this.pattern = pattern;
        }

        public String getEnv() {
            return env;
        }

        public void setEnv(String env) {
            this.env = env;
        }

        public long getOffset() {
            return offset;
        }

        public void setOffset(long offset) {
            this.offset = offset;
        }
    }

    /**
     * Worker id leases, for idgen.snowflake.worker-id-assigner=redis or jdbc.
     */
    public static class Lease {

        /**
         * How long a lease lasts unrenewed, from 1s to 1d. The generator stops issuing IDs safety-margin before it
         * could expire.
         */
        private Duration ttl = Duration.ofSeconds(30);

        /**
         * How often the heartbeat renews the lease, from 100ms to half of ttl minus safety-margin. Defaults to a third
         * of the ttl.
         */
        private Duration renewInterval;

        /**
         * How long before the lease could expire the generator stops issuing IDs, up to half the ttl. Defaults to a
         * tenth of the ttl, at least 500ms.
         */
        private Duration safetyMargin;

        /**
         * How long an expired or released worker id stays unused before another instance gets it, from 1s to 1h.
         * Covers the clocks of two hosts disagreeing.
         */
        private Duration reuseDelay = Duration.ofSeconds(5);

        /**
         * How long start-up waits for a worker id the store expects to free soon (after the store lost its data).
         * Defaults to 2 ttl + reuse-delay + 5s (the wait after a Redis failover).
         */
        private Duration acquireTimeout;

        /**
         * This process's identity, 1 to 115 characters. The lease store knows the process by it plus a random nonce
         * of the process's own, so processes that share it never share a worker id. Defaults to host name, process id and a random UUID, which stays unique in containers where every
         * process is PID 1 and host names repeat.
         */
        private String instanceId;

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public Duration getRenewInterval() {
            return renewInterval;
        }

        public void setRenewInterval(Duration renewInterval) {
            this.renewInterval = renewInterval;
        }

        public Duration getSafetyMargin() {
            return safetyMargin;
        }

        public void setSafetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
        }

        public Duration getReuseDelay() {
            return reuseDelay;
        }

        public void setReuseDelay(Duration reuseDelay) {
            this.reuseDelay = reuseDelay;
        }

        public Duration getAcquireTimeout() {
            return acquireTimeout;
        }

        public void setAcquireTimeout(Duration acquireTimeout) {
            this.acquireTimeout = acquireTimeout;
        }

        public String getInstanceId() {
            return instanceId;
        }

        public void setInstanceId(String instanceId) {
            this.instanceId = instanceId;
        }
    }

    /**
     * The Snowflake layouts to start from.
     */
    public enum Preset {

        /** 41 timestamp bits of milliseconds, 10 worker bits, 12 sequence bits. */
        STANDARD,

        /** IDs below 2^53: 31 timestamp bits of seconds, 6 worker bits, 16 sequence bits. */
        JAVASCRIPT_SAFE,

        /** Twitter's Snowflake: 41/10/12 bits of milliseconds since 2010-11-04T01:42:54.657Z. */
        TWITTER,

        /** Hutool's Snowflake: Twitter's layout and epoch. */
        HUTOOL,

        /** MyBatis-Plus's Sequence: Twitter's layout and epoch. */
        MYBATIS_PLUS,

        /** Meituan Leaf's snowflake mode: Twitter's layout and epoch. */
        LEAF,

        /** CosId's MillisecondSnowflakeId: 41/10/12 bits of milliseconds since 2019-12-24T16:00:00Z. */
        COSID,

        /** Baidu uid-generator: 28/22/13 bits of seconds since 2016-05-19T16:00:00Z; ran out on 2024-11-20. */
        UID_GENERATOR,

        /** Sonyflake: refused, as idgen cannot produce its bit order; switch above its IDs instead. */
        SONYFLAKE,

        /** Sonyflake v2 (counted from 2025-01-01): refused as Sonyflake is; switch above its IDs instead. */
        SONYFLAKE_V2,

        /** yitter's IdGenerator: 51/6/6 bits of milliseconds since 2020-02-19T18:20:02Z. */
        YITTER
    }

    /**
     * After binding: a preset a named generator chooses starts the layout over (top-level bits or units would bend
     * it: a javascript-safe preset with 10 inherited worker bits would pass 2^53); and the shard form, with no layout
     * set, makes room below bit 63 for its shard bits: 41 bits of milliseconds, with worker and sequence sharing what
     * the shards leave.
     */
    static void adjust(SnowflakeProperties snowflake, IdgenSettings.Binding binding) {
        IdgenGenerators.Definition definition = binding.definition();
        if (!definition.isDefault() && binding.isSetByGenerator("preset")) {
            for (LayoutPart part : LayoutPart.values()) {
                if (!binding.isSetByGenerator(part.key())) {
                    part.clear(snowflake);
                }
            }
        }
        if (definition.form() == Form.SHARD && !layoutSet(binding)) {
            int[] bits = IdgenFormFactory.shardLayoutBits(
                    definition.properties().getShard().getLogicalShards(), definition.property("shard.logical-shards"));
            snowflake.setTimestampBits(bits[0]);
            snowflake.setWorkerBits(bits[1]);
            snowflake.setSequenceBits(bits[2]);
        }
    }

    /** Whether the generator or the top level sets any part of the layout, the preset included. */
    private static boolean layoutSet(IdgenSettings.Binding binding) {
        if (binding.isSetByGenerator("preset") || binding.isSetAtTopLevel("preset")) {
            return true;
        }
        for (LayoutPart part : LayoutPart.values()) {
            if (binding.isSetByGenerator(part.key()) || binding.isSetAtTopLevel(part.key())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The parts of the layout a preset fixes: a generator that chooses a preset of its own inherits none of them. Each
     * constant's name is its key under {@code snowflake} ({@link #key()}), and it unsets its own field.
     */
    public enum LayoutPart {
        EPOCH(snowflake -> snowflake.setEpoch(null)),

        TIME_UNIT(snowflake -> snowflake.setTimeUnit(null)),

        TIMESTAMP_BITS(snowflake -> snowflake.setTimestampBits(null)),

        WORKER_BITS(snowflake -> snowflake.setWorkerBits(null)),

        SEQUENCE_BITS(snowflake -> snowflake.setSequenceBits(null));

        private final Consumer<SnowflakeProperties> clear;

        LayoutPart(Consumer<SnowflakeProperties> clear) {
            this.clear = clear;
        }

        /** @return its key under {@code snowflake}, for example {@code time-unit} */
        public String key() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Unsets the part, so that the preset decides it. */
        public void clear(SnowflakeProperties snowflake) {
            clear.accept(snowflake);
        }
    }
}
