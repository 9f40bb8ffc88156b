/**
 * Snowflake: the generator's wiring, worker-id assignment (static, ordinal, leased from a database or Redis), its
 * settings, health and meters.
 */
package dev.idgen.spring.boot.autoconfigure.snowflake;
