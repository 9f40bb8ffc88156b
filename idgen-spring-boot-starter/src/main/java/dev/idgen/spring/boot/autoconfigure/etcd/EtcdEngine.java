package dev.idgen.spring.boot.autoconfigure.etcd;

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

/** etcd (Raft), through idgen-etcd: segments, Redis windows and worker id leases. */
public final class EtcdEngine implements ConsensusEngine {

    /** The one instance, which the auto-configuration lists. */
    public static final EtcdEngine INSTANCE = new EtcdEngine();

    private static final StoreName NAME = StoreName.of("etcd");

    private static final IdgenDependency DEPENDENCY = new IdgenDependency(
            "idgen-etcd (on jetcd)", "dev.idgen:idgen-etcd", "dev.idgen.etcd.EtcdSegmentStore", "io.etcd.jetcd.Client");

    private EtcdEngine() {}

    @Override
    public StoreName name() {
        return NAME;
    }

    @Override
    public IdgenSettings<?> section() {
        return EtcdProperties.SECTION;
    }

    @Override
    public IdgenDependency dependency() {
        return DEPENDENCY;
    }

    @Override
    public Class<?> configuration() {
        return EtcdConfiguration.class;
    }

    @Override
    public Set<StoreChoice.Role> roles() {
        return EnumSet.allOf(StoreChoice.Role.class);
    }

    @Override
    public SegmentStore segmentStore(BeanFactory beans) {
        return EtcdConfiguration.segmentStore(beans);
    }

    @Override
    public WorkerIdLeaseStore leaseStore(BeanFactory beans) {
        return EtcdConfiguration.leaseStore(beans);
    }

    @Override
    public long initialValue(IdgenGenerators generators) {
        return generators.topLevel(EtcdProperties.SECTION).getInitialValue();
    }

    @Override
    public boolean isOwnSegmentStore(SegmentStore store) {
        return store.getClass().getName().equals("dev.idgen.etcd.EtcdSegmentStore");
    }
}
