package dev.idgen.core.segment;

/**
 * The names a service serves, for the lookup on every call: an open-addressing table whose keys and values sit side by
 * side in one array, so a hit reads one slot pair (usually one cache line) and compares the name by identity first.
 * A {@code ConcurrentHashMap} reads the table slot, then its node, then the value: with many names taking turns, each
 * is a cache miss.
 *
 * <p>Readers never lock: the array is never changed once published, and an insert (rare: once per name, a few hundred
 * times in an instance's life at most) copies it under this object's monitor and publishes the copy through the
 * volatile field, whose write orders the copy's contents before it.
 *
 * @param <V> the value type
 */
final class NameTable<V> {

    /** Keys at even indexes, each value right after its key; at most half the pairs used. */
    private volatile Object[] slots = new Object[2 * 16];

    private int size;

    /**
     * @param name a name, not null
     * @return its value, or null when the name was never put
     */
    @SuppressWarnings("unchecked")
    V get(String name) {
        Object[] table = slots;
        int mask = (table.length >>> 1) - 1;
        for (int i = slot(name, mask);; i = (i + 1) & mask) {
            Object key = table[i << 1];
            if (key == name) {
                return (V) table[(i << 1) + 1];
            }
            if (key == null) {
                return null;
            }
            if (key.equals(name)) {
                return (V) table[(i << 1) + 1];
            }
        }
    }

    /**
     * Adds {@code name} unless it is there already.
     */
    synchronized void putIfAbsent(String name, V value) {
        if (get(name) != null) {
            return;
        }
        Object[] table = slots;
        int pairs = table.length >>> 1;
        if ((size + 1) * 2 > pairs) {
            pairs *= 2;
        }
        Object[] copy = new Object[pairs << 1];
        for (int i = 0; i < table.length; i += 2) {
            if (table[i] != null) {
                insert(copy, (String) table[i], table[i + 1]);
            }
        }
        insert(copy, name, value);
        size++;
        slots = copy;
    }

    /**
     * Fibonacci hashing: names that differ in their last characters (orders-1, orders-2) have nearby
     * {@code hashCode}s, which in the low bits would fill neighbouring slots and make long probe runs; the
     * multiplication spreads them over the high bits, which the shift keeps.
     */
    private static int slot(String name, int mask) {
        return (name.hashCode() * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
    }

    private static void insert(Object[] table, String name, Object value) {
        int mask = (table.length >>> 1) - 1;
        int i = slot(name, mask);
        while (table[i << 1] != null) {
            i = (i + 1) & mask;
        }
        table[i << 1] = name;
        table[(i << 1) + 1] = value;
    }
}
