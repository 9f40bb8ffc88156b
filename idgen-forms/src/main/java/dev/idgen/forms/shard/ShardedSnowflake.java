package dev.idgen.forms.shard;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.TickUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Snowflake IDs that carry a logical shard: the shard of a business key (say the buyer's user id), so that every row
 * keyed by that ID can be routed to its database from the ID alone, and all rows of one key land together.
 *
 * <p><b>Uniqueness.</b> It comes from the base {@link SnowflakeGenerator} alone: each call takes the base generator's
 * next (tick, worker, sequence) and inserts the shard's {@code g} bits ({@code logicalShards = 2^g}) into it, at the
 * {@link ShardPosition position} chosen. Inserting bits is one-to-one, so IDs stay unique whichever shard each call
 * asks for, across keys, threads and (through the worker id) processes. There is no sequence per shard.
 *
 * <p><b>Bits.</b> The base layout and the shard bits share the 63 usable bits: {@code timestampBits + workerBits +
 * sequenceBits + g <= 63}, checked when built. {@link #defaultLayout(int)} gives a base layout that fits any shard
 * count; {@link #instagram(SnowflakeGenerator)} is the layout Instagram published.
 *
 * <p><b>The key's shard</b> is a stable, documented function, so that other services, in any language, compute the
 * same shard for the same key: xxHash64 (XXH64) with seed 0 of the key's UTF-16 code units as little-endian bytes
 * (Java's {@code key.getBytes(UTF_16LE)}, Python's {@code xxhash.xxh64(key.encode("utf-16-le")).intdigest()}), then
 * the top {@code g} bits of that unsigned 64-bit hash. zero-allocation-hashing's xxHash64 gives the same hash for
 * the same bytes on every platform, but its {@code hashChars(String)} reads chars in the platform's native byte
 * order, so this class names little-endian explicitly and is the same on big-endian machines. The key is hashed as
 * given: no trimming, case folding or Unicode normalisation.
 *
 * <p><b>Logical and physical shards.</b> The logical shard count is fixed when the IDs are designed; physical shards
 * (databases) each own a contiguous range of logical shards: {@link #shardOf(long, int) physical = logical *
 * physicalShards / logicalShards}. Ranges follow hash order, because the logical shard is the top of the hash.
 * <ul>
 * <li><b>Growing</b> from N to 2N physical shards splits each range in two: every logical shard of physical shard
 * {@code p} moves to {@code 2p} or {@code 2p + 1}, so half of each range's rows move (copy the upper half of each
 * range, switch routing, delete the copies' originals), and no ID changes its logical shard.</li>
 * <li><b>Shrinking</b> from 2N to N merges adjacent ranges {@code 2p} and {@code 2p + 1} into {@code p}.</li>
 * <li>Any other physical count works the same way with uneven range boundaries; a power of two keeps the ranges
 * equal.</li>
 * <li><b>Never change {@code logicalShards} of a live generator</b>: every ID issued so far carries its logical shard
 * in {@code g} bits, and every key's shard is the top {@code g} bits of its hash, so a new count reads old IDs wrongly
 * and moves keys. Choose it once, generously (at least as many as the physical shards you may ever have).</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class ShardedSnowflake {

    /** The form's name, as configured with {@code idgen.generators.<name>.form}. */
    public static final String FORM = "shard";

    /** The most logical shards: 16 bits. */
    public static final int MAX_LOGICAL_SHARDS = 1 << 16;

    private static final int INSTAGRAM_SHARDS = 1 << 13;

    private final SnowflakeGenerator base;
    private final SnowflakeLayout layout;
    private final ShardPosition position;
    private final int logicalShards;
    private final int shardBits;
    private final long shardMask;
    /** The base bits below the shard in AFTER_TIMESTAMP: worker and sequence. */
    private final int lowBits;

    private final long lowMask;
    private final long maxId;

    private ShardedSnowflake(Builder builder) {
        this.base = builder.generator;
        this.layout = base.layout();
        this.position = builder.position;
        this.logicalShards = builder.logicalShards;
        this.shardBits = Integer.numberOfTrailingZeros(logicalShards);
        this.shardMask = logicalShards - 1L;
        this.lowBits = layout.workerBits() + layout.sequenceBits();
        this.lowMask = (1L << lowBits) - 1;
        this.maxId = (layout.maxId() << shardBits) | shardMask;
    }

    /**
     * @return a builder; set the generator and the logical shard count, the position defaults to
     *         {@link ShardPosition#LOW}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Instagram's published layout: 41 bits of milliseconds, 13 bits of logical shard (8,192) after them, and the 9
     * bits left for the base generator's worker (4 bits, 16 workers) and sequence (5 bits, 32 IDs per millisecond per
     * worker, whatever the shards). The base generator must use a layout with at most 50 bits, such as
     * {@link #instagramLayout()}.
     *
     * <p>Instagram's original gave those 10 bits to a sequence per logical shard, generated inside the shard's own
     * PostgreSQL schema: unique because each logical shard lived in exactly one database that owned its sequence.
     * Here IDs are made outside the database, by many processes, so the base Snowflake's worker id is what keeps them
     * unique across processes, and one process issues up to 32 IDs per millisecond in total instead of 1,024 per
     * shard.
     *
     * @param base a generator with {@link #instagramLayout()} (or another layout of at most 50 bits)
     * @return the sharded generator
     * @throws InvalidArgumentException (argument {@code layoutBits}) when the base layout is too wide
     */
    public static ShardedSnowflake instagram(SnowflakeGenerator base) {
        return builder()
                .generator(base)
                .logicalShards(INSTAGRAM_SHARDS)
                .position(ShardPosition.AFTER_TIMESTAMP)
                .build();
    }

    /**
     * @return the base layout for {@link #instagram(SnowflakeGenerator)}: {@code defaultLayout(8192)}, 41 timestamp
     *         bits of milliseconds, 4 worker bits, 5 sequence bits
     */
    public static SnowflakeLayout instagramLayout() {
        return defaultLayout(INSTAGRAM_SHARDS);
    }

    /**
     * A base layout that leaves room for {@code logicalShards = 2^g}: 41 timestamp bits of milliseconds from
     * {@link SnowflakeLayout#DEFAULT_EPOCH} (until 2094), and the {@code 22 - g} bits left split into
     * {@code (22 - g) / 2} worker bits and the rest sequence bits. For 1,024 logical shards that is 6 worker bits and
     * 6 sequence bits: 64 workers, 64 IDs per millisecond each (64,000 per second), to any shards.
     *
     * @param logicalShards a power of two from 2 to 65,536
     * @return the layout, of {@code 63 - g} bits
     * @throws InvalidArgumentException (argument {@code logicalShards}) when the count breaks its rule
     */
    public static SnowflakeLayout defaultLayout(int logicalShards) {
        int g = Integer.numberOfTrailingZeros(checkLogicalShards(logicalShards));
        int left = 22 - g;
        int workerBits = left / 2;
        return SnowflakeLayout.builder()
                .tickUnit(TickUnit.MILLISECONDS)
                .timestampBits(41)
                .workerBits(workerBits)
                .sequenceBits(left - workerBits)
                .build();
    }

    /**
     * The next ID, in the logical shard of {@code shardKey}.
     *
     * @param shardKey the business key, non-empty
     * @return a positive ID whose {@link #logicalShardOf(long)} is {@link #logicalShardOf(CharSequence)
     *         logicalShardOf(shardKey)}
     * @throws InvalidArgumentException (argument {@code shardKey}) when the key is null or empty
     * @throws dev.idgen.core.IdGenerationException when the base generator cannot issue an ID safely
     */
    public long nextId(CharSequence shardKey) {
        return compose(base.nextId(), logicalShardOf(shardKey));
    }

    /**
     * The next ID, in a logical shard given directly (for callers that route by something other than a key).
     *
     * @param logicalShard from 0 to {@code logicalShards - 1}
     * @return a positive ID carrying that shard
     * @throws InvalidArgumentException (argument {@code logicalShard}) when the shard is out of range
     * @throws dev.idgen.core.IdGenerationException when the base generator cannot issue an ID safely
     */
    public long nextIdInShard(int logicalShard) {
        if (logicalShard < 0 || logicalShard >= logicalShards) {
            throw new InvalidArgumentException(
                    "logicalShard",
                    logicalShard,
                    "logicalShard must be between 0 and " + (logicalShards - 1) + ", but was " + logicalShard);
        }
        return compose(base.nextId(), logicalShard);
    }

    /**
     * The logical shard of a key: the top {@code g} bits of the key's xxHash64 (see the class comment for the exact
     * function).
     *
     * @param shardKey the business key, non-empty
     * @return from 0 to {@code logicalShards - 1}
     * @throws InvalidArgumentException (argument {@code shardKey}) when the key is null or empty
     */
    public int logicalShardOf(CharSequence shardKey) {
        return ShardKeyHash.logicalShard(ShardKeyHash.hash(shardKey), shardBits);
    }

    /**
     * @param id an ID of this generator
     * @return the logical shard it carries
     * @throws InvalidArgumentException (argument {@code id}) when it cannot be an ID of this generator
     */
    public int logicalShardOf(long id) {
        checkId(id);
        return (int) (position == ShardPosition.LOW ? id & shardMask : (id >>> lowBits) & shardMask);
    }

    /**
     * The physical shard an ID routes to: physical shards own contiguous, equal (up to one) ranges of logical shards,
     * {@code physical = logical * physicalShards / logicalShards}. Doubling {@code physicalShards} splits every range
     * in two and changes no ID's logical shard (see the class comment).
     *
     * @param id an ID of this generator
     * @param physicalShards how many databases, from 1 to {@code logicalShards}
     * @return from 0 to {@code physicalShards - 1}
     * @throws InvalidArgumentException (argument {@code physicalShards}) when the count is out of range; (argument
     *         {@code id}) when the ID cannot be one of this generator
     */
    public int shardOf(long id, int physicalShards) {
        checkPhysicalShards(physicalShards);
        return physicalShard(logicalShardOf(id), physicalShards);
    }

    /**
     * The physical shard of a key, by the same rule as {@link #shardOf(long, int)}: where the rows of a key's IDs
     * are, for a query by key.
     *
     * @param shardKey the business key, non-empty
     * @param physicalShards how many databases, from 1 to {@code logicalShards}
     * @return from 0 to {@code physicalShards - 1}
     * @throws InvalidArgumentException (argument {@code physicalShards}) when the count is out of range; (argument
     *         {@code shardKey}) when the key is null or empty
     */
    public int shardOf(CharSequence shardKey, int physicalShards) {
        checkPhysicalShards(physicalShards);
        return physicalShard(logicalShardOf(shardKey), physicalShards);
    }

    /**
     * What an ID carries: the base Snowflake decode plus its logical shard.
     *
     * @param id an ID of this generator
     * @return an unmodifiable, ordered map: {@code strategy} ({@code snowflake}), {@code id}, {@code timestamp} (an
     *         {@link java.time.Instant}), {@code shard}, {@code workerId}, {@code sequence}
     * @throws InvalidArgumentException (argument {@code id}) when it cannot be an ID of this generator
     */
    public Map<String, Object> decode(long id) {
        SnowflakeDecodedId parts = base.decode(baseOf(id));
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("strategy", SnowflakeDecodedId.STRATEGY);
        map.put("id", Long.toString(id));
        map.put("timestamp", parts.timestamp());
        map.put("shard", logicalShardOf(id));
        map.put("workerId", parts.workerId());
        map.put("sequence", parts.sequence());
        return Collections.unmodifiableMap(map);
    }

    /**
     * This generator's IDs as the {@value #FORM} form: decimal strings, each next call needing a shard key.
     *
     * @param generator the generator's name, for messages and {@link IdForm#generator()}
     * @return the form
     * @throws InvalidArgumentException (argument {@code generator}) when the name is null or empty
     */
    public IdForm form(String generator) {
        if (generator == null || generator.isEmpty()) {
            throw new InvalidArgumentException("generator", generator, "generator must be a non-empty name");
        }
        return new ShardForm(generator, this);
    }

    public int logicalShards() {
        return logicalShards;
    }

    public ShardPosition position() {
        return position;
    }

    /**
     * @return the base generator; closing it is its owner's business
     */
    public SnowflakeGenerator generator() {
        return base;
    }

    @Override
    public String toString() {
        return "ShardedSnowflake[logicalShards=" + logicalShards + ", position=" + position + ", layout=" + layout
                + "]";
    }

    private long compose(long baseId, int shard) {
        if (position == ShardPosition.LOW) {
            return (baseId << shardBits) | shard;
        }
        return ((baseId >>> lowBits) << (lowBits + shardBits)) | ((long) shard << lowBits) | (baseId & lowMask);
    }

    /** The base generator's ID an ID was made from. */
    private long baseOf(long id) {
        checkId(id);
        long baseId = position == ShardPosition.LOW
                ? id >>> shardBits
                : ((id >>> (lowBits + shardBits)) << lowBits) | (id & lowMask);
        if (baseId == 0) {
            throw new InvalidArgumentException(
                    "id",
                    id,
                    "id " + id + " cannot be an ID of this sharded generator:" + " without its shard bits it is 0");
        }
        return baseId;
    }

    private void checkId(long id) {
        IdArguments.checkId(id);
        if (id > maxId) {
            throw new InvalidArgumentException(
                    "id",
                    id,
                    "id " + id + " cannot be an ID of this sharded generator: it" + " is above its largest ID "
                            + maxId);
        }
    }

    private int physicalShard(int logicalShard, int physicalShards) {
        return (int) ((long) logicalShard * physicalShards / logicalShards);
    }

    private void checkPhysicalShards(int physicalShards) {
        if (physicalShards < 1 || physicalShards > logicalShards) {
            throw new InvalidArgumentException(
                    "physicalShards",
                    physicalShards,
                    "physicalShards must be between 1" + " and logicalShards (" + logicalShards + "), but was "
                            + physicalShards);
        }
    }

    private static int checkLogicalShards(int logicalShards) {
        if (logicalShards < 2 || logicalShards > MAX_LOGICAL_SHARDS || Integer.bitCount(logicalShards) != 1) {
            throw new InvalidArgumentException(
                    "logicalShards",
                    logicalShards,
                    "logicalShards must be a power of two" + " from 2 to " + MAX_LOGICAL_SHARDS + ", but was "
                            + logicalShards);
        }
        return logicalShards;
    }

    /**
     * Builds a {@link ShardedSnowflake}.
     */
    public static final class Builder {

        private SnowflakeGenerator generator;
        private int logicalShards;
        private ShardPosition position = ShardPosition.LOW;

        private Builder() {}

        /**
         * @param generator the base generator, whose (tick, worker, sequence) makes IDs unique; its layout must leave
         *        room for the shard bits
         * @return this builder
         */
        public Builder generator(SnowflakeGenerator generator) {
            this.generator = generator;
            return this;
        }

        /**
         * @param logicalShards a power of two from 2 to 65,536; fixed for the life of the IDs
         * @return this builder
         */
        public Builder logicalShards(int logicalShards) {
            this.logicalShards = logicalShards;
            return this;
        }

        /**
         * @param position where the shard bits go; {@link ShardPosition#LOW} by default
         * @return this builder
         */
        public Builder position(ShardPosition position) {
            this.position = position;
            return this;
        }

        /**
         * @return the sharded generator
         * @throws InvalidArgumentException naming the first setting that breaks its rule; {@code layoutBits} when the
         *         base layout and the shard bits together exceed 63 bits
         */
        public ShardedSnowflake build() {
            if (generator == null) {
                throw new InvalidArgumentException("generator", null, "generator must be set");
            }
            checkLogicalShards(logicalShards);
            if (position == null) {
                throw new InvalidArgumentException("position", null, "position must be set");
            }
            SnowflakeLayout layout = generator.layout();
            int shardBits = Integer.numberOfTrailingZeros(logicalShards);
            int sum = layout.timestampBits() + layout.workerBits() + layout.sequenceBits() + shardBits;
            if (sum > SnowflakeLayout.USABLE_BITS) {
                throw new InvalidArgumentException(
                        "layoutBits",
                        sum,
                        "timestampBits + workerBits + sequenceBits +"
                                + " shardBits must be at most " + SnowflakeLayout.USABLE_BITS + ", but "
                                + layout.timestampBits()
                                + " + " + layout.workerBits() + " + " + layout.sequenceBits() + " + " + shardBits
                                + " = " + sum
                                + " (" + logicalShards + " logical shards need " + shardBits
                                + " bits; use a base layout of at"
                                + " most " + (SnowflakeLayout.USABLE_BITS - shardBits) + " bits, such as"
                                + " ShardedSnowflake.defaultLayout(" + logicalShards + "))");
            }
            return new ShardedSnowflake(this);
        }
    }
}
