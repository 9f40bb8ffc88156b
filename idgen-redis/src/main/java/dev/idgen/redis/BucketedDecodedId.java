package dev.idgen.redis;

import dev.idgen.core.DecodedId;
import dev.idgen.core.readable.ReadableIdFormat;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parts of a readable ID from {@link BucketedRedisSequence}, as its {@link ReadableIdFormat} reads them.
 *
 * @param readableId the ID itself
 * @param timestamp the Redis server time it was issued at, to the millisecond
 * @param bizCode its business code, possibly empty
 * @param bucket the bucket that issued it
 * @param sequence its sequence within the bucket and millisecond
 */
public record BucketedDecodedId(String readableId, Instant timestamp, String bizCode, int bucket, long sequence)
        implements DecodedId {

    /** The strategy name. */
    public static final String STRATEGY = "redis-buckets";

    static BucketedDecodedId of(ReadableIdFormat.Parts parts) {
        return new BucketedDecodedId(parts.id(), parts.timestamp(), parts.bizCode(), parts.bucket(), parts.sequence());
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    /**
     * A readable ID is a string and has no 64-bit form: see {@link #readableId()}.
     *
     * @return always 0, which no numeric idgen ID is (they are all positive)
     */
    @Override
    public long id() {
        return 0;
    }

    /**
     * @return {@code strategy}, then {@code id} as the readable string, {@code timestamp}, {@code bizCode},
     *         {@code bucket} and {@code sequence}
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("strategy", STRATEGY);
        map.put("id", readableId);
        map.put("timestamp", timestamp);
        map.put("bizCode", bizCode);
        map.put("bucket", bucket);
        map.put("sequence", sequence);
        return Collections.unmodifiableMap(map);
    }
}
