package dev.idgen.spring.boot.autoconfigure.remote;

import dev.idgen.client.RemoteSegmentStore;
import java.util.Set;

/**
 * The one {@link RemoteSegmentStore} every generator with {@code segment.store=remote} shares, and which generators
 * those are. A bean of its own type rather than a {@code SegmentStore} bean, so that it never stands in for the
 * default generator's store (which the application may declare, or which may be a database's) when only named
 * generators use remote. Closing it closes the store.
 */
public final class SharedRemoteStore implements AutoCloseable {

    private final RemoteSegmentStore store;

    private final Set<String> generators;

    SharedRemoteStore(RemoteSegmentStore store, Set<String> generators) {
        this.store = store;
        this.generators = Set.copyOf(generators);
    }

    /** @return the store */
    public RemoteSegmentStore store() {
        return store;
    }

    /** @return the names of the generators that use it */
    public Set<String> generators() {
        return generators;
    }

    @Override
    public void close() {
        store.close();
    }
}
