package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.spring.boot.autoconfigure.core.ConsensusEngine;
import dev.idgen.spring.boot.autoconfigure.core.IdgenDependency;
import dev.idgen.spring.boot.autoconfigure.etcd.EtcdEngine;
import dev.idgen.spring.boot.autoconfigure.zookeeper.ZooKeeperEngine;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place that lists the {@link ConsensusEngine}s, the stores that plug in: a store's package and its line here
 * are all it takes for every strategy to accept its value in the settings that choose a store (checked at start-up),
 * for its section to be bound and for its configuration to be imported when a generator uses it.
 */
public final class IdgenStores {

    /** Every engine, each once. */
    static final List<ConsensusEngine> ENGINES = List.of(EtcdEngine.INSTANCE, ZooKeeperEngine.INSTANCE);

    private IdgenStores() {}

    /**
     * @return every optional dependency, the strategies' ({@link IdgenDependency#all()}) and the engines', for the
     *     ahead-of-time hints that keep their classes findable by name in a native image
     */
    public static List<IdgenDependency> dependencies() {
        List<IdgenDependency> dependencies = new ArrayList<>(IdgenDependency.all());
        ENGINES.forEach(engine -> dependencies.add(engine.dependency()));
        return List.copyOf(dependencies);
    }
}
