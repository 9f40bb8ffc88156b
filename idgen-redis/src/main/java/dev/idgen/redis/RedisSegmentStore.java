package dev.idgen.redis;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;

/**
 * {@code idgen.segment.store=redis}: segments from one {@code INCRBY step} on the name's Redis counter, with the same
 * protection against Redis losing its data as the {@code redis} strategy ({@link RedisWindowedCounter}): the
 * database is written once per window of many segments.
 *
 * <p>Replays (Lettuce resending an unanswered command after a reconnect) are covered by the counter's scripts: a
 * second increment takes the next block (the lost one is a gap), and a second window install runs only on the
 * dataset the caller read, see {@link RedisWindowedCounter#INSTALL}.
 */
public final class RedisSegmentStore implements SegmentStore {

    private final RedisWindowedCounter counter;

    public RedisSegmentStore(RedisWindowedCounter counter) {
        this.counter = counter;
    }

    @Override
    public Segment allocate(String name, long step) {
        long last = counter.increment(name, step);
        return new Segment(last - step + 1, last);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A Redis node behind {@code floor} whose window still passes the replication-id check (an old master that
     * answers again after a pause or partition, before the sentinels make it a replica) moves to a fresh window above
     * {@code floor}, see {@link RedisWindowedCounter#incrementAbove}: the segment engine gets a block above what it
     * served instead of one it would have to refuse for good.
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        long last = counter.incrementAbove(name, step, floor);
        return new Segment(last - step + 1, last);
    }

    /**
     * A segment from a fresh window above everything the database handed out, see
     * {@link RedisWindowedCounter#incrementInFreshWindow}.
     *
     * @param name the name
     * @param step the segment's size
     * @return the segment
     */
    public Segment allocateInFreshWindow(String name, long step) {
        return allocateInFreshWindow(name, step, 0);
    }

    /**
     * {@link #allocateInFreshWindow(String, long)} with the window reserved above {@code floor} too.
     *
     * @throws StoreUnavailableException when the block still does not lie above {@code floor} (the
     *         node changed meanwhile): a later call tries again
     */
    Segment allocateInFreshWindow(String name, long step, long floor) {
        long last = counter.incrementInFreshWindow(name, step, floor);
        if (last - step < floor) {
            throw new StoreUnavailableException("The Redis counter of '" + name + "' on "
                    + counter.redis().describe() + " stayed behind " + floor + " even in a fresh window (the node"
                    + " changed meanwhile); try again");
        }
        return new Segment(last - step + 1, last);
    }

    @Override
    public void checkAvailable() {
        counter.redis().ping();
    }

    public RedisWindowedCounter counter() {
        return counter;
    }

    @Override
    public String toString() {
        return counter.redis().describe();
    }
}
