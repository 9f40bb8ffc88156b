/**
 * What the database strategies share: the {@code idgen.jdbc.*} settings, database worker-id leases, the table check
 * and the failover details reported by health and the endpoint.
 */
package dev.idgen.spring.boot.autoconfigure.jdbc;
