package dev.idgen.benchmarks;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import com.github.f4b6a3.tsid.Tsid;
import com.github.f4b6a3.uuid.UuidCreator;
import dev.idgen.core.form.Flake128Generator;
import dev.idgen.core.form.Flake128Id;
import dev.idgen.core.form.IdText;
import dev.idgen.core.form.ObjectId;
import dev.idgen.core.form.ObjectIdGenerator;
import dev.idgen.core.form.OrderedGuidGenerator;
import dev.idgen.core.form.SimpleflakeGenerator;
import dev.idgen.core.form.UuidV7Generator;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.forms.publicid.PublicIdCodec;
import dev.idgen.forms.shard.ShardedSnowflake;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import me.ahoo.cosid.converter.Radix62IdConverter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.sqids.Sqids;

/**
 * The ID forms beside the libraries their users would otherwise pick, all in one run, one thread, every contender at
 * its defaults. Benchmark names start with the form ({@code uuidV7_}, {@code guid_}, {@code objectId_},
 * {@code text_}, {@code public_}, {@code shard_}) and end with the contender, so JMH's table groups them:
 *
 * <ul>
 * <li>UUIDv7: idgen {@link UuidV7Generator}, uuid-creator {@code UuidCreator.getTimeOrderedEpoch()}, Java UUID
 * Generator {@code Generators.timeBasedEpochGenerator()};</li>
 * <li>ordered GUID for SQL Server: idgen {@link OrderedGuidGenerator} (default order), uuid-creator
 * {@code getSuffixComb()} (its COMB with the time in the last six bytes);</li>
 * <li>ObjectId: idgen {@link ObjectIdGenerator}, MongoDB's {@code org.bson.types.ObjectId} (with its hex string
 * too); one thread outruns the 2^24 ObjectIds a second holds, where idgen waits for the next second and bson's counter
 * wraps round and repeats, so {@code objectIdNoWait_idgen} also gives idgen's cost per call without the wait;</li>
 * <li>strings of a 64-bit ID: idgen {@link IdText} Crockford Base32 and Base62, TSID's {@code Tsid.from(id)} string
 * (Crockford Base32, 13 characters), CosId's {@code Radix62IdConverter.PAD_START} (11 characters); format and
 * parse;</li>
 * <li>public IDs: idgen {@link PublicIdCodec} (FF1 over AES, 18 characters) and Sqids' default alphabet, which
 * encodes but does not encrypt (its string shows how large the number is and its neighbours look alike);</li>
 * <li>shard routing: idgen's xxHash64 of the key beside {@code String.hashCode()} modulo the shard count, which
 * users write by hand and which the issue rules out (clustered, and cached in the String so it measures nothing).</li>
 * </ul>
 *
 * <p>The 128-bit flake and Simpleflake have no Java library users would otherwise pick; their rows give their cost.
 * The generators that wait for the next millisecond when a tick's sequence runs out (TSID's factory, Snowflake) are
 * bounded by their layouts, not by their code, so the string rows format a given ID rather than generate one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class FormsBenchmark {

    private static final int KEYS = 1024;
    private static final int MASK = KEYS - 1;
    private static final int OBJECT_IDS_PER_GENERATOR = 1 << 22;

    private UuidV7Generator uuidV7;
    private TimeBasedEpochGenerator jugV7;
    private OrderedGuidGenerator guid;
    private ObjectIdGenerator objectId;
    private ObjectIdGenerator objectIdNoWait;
    private int objectIdNoWaitCalls;
    private Flake128Generator flake128;
    private SimpleflakeGenerator simpleflake;
    private IdText crockford32;
    private IdText base62;
    private PublicIdCodec publicIds;
    private Sqids sqids;
    private ShardedSnowflake sharded;

    /** Snowflake-sized IDs, different on every call, so no contender formats one constant. */
    private final long[] ids = new long[KEYS];

    private final String[] crockfordTexts = new String[KEYS];
    private final String[] base62Texts = new String[KEYS];
    private final String[] tsidTexts = new String[KEYS];
    private final String[] cosidTexts = new String[KEYS];
    private final String[] publicTexts = new String[KEYS];
    private final String[] sqidsTexts = new String[KEYS];
    private final String[] keys = new String[KEYS];
    private final long[] shardedIds = new long[KEYS];
    private int next;

    @Setup
    public void setUp() {
        uuidV7 = UuidV7Generator.builder().build();
        jugV7 = Generators.timeBasedEpochGenerator();
        guid = OrderedGuidGenerator.builder().build();
        objectId = ObjectIdGenerator.builder().build();
        objectIdNoWait = ObjectIdGenerator.builder().build();
        flake128 = Flake128Generator.builder().workerId(1).build();
        simpleflake = SimpleflakeGenerator.builder().build();
        crockford32 = IdText.crockford32();
        base62 = IdText.base62();
        byte[] key = new byte[16];
        Arrays.fill(key, (byte) 7);
        publicIds = PublicIdCodec.builder()
                .tweak("orders")
                .key(1, key)
                .currentVersion(1)
                .build();
        sqids = Sqids.builder().build();
        sharded = ShardedSnowflake.builder()
                .generator(SnowflakeGenerator.builder()
                        .workerId(1)
                        .layout(ShardedSnowflake.defaultLayout(KEYS))
                        .build())
                .logicalShards(KEYS)
                .build();
        SnowflakeGenerator snowflake = SnowflakeGenerator.builder().workerId(1).build();
        long base = snowflake.nextId();
        for (int i = 0; i < KEYS; i++) {
            // Spread over ~9 days of a default Snowflake's range: realistic widths, no two alike.
            ids[i] = base + (long) i * 0x3_0000_0000_1L;
            crockfordTexts[i] = crockford32.format(ids[i]);
            base62Texts[i] = base62.format(ids[i]);
            tsidTexts[i] = Tsid.from(ids[i]).toString();
            cosidTexts[i] = Radix62IdConverter.PAD_START.asString(ids[i]);
            publicTexts[i] = publicIds.encode(ids[i]);
            sqidsTexts[i] = sqids.encode(List.of(ids[i]));
            keys[i] = "user-" + (1_000_000 + i * 7919L);
            shardedIds[i] = sharded.nextId(keys[i]);
        }
        check();
    }

    /** Every contender reads back what it wrote, so the rows compare working code. */
    private void check() {
        for (int i = 0; i < KEYS; i++) {
            long id = ids[i];
            if (crockford32.parse(crockfordTexts[i]) != id
                    || base62.parse(base62Texts[i]) != id
                    || Tsid.from(tsidTexts[i]).toLong() != id
                    || Radix62IdConverter.PAD_START.asLong(cosidTexts[i]) != id
                    || publicIds.decode(publicTexts[i]) != id
                    || sqids.decode(sqidsTexts[i]).get(0) != id) {
                throw new IllegalStateException("a contender does not round-trip " + id);
            }
        }
        ObjectId ours = objectId.next();
        @SuppressWarnings("checkstyle:inlineFullyQualifiedName")
        org.bson.types.ObjectId theirs = new org.bson.types.ObjectId();
        @SuppressWarnings("checkstyle:inlineFullyQualifiedName")
        boolean bsonRoundTrips = new org.bson.types.ObjectId(theirs.toHexString()).equals(theirs);
        if (!ObjectId.parse(ours.toString()).equals(ours) || !bsonRoundTrips) {
            throw new IllegalStateException("an ObjectId does not round-trip through its hex string");
        }
        for (int i = 0; i < KEYS; i++) {
            if (sharded.logicalShardOf(shardedIds[i]) != sharded.logicalShardOf(keys[i])) {
                throw new IllegalStateException("a sharded ID does not carry its key's shard");
            }
        }
    }

    private int nextIndex() {
        return next++ & MASK;
    }

    // ---- UUIDv7 ----

    @Benchmark
    public UUID uuidV7_idgen() {
        return uuidV7.next();
    }

    @Benchmark
    public UUID uuidV7_uuidCreator() {
        return UuidCreator.getTimeOrderedEpoch();
    }

    @Benchmark
    public UUID uuidV7_javaUuidGenerator() {
        return jugV7.generate();
    }

    // ---- Ordered GUID (time in the last six bytes, where SQL Server sorts first) ----

    @Benchmark
    public UUID guid_idgen() {
        return guid.next();
    }

    @Benchmark
    public UUID guid_uuidCreatorSuffixComb() {
        return UuidCreator.getSuffixComb();
    }

    // ---- ObjectId ----

    @Benchmark
    public ObjectId objectId_idgen() {
        return objectId.next();
    }

    /** MongoDB's ObjectId, spelled out: idgen's own is imported. */
    @Benchmark
    @SuppressWarnings("checkstyle:inlineFullyQualifiedName")
    public org.bson.types.ObjectId objectId_bson() {
        return new org.bson.types.ObjectId();
    }

    /**
     * What {@link #objectId_idgen} costs per call when no second runs out. One thread asks for more than the 2^24
     * ObjectIds a second can hold without repeating, so that row also counts the wait for the next second: it cannot
     * go below 1 s / 2^24 = 59.6 ns. Here a new generator (a new random start, its own counter) takes over every
     * 2^22 IDs, well within a second's share, so no call waits; building one costs microseconds, a thousandth of a
     * nanosecond per ID.
     */
    @Benchmark
    public ObjectId objectIdNoWait_idgen() {
        if (++objectIdNoWaitCalls == OBJECT_IDS_PER_GENERATOR) {
            objectIdNoWaitCalls = 0;
            objectIdNoWait = ObjectIdGenerator.builder().build();
        }
        return objectIdNoWait.next();
    }

    @Benchmark
    public String objectIdHex_idgen() {
        return objectId.next().toString();
    }

    @Benchmark
    @SuppressWarnings("checkstyle:inlineFullyQualifiedName")
    public String objectIdHex_bson() {
        return new org.bson.types.ObjectId().toHexString();
    }

    // ---- 128-bit flake and Simpleflake (no peer) ----

    @Benchmark
    public Flake128Id flake128_idgen() {
        return flake128.next();
    }

    @Benchmark
    public long simpleflake_idgen() {
        return simpleflake.nextId();
    }

    // ---- Strings of a 64-bit ID ----

    @Benchmark
    public String textFormat_idgenCrockford32() {
        return crockford32.format(ids[nextIndex()]);
    }

    @Benchmark
    public String textFormat_tsidCrockford32() {
        return Tsid.from(ids[nextIndex()]).toString();
    }

    @Benchmark
    public String textFormat_idgenBase62() {
        return base62.format(ids[nextIndex()]);
    }

    @Benchmark
    public String textFormat_cosidRadix62() {
        return Radix62IdConverter.PAD_START.asString(ids[nextIndex()]);
    }

    @Benchmark
    public long textParse_idgenCrockford32() {
        return crockford32.parse(crockfordTexts[nextIndex()]);
    }

    @Benchmark
    public long textParse_tsidCrockford32() {
        return Tsid.from(tsidTexts[nextIndex()]).toLong();
    }

    @Benchmark
    public long textParse_idgenBase62() {
        return base62.parse(base62Texts[nextIndex()]);
    }

    @Benchmark
    public long textParse_cosidRadix62() {
        return Radix62IdConverter.PAD_START.asLong(cosidTexts[nextIndex()]);
    }

    // ---- Public IDs ----

    @Benchmark
    public String publicEncode_idgenFf1() {
        return publicIds.encode(ids[nextIndex()]);
    }

    @Benchmark
    public String publicEncode_sqids() {
        return sqids.encode(List.of(ids[nextIndex()]));
    }

    @Benchmark
    public long publicDecode_idgenFf1() {
        return publicIds.decode(publicTexts[nextIndex()]);
    }

    @Benchmark
    public long publicDecode_sqids() {
        return sqids.decode(sqidsTexts[nextIndex()]).get(0);
    }

    // ---- Shard routing ----

    @Benchmark
    public int shardOfKey_idgenXxHash64() {
        return sharded.logicalShardOf(keys[nextIndex()]);
    }

    @Benchmark
    public int shardOfKey_stringHashCode() {
        return Math.floorMod(keys[nextIndex()].hashCode(), KEYS);
    }

    @Benchmark
    public int shardOfId_idgen() {
        return sharded.shardOf(shardedIds[nextIndex()], 16);
    }
}
