/**
 * What the database strategies share: the {@code idgen.jdbc.*} settings, database worker-id leases, the table check,
 * the failover details reported by health and the endpoint, and the ordering of idgen's database beans after Spring
 * Boot's Flyway, Liquibase and SQL initialisation.
 */
package dev.idgen.spring.boot.autoconfigure.jdbc;
