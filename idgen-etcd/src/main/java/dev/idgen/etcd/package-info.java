/**
 * idgen's stores on etcd through jetcd: {@link dev.idgen.etcd.EtcdSegmentStore} allocates segments by a compare-and-set
 * on a key's revision, {@link dev.idgen.etcd.EtcdWorkerIdLeaseStore} leases worker ids on etcd leases, and
 * {@link dev.idgen.etcd.EtcdClusterStatus} reads the members' state for a health indicator. Every write is acknowledged
 * by a Raft quorum, and every call returns or throws {@link dev.idgen.etcd.EtcdUnavailableException} within the
 * timeout it was given.
 */
package dev.idgen.etcd;
