/**
 * idgen's stores on etcd through jetcd: {@link dev.idgen.etcd.EtcdSegmentStore} allocates segments by a compare-and-set
 * on a key's revision, {@link dev.idgen.etcd.EtcdWorkerIdLeaseStore} leases worker ids on etcd leases, and
 * {@link dev.idgen.etcd.EtcdClusterStatus} reads the members' state for a health indicator. Every write is acknowledged
 * by a Raft quorum, and every call returns or throws {@link dev.idgen.etcd.EtcdUnavailableException} within the
 * timeout it was given.
 *
 * <p><b>The client</b> is the application's: the stores share it and never close it. It connects lazily, so an
 * application starts while etcd is down. With jetcd's default {@code waitForReady(true)} a call made while no member
 * is reachable waits in the channel until one is (the stores give up on it at their timeout, the call stays queued);
 * {@code waitForReady(false)} fails such calls at once (after jetcd's own retries of reads), which suits bounded
 * callers better; the tests pass either way. TLS is switched on by {@code sslContext(...)} alone (the endpoints'
 * {@code https} scheme is not what enables it), credentials by {@code user(...)} and {@code password(...)}.
 *
 * <p><b>Assumption.</b> etcd keeps what it acknowledged: a leader change or the loss of a minority of members loses
 * nothing. Restoring a cluster from an older snapshot while instances run does lose writes (segment counters go back,
 * leases taken since are forgotten): stop the instances for at least the lease ttl plus the reuse delay, and raise the
 * segment keys past the IDs served, before they start again.
 */
package dev.idgen.etcd;
