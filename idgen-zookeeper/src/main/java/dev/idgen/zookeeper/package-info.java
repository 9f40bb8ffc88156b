/**
 * idgen's stores on ZooKeeper through Apache Curator: {@link dev.idgen.zookeeper.ZooKeeperSegmentStore} (segments
 * allocated by a versioned {@code setData}), {@link dev.idgen.zookeeper.ZooKeeperWorkerIdLeaseStore} (worker id
 * leases judged by the ZooKeeper leader's clock) and {@link dev.idgen.zookeeper.ZooKeeperEnsembleStatus} (for a
 * health indicator). Every call is bounded by the store's timeout, also while the ensemble has no quorum.
 */
package dev.idgen.zookeeper;
