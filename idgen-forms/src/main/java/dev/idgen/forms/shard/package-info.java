/**
 * Shard-aware Snowflake IDs: {@link dev.idgen.forms.shard.ShardedSnowflake} puts a logical shard, the xxHash64 of a
 * business key, into every ID, so a row can be routed from its ID alone.
 */
package dev.idgen.forms.shard;
