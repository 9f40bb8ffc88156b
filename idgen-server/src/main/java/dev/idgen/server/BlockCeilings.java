package dev.idgen.server;

import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ObjLongConsumer;

/**
 * How high a block request's {@code above} may reach: no higher than a legitimate client can hold. A client's floor is
 * the highest ID it served, so it lies at or below the highest ID the store ever issued for the name; after a failover
 * to a replica that lagged, the store's counter may have fallen behind it, but by less than the failover jump (the
 * store moves past what it may have lost by that much). So {@code above} may be at most the highest ID seen issued
 * plus the jump plus one maximum block. Without this bound one request with {@code above} near 2^63 moves the shared
 * counter where no block of anyone fits any more, and ends the name for every client.
 *
 * <p>The highest ID issued is known from the blocks this server took; a request above what that allows first asks the
 * store for one ID (wasted, never handed out) to learn its counter, as another server may have moved it since. Only a
 * request that is still too high after that is refused. The names kept are bounded: past {@link #MAX_NAMES}, one is
 * forgotten, which costs it one such probe later and never lets a request through that the store would refuse.
 */
final class BlockCeilings {

    /** The most names whose highest ID is kept. */
    static final int MAX_NAMES = 10_000;

    private final ConcurrentHashMap<String, AtomicLong> highest = new ConcurrentHashMap<>();

    private final long lead;

    private final ObjLongConsumer<String> seen;

    /**
     * @param failoverJump how far the store jumps past what a failover may have lost ({@code idgen.jdbc.failover-jump})
     * @param maxBlockSize the largest block one request may take
     * @param seen told of each name's highest ID issued, as it rises (the name's remaining room in the meters)
     */
    BlockCeilings(long failoverJump, long maxBlockSize, ObjLongConsumer<String> seen) {
        this.lead = saturatedAdd(failoverJump, maxBlockSize);
        this.seen = seen;
    }

    /**
     * @return the highest {@code above} a request for {@code name} may carry, after asking {@code store} for one ID
     *     when the IDs seen so far do not allow {@code above}
     */
    long ceiling(String name, long above, SegmentStore store) {
        long ceiling = saturatedAdd(highest(name).get(), lead);
        if (above <= ceiling) {
            return ceiling;
        }
        Segment probe = store.allocate(name, 1);
        return saturatedAdd(issued(name, probe.last()), lead);
    }

    /** @return the highest ID known issued for {@code name}, raised to {@code last} */
    long issued(String name, long last) {
        AtomicLong high = highest(name);
        long known = high.get();
        // A CAS loop rather than accumulateAndGet: the meters hear of a rise only, once per rise.
        while (last > known) {
            if (high.compareAndSet(known, last)) {
                seen.accept(name, last);
                return last;
            }
            known = high.get();
        }
        return known;
    }

    private AtomicLong highest(String name) {
        AtomicLong high = highest.get(name);
        if (high != null) {
            return high;
        }
        if (highest.size() >= MAX_NAMES) {
            Iterator<String> any = highest.keySet().iterator();
            if (any.hasNext()) {
                highest.remove(any.next());
            }
        }
        return highest.computeIfAbsent(name, key -> new AtomicLong());
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
