/**
 * idgen in ShardingSphere-JDBC 5.5: {@link dev.idgen.shardingsphere.IdgenKeyGenerateAlgorithm} (type {@code IDGEN})
 * takes a table's keys from idgen instead of ShardingSphere's host-guessed Snowflake, and
 * {@link dev.idgen.shardingsphere.IdgenShardingAlgorithm} (type {@code IDGEN_SHARD}) routes rows by the shard their
 * shard-form ID, or their shard key, carries. ShardingSphere builds both through its SPI.
 */
package dev.idgen.shardingsphere;
