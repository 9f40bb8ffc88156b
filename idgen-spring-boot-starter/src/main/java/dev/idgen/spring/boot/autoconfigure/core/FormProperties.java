package dev.idgen.spring.boot.autoconfigure.core;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;

/**
 * The settings of a generator's ID form ({@code idgen.form} and {@code idgen.generators.<name>.form}), and of its
 * counters per period. They sit beside {@code strategy} in {@link IdgenProperties}; these classes hold the nested
 * groups.
 */
public final class FormProperties {

    private FormProperties() {}

    /**
     * Shard-aware IDs ({@code form=shard}, over Snowflake).
     */
    public static class Shard {

        /**
         * How many logical shards the IDs carry: a power of two from 2 to 65536, fixed for the life of the IDs
         * (physical shards own ranges of them, so they can grow without changing any ID's logical shard).
         */
        private int logicalShards = 1024;

        /**
         * Where the shard bits go: 'gene' (the lowest bits, after timestamp, worker and sequence) or 'instagram'
         * (right after the timestamp, as Instagram's 41/13/10 layout).
         */
        private ShardLayout layout = ShardLayout.GENE;

        public int getLogicalShards() {
            return logicalShards;
        }

        public void setLogicalShards(int logicalShards) {
            this.logicalShards = logicalShards;
        }

        public ShardLayout getLayout() {
            return layout;
        }

        public void setLayout(ShardLayout layout) {
            this.layout = layout;
        }
    }

    /**
     * Where the logical shard sits in a shard-aware ID.
     */
    public enum ShardLayout {

        /** The lowest bits: a "shard gene" after timestamp, worker and sequence. */
        GENE,

        /** Right after the timestamp, as in Instagram's layout. */
        INSTAGRAM
    }

    /**
     * Public IDs ({@code form=public}): the internal ID encrypted with FF1 under a key of a version.
     */
    public static class Public {

        /**
         * The keys by version (0 to 61): AES keys of 16, 24 or 32 bytes, Base64. Keep every version whose IDs are
         * still out there: a public ID carries its key's version and decodes as long as that key is configured.
         */
        private Map<Integer, String> keys = new TreeMap<>();

        /**
         * The version new public IDs are encrypted under. Unset, the highest configured.
         */
        private Integer version;

        public Map<Integer, String> getKeys() {
            return keys;
        }

        public void setKeys(Map<Integer, String> keys) {
            this.keys = keys;
        }

        public Integer getVersion() {
            return version;
        }

        public void setVersion(Integer version) {
            this.version = version;
        }
    }

    /**
     * Ordered GUIDs ({@code form=guid}).
     */
    public static class Guid {

        /**
         * Where the time goes: 'sql-server' (the last six bytes, which SQL Server compares first) or 'bytes' (the
         * first six, for MySQL/MariaDB BINARY(16) and PostgreSQL uuid, which compare bytes left to right).
         */
        private GuidOrder order = GuidOrder.SQL_SERVER;

        public GuidOrder getOrder() {
            return order;
        }

        public void setOrder(GuidOrder order) {
            this.order = order;
        }
    }

    /**
     * Which database's sort order an ordered GUID follows.
     */
    public enum GuidOrder {

        /** SQL Server's uniqueidentifier order: the time in the last six bytes. */
        SQL_SERVER,

        /** Byte order, left to right: the time in the first six bytes. */
        BYTES
    }

    /**
     * 128-bit flakes ({@code form=flake128}).
     */
    public static class Flake128 {

        /**
         * The 48-bit worker id, unique per running instance. Unset, 48 random bits per instance.
         */
        private Long workerId;

        public Long getWorkerId() {
            return workerId;
        }

        public void setWorkerId(Long workerId) {
            this.workerId = workerId;
        }
    }

    /** The zone periods are counted in unless set. */
    public static final ZoneId DEFAULT_PERIOD_ZONE = ZoneOffset.UTC;
}
