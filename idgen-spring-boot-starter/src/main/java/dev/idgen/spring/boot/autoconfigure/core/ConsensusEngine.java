package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import java.util.ArrayList;
import java.util.List;

/**
 * A consensus store idgen can keep its high-water marks in: every write is acknowledged only once a quorum holds it,
 * so a leader change loses nothing and no failover jump is needed.
 */
public enum ConsensusEngine {

    /** etcd (Raft), through idgen-etcd. */
    ETCD("idgen.etcd", IdgenDependency.ETCD, "etcd"),

    /** ZooKeeper (ZAB), through idgen-zookeeper. */
    ZOOKEEPER("idgen.zookeeper", IdgenDependency.ZOOKEEPER, "zookeeper");

    private final String prefix;

    private final IdgenDependency dependency;

    private final String value;

    ConsensusEngine(String prefix, IdgenDependency dependency, String value) {
        this.prefix = prefix;
        this.dependency = dependency;
        this.value = value;
    }

    /** @return where its connection is configured, for example {@code idgen.etcd} */
    public String prefix() {
        return prefix;
    }

    /** @return the module it needs */
    public IdgenDependency dependency() {
        return dependency;
    }

    /** @return its value in idgen.segment.store and the other settings that choose it */
    public String value() {
        return value;
    }

    /**
     * @param choice a value of a setting that chooses a store ({@code segment.store}, {@code redis.window-store},
     *     {@code snowflake.worker-id-assigner})
     * @return whether it is this engine: the settings name their engines by the same constants
     */
    public boolean is(Enum<?> choice) {
        return choice.name().equals(name());
    }

    /** The requirement a generator that uses the engine for {@code feature} has. */
    IdgenStrategy.Requirement requirement(String feature, IdgenGenerators.Definition definition) {
        return IdgenStrategy.Requirement.of(
                dependency, feature, definition, SegmentStore.class, WorkerIdLeaseStore.class, IdService.class);
    }

    /**
     * @return the requirements of whichever engine {@code definition} uses for {@code feature}, when it does
     */
    public static List<IdgenStrategy.Requirement> requirements(
            IdgenGenerators.Definition definition, IdgenStrategy strategy) {
        List<IdgenStrategy.Requirement> requirements = new ArrayList<>();
        for (ConsensusEngine engine : values()) {
            String use = strategy.consensusUse(definition, engine);
            if (use != null) {
                requirements.add(engine.requirement(use, definition));
            }
        }
        return requirements;
    }
}
