package dev.idgen.redis;

import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code idgen.segment.store=dual}: segments from Redis, and straight from the database while Redis fails.
 *
 * <p>Neither side can hand out what the other gave, because both draw from the database: Redis only counts inside
 * windows the database reserved for it ({@link RedisWindowedCounter}), and a fallback allocation takes the next
 * block after everything the database reserved, windows included. When Redis comes back it carries on in its window
 * if it kept it, and if it came back empty its next window is reserved above the fallback blocks: the resync is the
 * database's row, the maximum of both sides, and the window limit is its version (a window is never replaced by an
 * older one).
 *
 * <p>A Redis that merely timed out (stopped, overloaded, partitioned) comes back with its window, which lies below the
 * blocks the database handed out meanwhile; serving it would go backwards, and the segment engine would refuse those
 * blocks. So a name that fell back takes its next Redis block from a fresh window, reserved above the database's
 * maximum (the rest of the old window is skipped).
 *
 * <p>A command that timed out may still run later: Lettuce resends it after a reconnect. The increment then takes a
 * block nobody uses (a gap), and the install of a fresh window refuses to run on any other dataset than the one it was
 * meant for ({@link RedisWindowedCounter#INSTALL}); on its own dataset it never moves the counter back. So a Redis
 * block that comes after database blocks still lies above them.
 */
public final class DualSegmentStore implements SegmentStore {

    private static final System.Logger LOG = System.getLogger(DualSegmentStore.class.getName());

    private final RedisSegmentStore redis;
    private final SegmentStore database;
    private final LongAdder fallbacks = new LongAdder();
    /** Names whose last block came from the database: their next Redis block needs a fresh window. */
    private final Set<String> fellBack = ConcurrentHashMap.newKeySet();
    /** Whether the last allocation fell back, so that only the switches between the sides are logged. */
    private volatile boolean onDatabase;

    /**
     * @param redis the Redis store, whose windows come from {@code database}
     * @param database the durable store
     */
    public DualSegmentStore(RedisSegmentStore redis, SegmentStore database) {
        this.redis = redis;
        this.database = database;
    }

    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Both sides keep the floor: Redis through {@link RedisSegmentStore#allocateAbove}, the database through its
     * own.
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        try {
            Segment segment = fellBack.contains(name)
                    ? redis.allocateInFreshWindow(name, step, floor)
                    : redis.allocateAbove(name, step, floor);
            fellBack.remove(name);
            if (onDatabase) {
                onDatabase = false;
                LOG.log(System.Logger.Level.INFO, "Redis answers again: segments come from Redis");
            }
            return segment;
        } catch (RedisUnavailableException e) {
            if (!onDatabase) {
                onDatabase = true;
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Redis failed (" + e.getMessage() + "): segments come from the"
                                + " database until it answers again");
            }
            fallbacks.increment();
            fellBack.add(name);
            return database.allocateAbove(name, step, floor);
        }
    }

    /**
     * Available while either side is.
     */
    @Override
    public void checkAvailable() {
        try {
            redis.checkAvailable();
        } catch (RuntimeException e) {
            database.checkAvailable();
        }
    }

    /**
     * @return how many segments came from the database because Redis failed
     */
    public long fallbacks() {
        return fallbacks.sum();
    }

    public RedisSegmentStore redis() {
        return redis;
    }

    @Override
    public String toString() {
        return redis + ", falling back to " + database;
    }
}
