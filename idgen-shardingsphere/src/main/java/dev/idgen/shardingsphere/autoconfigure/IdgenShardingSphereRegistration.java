package dev.idgen.shardingsphere.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.shardingsphere.IdgenRegistry;

/**
 * The context's {@link IdService} held in {@link IdgenRegistry} from this bean's creation until the context closes,
 * when Spring calls {@link #close()}: a closed context's generators must not serve ShardingSphere on.
 */
public final class IdgenShardingSphereRegistration implements AutoCloseable {

    private final String name;
    private final IdService ids;

    IdgenShardingSphereRegistration(String name, IdService ids) {
        IdgenRegistry.register(name, ids);
        this.name = name;
        this.ids = ids;
    }

    /** @return the registration's name */
    public String name() {
        return name;
    }

    @Override
    public void close() {
        IdgenRegistry.unregister(name, ids);
    }
}
