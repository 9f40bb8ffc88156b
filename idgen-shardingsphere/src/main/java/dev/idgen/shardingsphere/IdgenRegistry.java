package dev.idgen.shardingsphere;

import dev.idgen.core.IdService;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link IdService}s the {@code IDGEN} key generator can find by name. ShardingSphere builds its algorithms itself
 * (through {@link java.util.ServiceLoader}), so they cannot be given a Spring bean: the module's auto-configuration
 * registers the context's {@link IdService} here instead (under {@code idgen.shardingsphere.registration}, default
 * {@value #DEFAULT_REGISTRATION}), and the algorithm looks it up when it first generates keys, which lets the
 * ShardingSphere DataSource be built before idgen's beans. Plain Java code may register a service of its own.
 *
 * <p>A name holds one service. The same service registered again (a child context) counts once more and stays until
 * each registration is undone; a different service under a name already held is refused, since two contexts would
 * otherwise silently share one's IDs.
 */
public final class IdgenRegistry {

    /** The registration the algorithm uses when its {@code registration} prop is unset. */
    public static final String DEFAULT_REGISTRATION = "default";

    /** The Spring property naming a context's registration. */
    public static final String REGISTRATION_PROPERTY = "idgen.shardingsphere.registration";

    /** Read without a lock on every key generation; changed under the lock. */
    private static final Map<String, Entry> ENTRIES = new ConcurrentHashMap<>();

    private IdgenRegistry() {}

    /**
     * @param name the registration's name, non-blank
     * @param ids the service
     * @throws IllegalStateException when the name holds a different service
     */
    public static void register(String name, IdService ids) {
        checkName(name);
        Objects.requireNonNull(ids, "ids");
        synchronized (ENTRIES) {
            Entry entry = ENTRIES.get(name);
            if (entry == null) {
                ENTRIES.put(name, new Entry(ids, 1));
            } else if (entry.ids == ids) {
                ENTRIES.put(name, new Entry(ids, entry.count + 1));
            } else {
                throw new IllegalStateException("The idgen registration '" + name + "' for ShardingSphere already holds"
                        + " another IdService (" + entry.ids + "): give each application context a name of its own"
                        + " with " + REGISTRATION_PROPERTY + "=<name>, and the IDGEN key generators that should use it"
                        + " props.registration=<name>");
            }
        }
    }

    /**
     * Undoes one {@link #register} of this service under this name; the name is free once every registration of it
     * is undone. A name that holds another service (or none) is left alone.
     */
    public static void unregister(String name, IdService ids) {
        synchronized (ENTRIES) {
            Entry entry = ENTRIES.get(name);
            if (entry == null || entry.ids != ids) {
                return;
            }
            if (entry.count == 1) {
                ENTRIES.remove(name);
            } else {
                ENTRIES.put(name, new Entry(ids, entry.count - 1));
            }
        }
    }

    /** @return the service registered under the name, or null */
    public static IdService find(String name) {
        Entry entry = name == null ? null : ENTRIES.get(name);
        return entry == null ? null : entry.ids;
    }

    static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "An idgen registration needs a non-blank name (" + REGISTRATION_PROPERTY + ")");
        }
    }

    private record Entry(IdService ids, int count) {}
}
