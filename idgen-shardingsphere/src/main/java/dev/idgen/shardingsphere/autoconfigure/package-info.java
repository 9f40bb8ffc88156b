/**
 * The Spring Boot side of idgen-shardingsphere: registers the context's {@link dev.idgen.core.IdService} for the
 * {@code IDGEN} key generators that ShardingSphere builds outside the context.
 */
package dev.idgen.shardingsphere.autoconfigure;
