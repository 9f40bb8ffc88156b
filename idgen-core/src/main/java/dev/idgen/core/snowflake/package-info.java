/**
 * Snowflake IDs: timestamp, worker id and sequence in one {@code long}, issued without a store by the lock-free
 * {@link dev.idgen.core.snowflake.SnowflakeGenerator} under a {@link dev.idgen.core.snowflake.SnowflakeLayout}.
 */
package dev.idgen.core.snowflake;
