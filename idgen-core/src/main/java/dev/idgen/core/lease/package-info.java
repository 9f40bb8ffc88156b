/**
 * Leased worker ids: {@link dev.idgen.core.lease.LeasingWorkerIdAssigner} acquires a worker id from a
 * {@link dev.idgen.core.spi.WorkerIdLeaseStore} and keeps it renewed; an in-memory store for tests and single processes.
 */
package dev.idgen.core.lease;
