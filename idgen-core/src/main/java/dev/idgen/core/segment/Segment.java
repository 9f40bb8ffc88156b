package dev.idgen.core.segment;

/**
 * A block of IDs leased from a {@link SegmentStore}: every ID from {@code first} to {@code last}, both inclusive.
 *
 * @param first the first ID of the block, at least 1
 * @param last the last ID of the block, at least {@code first}
 */
public record Segment(long first, long last) {

    public Segment {
        if (first < 1 || last < first) {
            throw new IllegalArgumentException(
                    "A segment needs 1 <= first <= last, but was [" + first + ", " + last + "]");
        }
    }

    /**
     * @return how many IDs the block holds
     */
    public long size() {
        return last - first + 1;
    }
}
