package dev.idgen.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many names a service that keeps state per name (buffers, counters, meters) admits, and how many it has.
 *
 * <p>Call {@link #admit} from inside the mapping function of the map that holds the per-name state
 * ({@code computeIfAbsent}): it runs once per new name, so the count is exact under contention, and a name it refuses
 * leaves no entry behind.
 */
public final class NameLimit {

    private final int max;
    private final AtomicInteger admitted = new AtomicInteger();

    /**
     * @param max how many names may be admitted, from 1 to 1,000,000
     * @throws InvalidArgumentException naming {@code maxNames} when out of range
     */
    public NameLimit(int max) {
        this.max = check(max);
    }

    /**
     * Checks a limit given to a builder.
     *
     * @param maxNames the limit
     * @return the limit
     * @throws InvalidArgumentException naming {@code maxNames} unless it is between 1 and 1,000,000
     */
    public static int check(int maxNames) {
        if (maxNames < 1 || maxNames > 1_000_000) {
            throw new InvalidArgumentException(
                    "maxNames", maxNames, "maxNames must be between 1 and 1000000, but was " + maxNames);
        }
        return maxNames;
    }

    /**
     * Counts {@code name} in, once per new name.
     *
     * @param name the new name
     * @throws NameLimitExceededException when {@link #max()} names are admitted already
     */
    public void admit(String name) {
        if (admitted.incrementAndGet() > max) {
            admitted.decrementAndGet();
            throw new NameLimitExceededException(name, max);
        }
    }

    /**
     * Counts a name out again, once per name admitted and then forgotten: it no longer counts towards the limit.
     */
    public void release() {
        admitted.decrementAndGet();
    }

    /**
     * @return how many names are admitted (and not released)
     */
    public int count() {
        return admitted.get();
    }

    /**
     * @return how many names may be admitted
     */
    public int max() {
        return max;
    }
}
