package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.util.Set;
import org.springframework.beans.factory.BeanFactory;

/**
 * A store idgen can keep segments, Redis windows or worker id leases in, beside the strategies' own (a database table,
 * Redis): the SPI by which a store plugs in. Each store's package has one ({@code EtcdEngine}, {@code ZooKeeperEngine})
 * and the auto-configuration's {@code IdgenStores} lists them, one line each. The strategies never name an engine:
 * a generator chooses one by its value in a setting ({@link StoreChoice}), and the auto-configuration checks the value,
 * imports the engine's {@link #configuration()} when some generator uses it and hands the strategy the engine's
 * stores.
 *
 * <p>An engine is a consensus store: every write is acknowledged only once a quorum holds it, so a leader change
 * loses nothing and no failover jump is needed. Its connection is set once for the application
 * ({@link IdgenSettings#sharedByEveryGenerator()}). Like a strategy's descriptor it is loaded whatever the classpath
 * holds: what it says about its client library it keeps in methods called only when a generator uses it.
 */
public interface ConsensusEngine {

    /** @return its value in the settings that choose a store, for example {@code etcd} */
    StoreName name();

    /** @return its connection's settings ({@code idgen.etcd.*}), shared by every generator */
    IdgenSettings<?> section();

    /** @return the module it needs */
    IdgenDependency dependency();

    /**
     * @return the configuration of its client (and of the default generator's store beans, and of its part of the
     *     health); imported only when some generator uses the engine
     */
    Class<?> configuration();

    /**
     * @return what it keeps: {@link StoreChoice.Role#SEGMENTS}, {@link StoreChoice.Role#LEASES} or both
     */
    Set<StoreChoice.Role> roles();

    /**
     * Called only when a generator uses the engine for segments.
     *
     * @return the segment store every generator that keeps segments (or Redis windows) in the engine shares
     */
    SegmentStore segmentStore(BeanFactory beans);

    /**
     * Called only when a generator leases its worker id from the engine.
     *
     * @return the worker id lease store every Snowflake generator that leases there shares
     */
    WorkerIdLeaseStore leaseStore(BeanFactory beans);

    /**
     * @return the value its segment counters start from ({@code idgen.etcd.initial-value}), which the check of a store
     *     switch needs to know
     */
    long initialValue(IdgenGenerators generators);

    /**
     * @param store a generator's segment store
     * @return whether it is this engine's store, whose counters carry the marks a store switch is seen by; by class
     *     name, so that the answer loads no class of the engine's module
     */
    boolean isOwnSegmentStore(SegmentStore store);

    /** @return where its connection is configured, for example {@code idgen.etcd} */
    default String prefix() {
        return "idgen." + section().key();
    }

    /** The requirement a generator that uses the engine for {@code feature} has. */
    default IdgenStrategy.Requirement requirement(String feature, IdgenGenerators.Definition definition) {
        return IdgenStrategy.Requirement.of(
                dependency(), feature, definition, SegmentStore.class, WorkerIdLeaseStore.class, IdService.class);
    }
}
