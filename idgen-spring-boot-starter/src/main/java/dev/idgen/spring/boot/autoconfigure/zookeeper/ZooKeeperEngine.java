package dev.idgen.spring.boot.autoconfigure.zookeeper;

import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import dev.idgen.spring.boot.autoconfigure.core.StoreChoice;
import dev.idgen.spring.boot.autoconfigure.core.StoreName;
import java.util.EnumSet;
import java.util.Set;
import org.springframework.beans.factory.BeanFactory;

/** ZooKeeper (ZAB), through idgen-zookeeper: segments, Redis windows and worker id leases (and the Leaf worker ids of
 * {@code leaf-zookeeper}, on its client). */
public final class ZooKeeperEngine implements ConsensusEngine {

    /** The one instance, which the auto-configuration lists. */
    public static final ZooKeeperEngine INSTANCE = new ZooKeeperEngine();

    /** Its value, which the {@code leaf-zookeeper} assigner also uses. */
    public static final StoreName NAME = StoreName.of("zookeeper");

    private static final IdgenDependency DEPENDENCY = new IdgenDependency(
            "idgen-zookeeper (on Apache Curator)",
            "dev.idgen:idgen-zookeeper",
            "dev.idgen.zookeeper.ZooKeeperSegmentStore",
            "org.apache.curator.framework.CuratorFramework");

    private ZooKeeperEngine() {}

    @Override
    public StoreName name() {
        return NAME;
    }

    @Override
    public IdgenSettings<?> section() {
        return ZooKeeperProperties.SECTION;
    }

    @Override
    public IdgenDependency dependency() {
        return DEPENDENCY;
    }

    @Override
    public Class<?> configuration() {
        return ZooKeeperConfiguration.class;
    }

    @Override
    public Set<StoreChoice.Role> roles() {
        return EnumSet.allOf(StoreChoice.Role.class);
    }

    @Override
    public SegmentStore segmentStore(BeanFactory beans) {
        return ZooKeeperConfiguration.segmentStore(beans);
    }

    @Override
    public WorkerIdLeaseStore leaseStore(BeanFactory beans) {
        return ZooKeeperConfiguration.leaseStore(beans);
    }

    @Override
    public long initialValue(IdgenGenerators generators) {
        return generators.topLevel(ZooKeeperProperties.SECTION).getInitialValue();
    }

    @Override
    public boolean isOwnSegmentStore(SegmentStore store) {
        return store.getClass().getName().equals("dev.idgen.zookeeper.ZooKeeperSegmentStore");
    }
}
