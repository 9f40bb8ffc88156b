package dev.idgen.server;

import dev.idgen.core.segment.SegmentStore;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.ObjLongConsumer;

/**
 * How high a block request's {@code above} may reach: no higher than a legitimate client can hold. A client's floor is
 * the highest ID it served, so it lies at or below the highest ID the store issued for the name, plus at most one
 * block it took. After a failover to a replica that lagged, the store's counter may have fallen behind it, by less
 * than the failover jump. Without a bound, one request with {@code above} near 2^63 moves the shared counter where no
 * block of anyone fits any more, and ends the name for every client.
 *
 * <p>Three answers, by how far {@code above} lies past the highest ID seen issued:
 * <ul>
 * <li>at most one largest block: {@link Verdict#ALLOWED};</li>
 * <li>further, but within the failover jump: a floor left by a lagging replica. Allowed once per name per
 *     {@link #JUMP_INTERVAL_NANOS} ({@link Verdict#ALLOWED}), else {@link Verdict#LATER}: the first such request moves
 *     the counter up to its floor, so the other clients of that failover fall within one block of it, while a client
 *     repeating such requests moves a name by at most one jump a minute (centuries to 2^63 at the default jump);</li>
 * <li>further still: {@link Verdict#REFUSED}.</li>
 * </ul>
 *
 * <p>The highest ID issued is known from the blocks this server took; a request above what that allows first asks the
 * store for one ID (wasted, never handed out) to learn its counter, as other servers move it too. The names kept are
 * bounded: past {@link #MAX_NAMES}, one is forgotten, which costs it a probe later.
 */
final class BlockCeilings {

    /** The most names whose highest ID is kept. */
    static final int MAX_NAMES = 10_000;

    /** How often per name a floor within the failover jump (past one block) is let through. */
    static final long JUMP_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    /** What to answer a request's {@code above}. */
    enum Verdict {
        ALLOWED,
        /** Within the failover jump, whose allowance for the name is used: 503 with a Retry-After. */
        LATER,
        /** Past what any client can hold: 400. */
        REFUSED
    }

    private static final class Name {
        final AtomicLong highest = new AtomicLong();
        /** When the name's next floor within the failover jump may pass, by {@link #clock}. */
        final AtomicLong nextJump = new AtomicLong(Long.MIN_VALUE);
    }

    private final ConcurrentHashMap<String, Name> names = new ConcurrentHashMap<>();

    private final long failoverJump;

    private final long maxBlockSize;

    private final ObjLongConsumer<String> seen;

    private final LongSupplier clock;

    /**
     * @param failoverJump how far the store jumps past what a failover may have lost ({@code idgen.jdbc.failover-jump})
     * @param maxBlockSize the largest block one request may take
     * @param seen told of each name's highest ID issued, as it rises (the name's remaining room in the meters)
     * @param clock monotonic nanoseconds, for the failover jump's allowance
     */
    BlockCeilings(long failoverJump, long maxBlockSize, ObjLongConsumer<String> seen, LongSupplier clock) {
        this.failoverJump = failoverJump;
        this.maxBlockSize = maxBlockSize;
        this.seen = seen;
        this.clock = clock;
    }

    /**
     * @return whether {@code above} may go to the store, after asking {@code store} for one ID when the IDs seen so
     *     far do not allow it
     */
    Verdict judge(String name, long above, SegmentStore store) {
        Name known = name(name);
        long highest = known.highest.get();
        if (above <= saturatedAdd(highest, maxBlockSize)) {
            return Verdict.ALLOWED;
        }
        highest = issued(name, store.allocate(name, 1).last());
        if (above <= saturatedAdd(highest, maxBlockSize)) {
            return Verdict.ALLOWED;
        }
        if (above > saturatedAdd(saturatedAdd(highest, maxBlockSize), failoverJump)) {
            return Verdict.REFUSED;
        }
        long now = clock.getAsLong();
        long next = known.nextJump.get();
        // One CAS winner per interval: concurrent floors of one failover race, one passes, the others come back later.
        if (now - next >= 0 || next == Long.MIN_VALUE) {
            if (known.nextJump.compareAndSet(next, now + JUMP_INTERVAL_NANOS)) {
                return Verdict.ALLOWED;
            }
        }
        return Verdict.LATER;
    }

    /** @return the highest {@code above} allowed now without the failover jump's allowance */
    long plainCeiling(String name) {
        return saturatedAdd(name(name).highest.get(), maxBlockSize);
    }

    /** @return the highest {@code above} a request may carry with the failover jump's allowance */
    long jumpCeiling(String name) {
        return saturatedAdd(plainCeiling(name), failoverJump);
    }

    /** @return the highest ID known issued for {@code name}, raised to {@code last} */
    long issued(String name, long last) {
        AtomicLong high = name(name).highest;
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

    private Name name(String name) {
        Name known = names.get(name);
        if (known != null) {
            return known;
        }
        if (names.size() >= MAX_NAMES) {
            Iterator<String> any = names.keySet().iterator();
            if (any.hasNext()) {
                names.remove(any.next());
            }
        }
        return names.computeIfAbsent(name, key -> new Name());
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
