package dev.idgen.forms.shard;

import dev.idgen.core.InvalidArgumentException;
import java.nio.ByteOrder;
import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

/**
 * The hash of a shard key, and the logical shard it maps to. Written down exactly, because other services (in other
 * languages) must compute the same shard for the same key.
 */
final class ShardKeyHash {

    private static final LongHashFunction XX = LongHashFunction.xx();

    /**
     * Little-endian UTF-16 whatever the platform. zero-allocation-hashing's {@code hashChars(String)} hashes a
     * string's chars "as they lay in memory", that is in the platform's native byte order: xxHash64 itself gives the
     * same result for the same bytes on any platform, but the bytes of a char differ between little- and big-endian
     * machines. Naming the byte order makes the hash the same everywhere, and works for any {@link CharSequence}.
     */
    private static final Access<CharSequence> UTF_16LE = Access.toCharSequence(ByteOrder.LITTLE_ENDIAN);

    private ShardKeyHash() {}

    /**
     * @param key a non-empty key
     * @return xxHash64, seed 0, of the key's chars as UTF-16LE bytes
     * @throws InvalidArgumentException (argument {@code shardKey}) when the key is null or empty
     */
    static long hash(CharSequence key) {
        if (key == null || key.length() == 0) {
            throw new InvalidArgumentException(
                    "shardKey",
                    key,
                    "shardKey must be a non-empty string, but was " + (key == null ? "null" : "empty"));
        }
        return XX.hash(key, UTF_16LE, 0, 2L * key.length());
    }

    /**
     * The logical shard of a hash: its top {@code shardBits} bits. For a power-of-two count this is exactly the
     * multiply-shift {@code (hash as an unsigned fraction) * logicalShards}, so logical shards are contiguous ranges
     * of the hash space in hash order, and a range of logical shards (what a physical shard owns) is itself one
     * contiguous range of hashes. The top bits are also the best mixed bits of multiplicative hashes; xxHash64's
     * final avalanche makes its low bits good too, but the rule should not depend on that.
     */
    static int logicalShard(long hash, int shardBits) {
        return (int) (hash >>> (Long.SIZE - shardBits));
    }
}
