package dev.idgen.core.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The names a service serves, for the lookup on every call: an open-addressing table whose keys and values sit side by
 * side in one array, so a hit reads one slot pair (usually one cache line) and compares the name by identity first.
 * A {@code ConcurrentHashMap} reads the table slot, then its node, then the value: with many names taking turns, each
 * is a cache miss.
 *
 * <p>Readers never lock and allocate nothing. Writers (a new name, a name forgotten) take this object's monitor. A new
 * name goes into a free slot of the published array: its value is written first and its key last, with release
 * semantics, and readers read keys with acquire semantics, so a reader that sees the key sees the value. A slot once
 * used is never reused within one array: a forgotten name's key becomes a tombstone (readers probe past it) and its
 * value null, so a reader that found a key never reads another name's value. When used slots (live and tombstones)
 * would pass half the pairs, the live names are copied into a new array with room for at least four times as many,
 * published through the volatile field. So each insert costs amortised O(1): a copy of {@code n} live names happens
 * only after at least {@code n} inserts since the previous copy ({@link #copied()} counts the names copied).
 *
 * @param <V> the value type
 */
final class NameTable<V> {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);

    /** A forgotten name's key: equal to no name, so lookups probe past it. */
    private static final Object TOMBSTONE = new Object();

    private static final int MIN_PAIRS = 16;

    /** Keys at even indexes, each value right after its key; at most half the pairs used (live or tombstones). */
    private volatile Object[] slots = new Object[2 * MIN_PAIRS];

    /** Live names. Guarded by this. */
    private int size;
    /** Live names and tombstones in {@link #slots}. Guarded by this. */
    private int used;
    /** Names copied into new arrays so far, for tests. Guarded by this. */
    private long copied;

    /**
     * @param name a name, not null
     * @return its value, or null when the name was never put or was removed
     */
    @SuppressWarnings("unchecked")
    V get(String name) {
        Object[] table = slots;
        int mask = (table.length >>> 1) - 1;
        for (int i = slot(name, mask); ; i = (i + 1) & mask) {
            Object key = SLOTS.getAcquire(table, i << 1);
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
        if ((used + 1) * 2 > (table.length >>> 1)) {
            table = rebuild(table, size + 1);
        }
        int mask = (table.length >>> 1) - 1;
        int i = slot(name, mask);
        while (table[i << 1] != null) {
            i = (i + 1) & mask;
        }
        table[(i << 1) + 1] = value;
        SLOTS.setRelease(table, i << 1, name);
        size++;
        used++;
        if (table != slots) {
            slots = table;
        }
    }

    /**
     * Removes {@code name}, if it is there. A reader racing with the removal may still get the old value.
     *
     * @return whether it was there
     */
    synchronized boolean remove(String name) {
        Object[] table = slots;
        int mask = (table.length >>> 1) - 1;
        for (int i = slot(name, mask); ; i = (i + 1) & mask) {
            Object key = table[i << 1];
            if (key == null) {
                return false;
            }
            if (key.equals(name) && table[(i << 1) + 1] != null) {
                SLOTS.setRelease(table, i << 1, TOMBSTONE);
                table[(i << 1) + 1] = null;
                size--;
                return true;
            }
        }
    }

    /**
     * @return how many names the table holds
     */
    synchronized int size() {
        return size;
    }

    /**
     * @return how many names were copied into new arrays so far (for tests: O(inserts), never O(inserts^2))
     */
    synchronized long copied() {
        return copied;
    }

    /**
     * @return how many slot pairs the current array has (for tests)
     */
    int capacity() {
        return slots.length >>> 1;
    }

    /**
     * @return a new, unpublished array with the live names of {@code table}, room for {@code live} names at a quarter
     *         of its pairs at most
     */
    private Object[] rebuild(Object[] table, int live) {
        int pairs = MIN_PAIRS;
        while (pairs < live * 4) {
            pairs <<= 1;
        }
        Object[] copy = new Object[pairs << 1];
        int mask = pairs - 1;
        for (int j = 0; j < table.length; j += 2) {
            Object key = table[j];
            if (key != null && key != TOMBSTONE) {
                int i = slot((String) key, mask);
                while (copy[i << 1] != null) {
                    i = (i + 1) & mask;
                }
                copy[i << 1] = key;
                copy[(i << 1) + 1] = table[j + 1];
                copied++;
            }
        }
        used = size;
        return copy;
    }

    /**
     * Fibonacci hashing: names that differ in their last characters (orders-1, orders-2) have nearby
     * {@code hashCode}s, which in the low bits would fill neighbouring slots and make long probe runs; the
     * multiplication spreads them over the high bits, which the shift keeps.
     */
    private static int slot(String name, int mask) {
        return (name.hashCode() * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
    }
}
