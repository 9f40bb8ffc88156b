package dev.idgen.core.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

// The cursor is the one word every caller of a name writes; padding keeps it off the cache lines of other objects
// (the JCTools idiom: superclass fields are laid out first). The two bounds every caller compares its ID with sit
// next to it: the caller's atomic add has just brought that line into its core, so reading them costs no further
// miss, which matters when many names take turns in the cache.
abstract class SegmentRangePadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

abstract class SegmentRangeCursor extends SegmentRangePadBefore {
    /** The next ID to hand out; past {@code last} once the range is used up. */
    volatile long cursor;
    /** The last ID of the range. */
    final long last;
    /** The ID whose taker starts loading the next segment. */
    final long preloadAt;

    SegmentRangeCursor(long last, long preloadAt) {
        this.last = last;
        this.preloadAt = preloadAt;
    }
}

abstract class SegmentRangePadAfter extends SegmentRangeCursor {
    long p10, p11, p12, p13, p14, p15, p16, p17;

    SegmentRangePadAfter(long last, long preloadAt) {
        super(last, preloadAt);
    }
}

/**
 * One loaded segment being served: a cursor from {@code first} to {@code last}.
 */
final class SegmentRange extends SegmentRangePadAfter {

    private static final VarHandle CURSOR;

    static {
        try {
            CURSOR = MethodHandles.lookup().findVarHandle(SegmentRangeCursor.class, "cursor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long first;

    /**
     * IDs the name handed out before this range became current. Written once, under the buffer's lock, before the
     * range is published through the volatile {@code current}; so a reader of {@code current} sees it.
     */
    long servedBefore;

    SegmentRange(Segment segment, double preloadThreshold) {
        super(segment.last(), Math.min(segment.last(), segment.first() + (long) (segment.size() * preloadThreshold)));
        this.first = segment.first();
        CURSOR.setRelease(this, first);
    }

    /**
     * Claims {@code n} consecutive IDs. Only those up to {@link #last} are the caller's; the rest are beyond the range.
     *
     * @return the first claimed ID
     */
    long take(long n) {
        // getAndAdd is the linearization point: each value is claimed once, in increasing order.
        return (long) CURSOR.getAndAdd(this, n);
    }

    /**
     * @return how many IDs this range has handed out, from 0 to its size
     */
    long used() {
        long cursor = (long) CURSOR.getVolatile(this);
        return Math.min(cursor, last + 1) - first;
    }

    long size() {
        return last - first + 1;
    }

    long remaining() {
        return size() - used();
    }
}
