package dev.idgen.shardingsphere;

import dev.idgen.core.IdService;
import java.util.IdentityHashMap;
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
 * <p>A name normally holds one service; the same service registered again (a child context) counts once more and stays
 * until each registration is undone. A different service under a name already held does not fail that context's
 * start (Spring's test context cache keeps several contexts alive, each with its own idgen): the name becomes
 * ambiguous, and {@link #find} refuses it, naming {@value #REGISTRATION_PROPERTY}, until the contexts close and one
 * service remains. Two contexts never silently share one's IDs.
 */
public final class IdgenRegistry {

    /** The registration the algorithm uses when its {@code registration} prop is unset. */
    public static final String DEFAULT_REGISTRATION = "default";

    /** The Spring property naming a context's registration. */
    public static final String REGISTRATION_PROPERTY = "idgen.shardingsphere.registration";

    /** Read without a lock on every key generation; changed under the lock, each entry replaced, never changed. */
    private static final Map<String, Entry> ENTRIES = new ConcurrentHashMap<>();

    private IdgenRegistry() {}

    /**
     * Registers the service under the name; a name that already holds a different one becomes ambiguous (see
     * {@link #find}) until all but one service are unregistered.
     *
     * @param name the registration's name, non-blank
     * @param ids the service
     */
    public static void register(String name, IdService ids) {
        checkName(name);
        Objects.requireNonNull(ids, "ids");
        synchronized (ENTRIES) {
            Entry entry = ENTRIES.getOrDefault(name, Entry.EMPTY);
            ENTRIES.put(name, entry.plus(ids));
        }
    }

    /**
     * Undoes one {@link #register} of this service under this name; the service leaves the name once every
     * registration of it is undone. A service not registered under the name is ignored.
     */
    public static void unregister(String name, IdService ids) {
        if (name == null) {
            return;
        }
        synchronized (ENTRIES) {
            Entry entry = ENTRIES.get(name);
            if (entry == null) {
                return;
            }
            Entry rest = entry.minus(ids);
            if (rest.counts.isEmpty()) {
                ENTRIES.remove(name);
            } else {
                ENTRIES.put(name, rest);
            }
        }
    }

    /**
     * @return the service registered under the name, or null when none is
     * @throws IllegalStateException when several different services hold the name (several live contexts)
     */
    public static IdService find(String name) {
        Entry entry = name == null ? null : ENTRIES.get(name);
        if (entry == null) {
            return null;
        }
        if (entry.counts.size() > 1) {
            throw new IllegalStateException("The idgen registration '" + name + "' for ShardingSphere is ambiguous: "
                    + entry.counts.size() + " live application contexts registered their own IdService under it, and"
                    + " an IDGEN key generator cannot tell whose IDs to take. Give each context that inserts through"
                    + " ShardingSphere a name of its own with " + REGISTRATION_PROPERTY + "=<name> and its IDGEN key"
                    + " generators props.registration=<name>, switch the others' registration off with"
                    + " idgen.shardingsphere.enabled=false, or close the other contexts");
        }
        return entry.counts.keySet().iterator().next();
    }

    static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    "An idgen registration needs a non-blank name (" + REGISTRATION_PROPERTY + ")");
        }
    }

    /** The services under one name, each with how many registrations hold it; by identity, as a bean is. */
    private record Entry(Map<IdService, Integer> counts) {

        static final Entry EMPTY = new Entry(new IdentityHashMap<>());

        Entry plus(IdService ids) {
            Map<IdService, Integer> copy = new IdentityHashMap<>(counts);
            copy.merge(ids, 1, Integer::sum);
            return new Entry(copy);
        }

        Entry minus(IdService ids) {
            Integer count = counts.get(ids);
            if (count == null) {
                return this;
            }
            Map<IdService, Integer> copy = new IdentityHashMap<>(counts);
            if (count == 1) {
                copy.remove(ids);
            } else {
                copy.put(ids, count - 1);
            }
            return new Entry(copy);
        }
    }
}
