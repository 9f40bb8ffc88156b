package dev.idgen.forms.shard;

/**
 * Where a {@link ShardedSnowflake} puts the logical shard's {@code g} bits ({@code logicalShards = 2^g}).
 */
public enum ShardPosition {

    /**
     * The "shard gene": {@code id = base << g | shard}, the base Snowflake ID with the shard as its lowest bits. IDs
     * of one generator strictly increase in the order they are issued, whatever their shards, and
     * {@code id % logicalShards} is the shard.
     */
    LOW,

    /**
     * The Instagram layout: {@code ticks | shard | worker | sequence}, the shard between the timestamp and the worker
     * bits. IDs sort by time (tick), and within a tick by shard, so IDs of one generator increase from tick to tick
     * but not within one.
     */
    AFTER_TIMESTAMP
}
