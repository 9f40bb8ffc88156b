/**
 * Real Redis, MariaDB and PostgreSQL for tests: processes of the test's own (replica sets, clusters, sentinels), the
 * services named by the environment, Testcontainers, or the local default ({@link dev.idgen.test.services.TestServices}).
 */
package dev.idgen.test.services;
