package dev.idgen.redis;

import java.util.Arrays;

/**
 * What one round trip of a {@link BucketedRedisSequence} took for {@code n} callers: pieces of consecutive sequences,
 * each of one bucket and one millisecond (usually one piece; more when a bucket ran out of sequences in the middle).
 * Index {@code i} is the {@code i}-th sequence over the pieces in order. A class of its own because it is plain
 * bookkeeping, apart from the buckets' rules, and which caller gets which sequence can be tested without Redis.
 * Filled by the one thread of the round trip, then read by its callers after the coalescer hands it over.
 */
final class SequenceBatch {

    /** Writes the ID of one sequence. */
    interface IdWriter {
        String id(long ms, String bizCode, int bucket, long sequence);
    }

    private int pieces;
    private int[] bucket = new int[1];
    private long[] ms = new long[1];
    private long[] firstSequence = new long[1];
    private int[] count = new int[1];
    private int size;

    void add(int pieceBucket, long pieceMs, long lastSequence, int pieceCount) {
        if (pieces == bucket.length) {
            int length = pieces * 2;
            bucket = Arrays.copyOf(bucket, length);
            ms = Arrays.copyOf(ms, length);
            firstSequence = Arrays.copyOf(firstSequence, length);
            count = Arrays.copyOf(count, length);
        }
        bucket[pieces] = pieceBucket;
        ms[pieces] = pieceMs;
        firstSequence[pieces] = lastSequence - pieceCount + 1;
        count[pieces] = pieceCount;
        pieces++;
        size += pieceCount;
    }

    /**
     * @return how many sequences the pieces hold
     */
    int size() {
        return size;
    }

    String id(int index, String bizCode, IdWriter writer) {
        int piece = 0;
        int offset = index;
        while (offset >= count[piece]) {
            offset -= count[piece];
            piece++;
        }
        return writer.id(ms[piece], bizCode, bucket[piece], firstSequence[piece] + offset);
    }
}
