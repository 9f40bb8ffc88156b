package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.TickUnit;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Configuration properties for idgen.
 */
@ConfigurationProperties("idgen")
public class IdgenProperties implements InitializingBean {

    /**
     * Whether to configure idgen at all.
     */
    private boolean enabled = true;

    /**
     * Which strategy issues the IDs: 'snowflake' (no server at run time), 'segment' (blocks of IDs leased from a
     * database or Redis and served from memory), 'ticket' (one database round trip per call) or 'redis' (one Redis
     * INCR per call, in windows reserved from a database).
     */
    private String strategy = Strategy.SNOWFLAKE.value();

    /**
     * How many names (sequences) one instance serves, from 1 to 1000000, on the strategies that keep state in memory
     * per name: segment (two buffers and meters per name) and redis (a window per name). A new name past the limit
     * is refused (NameLimitExceededException, HTTP 400 in the sample); names already served keep working. Names are
     * meant to be a fixed set such as 'orders', never values taken from requests.
     */
    private int maxNames = dev.idgen.core.segment.SegmentIdService.DEFAULT_MAX_NAMES;

    private final Snowflake snowflake = new Snowflake();

    private final Segment segment = new Segment();

    private final Jdbc jdbc = new Jdbc();

    private final Admin admin = new Admin();

    /**
     * Generators of their own, by name: 'idgen.generators.invoice.strategy=ticket' makes IdService.nextId("invoice")
     * draw from a ticket generator, whatever idgen.strategy says. Each takes the same settings as the top level
     * (idgen.generators.invoice.ticket.table, idgen.generators.coupon.segment.step, ...) and inherits every one it
     * leaves unset. Names follow the sequence name rule; 'default' is the top-level generator's.
     */
    private final Map<String, Generator> generators = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getStrategy() {
        return strategy;
    }

    public void setStrategy(String strategy) {
        this.strategy = strategy;
    }

    public int getMaxNames() {
        return maxNames;
    }

    public void setMaxNames(int maxNames) {
        this.maxNames = maxNames;
    }

    /**
     * @return idgen.max-names, checked
     * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException naming
     *         idgen.max-names and its range
     */
    public int checkedMaxNames() {
        return InvalidIdgenProperty.rethrowAsProperty("idgen",
                () -> dev.idgen.core.NameLimit.check(maxNames));
    }

    public Snowflake getSnowflake() {
        return snowflake;
    }

    public Segment getSegment() {
        return segment;
    }

    public Jdbc getJdbc() {
        return jdbc;
    }

    public Admin getAdmin() {
        return admin;
    }

    public Map<String, Generator> getGenerators() {
        return generators;
    }

    /**
     * A generator of its own: the keys under idgen.generators.&lt;name&gt;, the same as the top level's. Read for the
     * metadata IDEs complete from; idgen binds each generator over a copy of the top-level settings, so that what a
     * generator leaves unset is inherited.
     */
    public static class Generator {

        /**
         * The generator's strategy: 'snowflake', 'segment', 'ticket' or 'redis'. Unset, idgen.strategy's.
         */
        private String strategy;

        private final Snowflake snowflake = new Snowflake();

        private final Segment segment = new Segment();

        private final Jdbc jdbc = new Jdbc();

        private final IdgenTicketProperties ticket = new IdgenTicketProperties();

        private final IdgenRedisProperties redis = new IdgenRedisProperties();

        public String getStrategy() {
            return strategy;
        }

        public void setStrategy(String strategy) {
            this.strategy = strategy;
        }

        public Snowflake getSnowflake() {
            return snowflake;
        }

        public Segment getSegment() {
            return segment;
        }

        public Jdbc getJdbc() {
            return jdbc;
        }

        public IdgenTicketProperties getTicket() {
            return ticket;
        }

        public IdgenRedisProperties getRedis() {
            return redis;
        }
    }

    /**
     * Administrative operations, all off by default.
     */
    public static class Admin {

        /**
         * Whether a ticket sequence may be reset to zero (an explicit call, never automatic). Every ID issued before a
         * reset is issued again after it.
         */
        private boolean resetEnabled = false;

        public boolean isResetEnabled() {
            return resetEnabled;
        }

        public void setResetEnabled(boolean resetEnabled) {
            this.resetEnabled = resetEnabled;
        }
    }

    /**
     * @return the configured strategy
     * @throws InvalidConfigurationPropertyValueException naming {@code idgen.strategy} and the allowed values
     */
    public Strategy strategy() {
        return Strategy.of(strategy);
    }

    @Override
    public void afterPropertiesSet() {
        strategy();
    }

    /**
     * The strategies {@code idgen.strategy} accepts.
     */
    public enum Strategy {

        /** Snowflake: timestamp, worker id and sequence; no server at run time. */
        SNOWFLAKE,

        /** Segments (号段): blocks of IDs leased from a store and served from memory. */
        SEGMENT,

        /** Flickr-style ticket servers: one database round trip per call, no caching. */
        TICKET,

        /** One Redis {@code INCR} per call, inside windows reserved from a database. */
        REDIS;

        /**
         * @return the property value, for example {@code snowflake}
         */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Strategy of(String value) {
            return of(value, "idgen.strategy");
        }

        /**
         * @param value a property value, for example {@code Ticket}
         * @param property the property it was read from, for the error
         * @return the strategy it names, compared ignoring case
         * @throws InvalidConfigurationPropertyValueException naming {@code property} and the allowed values
         */
        static Strategy of(String value, String property) {
            for (Strategy candidate : values()) {
                // Exact but for case, as @ConditionalOnProperty(havingValue) compares: no trimming here either.
                if (value != null && candidate.value().equalsIgnoreCase(value)) {
                    return candidate;
                }
            }
            throw new InvalidConfigurationPropertyValueException(property, value, "must be one of "
                    + Arrays.stream(values()).map(Strategy::value).collect(Collectors.joining(", ", "[", "]")));
        }
    }

    /**
     * Where a Snowflake generator's worker id comes from.
     */
    public enum WorkerIdAssignerType {

        /** The configured idgen.snowflake.worker-id; the operator keeps it unique. */
        STATIC,

        /** Leased from Redis, with a ttl and a heartbeat. */
        REDIS,

        /** Leased from a database table, with a ttl and a heartbeat. */
        JDBC
    }

    /**
     * Where the segment strategy's blocks come from.
     */
    public enum SegmentStoreType {

        /** A database row per name (idgen.jdbc.*). */
        JDBC,

        /** A Redis counter per name, in windows reserved from the database. */
        REDIS,

        /** Redis first, the database directly while Redis fails. */
        DUAL
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
         * How often the heartbeat renews the lease; at most half of ttl minus safety-margin. Defaults to a third of
         * the ttl.
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
         * This process's identity in the lease store, unique among running processes, at most 128 characters.
         * Defaults to host name, process id and a random UUID, which stays unique in containers where every
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
        STANDARD(SnowflakeLayout.standard()),

        /** IDs below 2^53: 31 timestamp bits of seconds, 6 worker bits, 16 sequence bits. */
        JAVASCRIPT_SAFE(SnowflakeLayout.javascriptSafe());

        private final SnowflakeLayout layout;

        Preset(SnowflakeLayout layout) {
            this.layout = layout;
        }

        public SnowflakeLayout layout() {
            return layout;
        }
    }

    /**
     * Snowflake settings: the layout, the worker id and how to handle the clock.
     */
    public static class Snowflake {

        /**
         * The layout to start from: 'standard' (41/10/12 bits, milliseconds) or 'javascript-safe' (31/6/16 bits,
         * seconds; IDs below 2^53). The settings below override single parts of it.
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
         * Where the worker id comes from: 'static' (idgen.snowflake.worker-id), 'redis' (leased from Redis) or 'jdbc'
         * (leased from a database table, idgen.jdbc.worker-table).
         */
        private WorkerIdAssignerType workerIdAssigner = WorkerIdAssignerType.STATIC;

        private final Lease lease = new Lease();

        public WorkerIdAssignerType getWorkerIdAssigner() {
            return workerIdAssigner;
        }

        public void setWorkerIdAssigner(WorkerIdAssignerType workerIdAssigner) {
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
         * @return the bit-count property the user set explicitly (the one to blame when the three sum over 63)
         */
        String explicitBitsProperty() {
            return sequenceBits != null ? "sequence-bits" : workerBits != null ? "worker-bits"
                    : timestampBits != null ? "timestamp-bits" : "preset";
        }

        /**
         * @return the preset with the explicitly set parts applied
         */
        public SnowflakeLayout.Builder layout() {
            SnowflakeLayout.Builder builder = (preset != null ? preset : Preset.STANDARD).layout().toBuilder();
            if (epoch != null) {
                builder.epoch(epoch);
            }
            if (timeUnit != null) {
                builder.tickUnit(timeUnit);
            }
            if (timestampBits != null) {
                builder.timestampBits(timestampBits);
            }
            if (workerBits != null) {
                builder.workerBits(workerBits);
            }
            if (sequenceBits != null) {
                builder.sequenceBits(sequenceBits);
            }
            return builder;
        }
    }

    /**
     * Segment settings: how blocks are sized and loaded.
     */
    public static class Segment {

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
         * How long one block should last at the observed rate; each fetch is sized for it, within min-step and
         * max-step.
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
         * to let each thread claim that many IDs at a time and serve them alone (faster with many threads, but IDs
         * then increase per thread only).
         */
        private int stripeSize = 0;

        /**
         * Where blocks come from: 'jdbc' (a database row per name), 'redis' (a Redis counter per name, in windows
         * reserved from the database) or 'dual' (Redis first, the database directly while Redis fails).
         */
        private SegmentStoreType store = SegmentStoreType.JDBC;

        public SegmentStoreType getStore() {
            return store;
        }

        public void setStore(SegmentStoreType store) {
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
         * @return the settings, checked by the core
         */
        public dev.idgen.core.segment.SegmentSettings settings() {
            dev.idgen.core.segment.SegmentSettings.Builder builder = dev.idgen.core.segment.SegmentSettings.builder()
                    .step(step).maxStep(maxStep).bufferDuration(bufferDuration).preloadThreshold(preloadThreshold)
                    .awaitTimeout(awaitTimeout).stripeSize(stripeSize).firstLoadTimeout(firstLoadTimeout);
            if (minStep != null) {
                builder.minStep(minStep);
            }
            return builder.build();
        }
    }

    /**
     * The segment table, reached in plain JDBC on the application's DataSource.
     */
    public static class Jdbc {

        /**
         * The segment table: letters, digits and underscores, optionally schema-qualified.
         */
        private String table = "idgen_segment";

        /**
         * When to create idgen's tables (segments, worker id leases and tickets): 'embedded' (only on an embedded
         * database such as H2), 'always' or 'never'.
         */
        private dev.idgen.jdbc.SchemaInitialization initializeSchema =
                dev.idgen.jdbc.SchemaInitialization.EMBEDDED;

        /**
         * The max_id a new name starts from; its first ID is one more.
         */
        private long initialValue = 0;

        /**
         * The longest one idgen statement may take in the database (a query timeout, whole seconds).
         */
        private Duration timeout = Duration.ofSeconds(3);

        /**
         * The table of leased worker ids, for idgen.snowflake.worker-id-assigner=jdbc.
         */
        private String workerTable = "idgen_worker";

        public String getWorkerTable() {
            return workerTable;
        }

        public void setWorkerTable(String workerTable) {
            this.workerTable = workerTable;
        }

        public String getTable() {
            return table;
        }

        public void setTable(String table) {
            this.table = table;
        }

        public dev.idgen.jdbc.SchemaInitialization getInitializeSchema() {
            return initializeSchema;
        }

        public void setInitializeSchema(dev.idgen.jdbc.SchemaInitialization initializeSchema) {
            this.initializeSchema = initializeSchema;
        }

        public long getInitialValue() {
            return initialValue;
        }

        public void setInitialValue(long initialValue) {
            this.initialValue = initialValue;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        /**
         * @return the timeout, checked to be between 1s and 1m
         * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException naming
         *         {@code idgen.jdbc.timeout} otherwise
         */
        public Duration checkedTimeout() {
            return checkedTimeout("idgen.jdbc");
        }

        /**
         * @param prefix where these settings live, for example {@code idgen.generators.invoice.jdbc}
         * @return the timeout, checked
         */
        Duration checkedTimeout(String prefix) {
            if (timeout == null || timeout.compareTo(Duration.ofSeconds(1)) < 0
                    || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException(
                        prefix + ".timeout", timeout, "must be between 1s and 1m");
            }
            return timeout;
        }
    }
}
