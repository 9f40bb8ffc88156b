package dev.idgen.forms.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** On a manual clock a test that issues more IDs than a tick holds would wait forever: fail it instead. */
@Timeout(60)
class ShardedSnowflakeTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ManualTimeSource time = new ManualTimeSource(START);

    private final List<SnowflakeGenerator> generators = new ArrayList<>();

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void close() {
        executor.shutdownNow();
        generators.forEach(SnowflakeGenerator::close);
    }

    /** A generator on the manual clock, past its start-up tick. */
    private SnowflakeGenerator manual(SnowflakeLayout layout, long workerId) {
        SnowflakeGenerator generator = SnowflakeGenerator.builder()
                .layout(layout)
                .workerId(workerId)
                .timeSource(time)
                .build();
        generators.add(generator);
        time.advanceMillis(1);
        return generator;
    }

    /** A generator on the system clock, for tests that issue more IDs than one tick holds. */
    private SnowflakeGenerator system(SnowflakeLayout layout, long workerId) {
        SnowflakeGenerator generator =
                SnowflakeGenerator.builder().layout(layout).workerId(workerId).build();
        generators.add(generator);
        return generator;
    }

    private ShardedSnowflake sharded(int logicalShards, ShardPosition position) {
        return ShardedSnowflake.builder()
                .generator(manual(ShardedSnowflake.defaultLayout(logicalShards), 5))
                .logicalShards(logicalShards)
                .position(position)
                .build();
    }

    @Test
    void keyShardIsTheTopBitsOfXxHash64OfTheKeysUtf16LittleEndianBytes() {
        // Reference values from the xxHash C library 0.8.1 (XXH64, seed 0, of key.encode("utf-16-le")).
        assertThat(ShardKeyHash.hash("user-42")).isEqualTo(0xa9a7c12f729ae8ceL);
        assertThat(ShardKeyHash.hash("user-0")).isEqualTo(0x406f980a4b121eb9L);
        assertThat(ShardKeyHash.hash("a")).isEqualTo(0xe513e02c99167f96L);
        assertThat(ShardKeyHash.hash("order:2024/\u00e9\u20ac\ud83d\ude00")).isEqualTo(0xfad585f9d80bdb34L);

        ShardedSnowflake shards = sharded(1024, ShardPosition.LOW);
        assertThat(shards.logicalShardOf("user-42")).isEqualTo(678);
        assertThat(shards.logicalShardOf("user-0")).isEqualTo(257);
        assertThat(shards.logicalShardOf("order:2024/\u00e9\u20ac\ud83d\ude00")).isEqualTo(1003);
        assertThat(shards.logicalShardOf(new StringBuilder("user-42"))).isEqualTo(678);
        assertThat(sharded(8192, ShardPosition.AFTER_TIMESTAMP).logicalShardOf("user-42"))
                .isEqualTo(5428);
    }

    @Test
    void keyHashIsTheLibrarysHashOfTheUtf16LeBytesNotStringHashCode() {
        LongHashFunction xx = LongHashFunction.xx();
        for (String key : List.of("user-1", "Ünïcödé", "\ud83d\ude00 emoji", "x".repeat(1000))) {
            assertThat(ShardKeyHash.hash(key)).isEqualTo(xx.hashBytes(key.getBytes(StandardCharsets.UTF_16LE)));
        }
    }

    @ParameterizedTest
    @EnumSource(ShardPosition.class)
    void everyIdOfAKeyCarriesThatKeysShard(ShardPosition position) {
        ShardedSnowflake shards = sharded(1024, position);
        IdForm form = shards.form("orders");
        for (int k = 0; k < 200; k++) {
            String key = "user-" + k;
            int shard = shards.logicalShardOf(key);
            for (int i = 0; i < 10; i++) {
                if (i % 3 == 0) {
                    time.advanceMillis(1);
                }
                long id = shards.nextId(key);
                assertThat(shards.logicalShardOf(id)).isEqualTo(shard);
                assertThat(shards.decode(id)).containsEntry("shard", shard).containsEntry("id", Long.toString(id));
            }
            for (String text : form.next(3, key)) {
                assertThat(form.decode(text)).containsEntry("shard", shard);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ShardPosition.class)
    void decodeGivesTheBaseSnowflakePartsAndTheShard(ShardPosition position) {
        ShardedSnowflake shards = sharded(1024, position);
        long id = shards.nextIdInShard(777);
        long baseId = shards.generator().nextId() - 1; // the base ID the sharded one was made from
        Map<String, Object> parts = shards.decode(id);
        assertThat(parts.keySet()).containsExactly("strategy", "id", "timestamp", "shard", "workerId", "sequence");
        assertThat(parts)
                .containsEntry("strategy", "snowflake")
                .containsEntry("id", Long.toString(id))
                .containsEntry("timestamp", START.plusMillis(1))
                .containsEntry("shard", 777)
                .containsEntry("workerId", 5L)
                .containsEntry("sequence", shards.generator().decode(baseId).sequence());
    }

    @Test
    void lowPositionIsTheShardGene() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.LOW);
        long id = shards.nextIdInShard(300);
        long baseId = shards.generator().nextId() - 1;
        assertThat(id).isEqualTo(baseId << 10 | 300);
        assertThat(id % 1024).isEqualTo(300);
    }

    @Test
    void lowPositionIdsIncreaseInIssueOrderWhateverTheirShards() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.LOW);
        long previous = 0;
        for (int i = 0; i < 1000; i++) {
            if (i % 50 == 0) {
                time.advanceMillis(1);
            }
            long id = shards.nextId("key-" + i);
            assertThat(id).isGreaterThan(previous);
            previous = id;
        }
    }

    @Test
    void instagramIsMillisThenThirteenShardBitsThenNineWorkerAndSequenceBits() {
        assertThat(ShardedSnowflake.instagramLayout().timestampBits()).isEqualTo(41);
        assertThat(ShardedSnowflake.instagramLayout().workerBits()).isEqualTo(4);
        assertThat(ShardedSnowflake.instagramLayout().sequenceBits()).isEqualTo(5);
        ShardedSnowflake shards = ShardedSnowflake.instagram(manual(ShardedSnowflake.instagramLayout(), 9));
        assertThat(shards.logicalShards()).isEqualTo(8192);
        assertThat(shards.position()).isEqualTo(ShardPosition.AFTER_TIMESTAMP);

        long id = shards.nextIdInShard(5000);
        long tick = START.plusMillis(1).toEpochMilli() - SnowflakeLayout.DEFAULT_EPOCH.toEpochMilli();
        assertThat(id >>> 22).isEqualTo(tick);
        assertThat((id >>> 9) & 8191).isEqualTo(5000);
        assertThat((id >>> 5) & 15).isEqualTo(9);
        assertThat(shards.decode(id)).containsEntry("workerId", 9L).containsEntry("shard", 5000);
    }

    @Test
    void defaultLayoutSplitsTheBitsLeftBetweenWorkerAndSequence() {
        SnowflakeLayout layout = ShardedSnowflake.defaultLayout(1024);
        assertThat(layout.timestampBits()).isEqualTo(41);
        assertThat(layout.maxWorkerId() + 1).isEqualTo(64);
        assertThat(layout.maxSequence() + 1).isEqualTo(64);
        assertThat(ShardedSnowflake.defaultLayout(2).workerBits()).isEqualTo(10);
        assertThat(ShardedSnowflake.defaultLayout(2).sequenceBits()).isEqualTo(11);
        assertThat(ShardedSnowflake.defaultLayout(65536).workerBits()).isEqualTo(3);
        assertThat(ShardedSnowflake.defaultLayout(65536).sequenceBits()).isEqualTo(3);
        for (int shards = 2; shards <= 65536; shards <<= 1) {
            SnowflakeLayout each = ShardedSnowflake.defaultLayout(shards);
            assertThat(each.timestampBits()
                            + each.workerBits()
                            + each.sequenceBits()
                            + Integer.numberOfTrailingZeros(shards))
                    .isEqualTo(63);
        }
    }

    @ParameterizedTest
    @EnumSource(ShardPosition.class)
    void idsStayUniqueAcrossKeysThreadsAndWorkers(ShardPosition position) throws Exception {
        // 41 + 2 + 10 + 10 = 63 bits: 1,024 IDs per millisecond per worker, so the test does not wait on the clock.
        SnowflakeLayout layout =
                SnowflakeLayout.builder().workerBits(2).sequenceBits(10).build();
        List<ShardedSnowflake> workers = List.of(
                ShardedSnowflake.builder()
                        .generator(system(layout, 1))
                        .logicalShards(1024)
                        .position(position)
                        .build(),
                ShardedSnowflake.builder()
                        .generator(system(layout, 2))
                        .logicalShards(1024)
                        .position(position)
                        .build());
        int threads = 4;
        int perThread = 50_000;
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ShardedSnowflake shards = workers.get(t % 2);
            int thread = t;
            futures.add(executor.submit(() -> {
                long[] ids = new long[perThread];
                for (int i = 0; i < perThread; i++) {
                    // Few keys, so that many IDs share a shard, and each thread's keys overlap the others'.
                    ids[i] = shards.nextId("user-" + ((i * 7 + thread) % 97));
                }
                return ids;
            }));
        }
        Set<Long> seen = new HashSet<>();
        for (Future<long[]> future : futures) {
            for (long id : future.get()) {
                assertThat(seen.add(id)).as("duplicate %d", id).isTrue();
            }
        }
        assertThat(seen).hasSize(threads * perThread);
    }

    @Test
    void physicalShardsOwnContiguousRangesThatSplitInTwoWhenDoubled() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.AFTER_TIMESTAMP);
        long[] idOfShard = new long[1024];
        for (int logical = 0; logical < 1024; logical++) {
            if (logical % 32 == 0) {
                time.advanceMillis(1); // the manual clock would otherwise hold the generator at 64 IDs
            }
            idOfShard[logical] = shards.nextIdInShard(logical);
        }
        for (int physical : new int[] {1, 2, 3, 4, 5, 7, 8, 16, 100, 256, 512}) {
            int[] owners = new int[1024];
            int[] sizes = new int[physical];
            for (int logical = 0; logical < 1024; logical++) {
                owners[logical] = shards.shardOf(idOfShard[logical], physical);
                sizes[owners[logical]]++;
                int doubled = shards.shardOf(idOfShard[logical], physical * 2);
                assertThat(doubled / 2)
                        .as("logical %d, %d -> %d physical", logical, physical, physical * 2)
                        .isEqualTo(owners[logical]);
                if (logical > 0) {
                    // Contiguous ranges: the owner never goes back.
                    assertThat(owners[logical] - owners[logical - 1]).isBetween(0, 1);
                }
            }
            assertThat(owners[0]).isZero();
            assertThat(owners[1023]).isEqualTo(physical - 1);
            int min = Integer.MAX_VALUE;
            int max = 0;
            for (int size : sizes) {
                min = Math.min(min, size);
                max = Math.max(max, size);
            }
            assertThat(max - min)
                    .as("range sizes for %d physical shards", physical)
                    .isLessThanOrEqualTo(1);
        }
        assertThat(shards.shardOf(idOfShard[700], 1024)).isEqualTo(700);
        assertThat(shards.shardOf("user-42", 2)).isEqualTo(shards.shardOf(shards.nextId("user-42"), 2));
    }

    @Test
    void rejectsPhysicalShardCountsOutsideOneToLogical() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.LOW);
        long id = shards.nextIdInShard(1);
        for (int bad : new int[] {0, -1, 1025}) {
            assertThatThrownBy(() -> shards.shardOf(id, bad))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("physicalShards")
                    .extracting("argument")
                    .isEqualTo("physicalShards");
        }
    }

    @Test
    void rejectsALayoutThatLeavesNoRoomForTheShardBits() {
        SnowflakeGenerator standard = manual(SnowflakeLayout.standard(), 1);
        assertThatThrownBy(() -> ShardedSnowflake.builder()
                        .generator(standard)
                        .logicalShards(1024)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("41 + 10 + 12 + 10 = 73")
                .extracting("argument")
                .isEqualTo("layoutBits");
        assertThatThrownBy(() -> ShardedSnowflake.instagram(standard))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("layoutBits");
        // 41 + 10 + 11 = 62 bits leave room for exactly 2 shards.
        SnowflakeGenerator wide =
                manual(SnowflakeLayout.builder().sequenceBits(11).build(), 1);
        assertThat(ShardedSnowflake.builder()
                        .generator(wide)
                        .logicalShards(2)
                        .build()
                        .logicalShards())
                .isEqualTo(2);
        assertThatThrownBy(() -> ShardedSnowflake.builder()
                        .generator(wide)
                        .logicalShards(4)
                        .build())
                .extracting("argument")
                .isEqualTo("layoutBits");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 1000, -1024, 131072, Integer.MIN_VALUE})
    void rejectsLogicalShardCountsThatAreNotPowersOfTwoFromTwoTo65536(int logicalShards) {
        SnowflakeGenerator generator = manual(ShardedSnowflake.defaultLayout(1024), 1);
        assertThatThrownBy(() -> ShardedSnowflake.builder()
                        .generator(generator)
                        .logicalShards(logicalShards)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("logicalShards");
        assertThatThrownBy(() -> ShardedSnowflake.defaultLayout(logicalShards))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("logicalShards");
    }

    @Test
    void rejectsAMissingGeneratorAndPosition() {
        assertThatThrownBy(() -> ShardedSnowflake.builder().logicalShards(2).build())
                .extracting("argument")
                .isEqualTo("generator");
        SnowflakeGenerator generator = manual(ShardedSnowflake.defaultLayout(1024), 1);
        assertThatThrownBy(() -> ShardedSnowflake.builder()
                        .generator(generator)
                        .logicalShards(2)
                        .position(null)
                        .build())
                .extracting("argument")
                .isEqualTo("position");
    }

    @Test
    void rejectsEmptyKeysAndShardsOutOfRange() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.LOW);
        assertThatThrownBy(() -> shards.nextId(""))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("shardKey");
        assertThatThrownBy(() -> shards.nextId(null))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("shardKey");
        assertThatThrownBy(() -> shards.logicalShardOf(""))
                .extracting("argument")
                .isEqualTo("shardKey");
        assertThatThrownBy(() -> shards.nextIdInShard(1024))
                .extracting("argument")
                .isEqualTo("logicalShard");
        assertThatThrownBy(() -> shards.nextIdInShard(-1))
                .extracting("argument")
                .isEqualTo("logicalShard");
    }

    @Test
    void rejectsIdsThatCannotBeOfThisGenerator() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.LOW);
        for (long bad : new long[] {0, -5, 7 /* base part 0 */}) {
            assertThatThrownBy(() -> shards.decode(bad))
                    .isInstanceOf(InvalidArgumentException.class)
                    .extracting("argument")
                    .isEqualTo("id");
        }
        ShardedSnowflake narrow = ShardedSnowflake.builder()
                .generator(manual(SnowflakeLayout.javascriptSafe(), 1))
                .logicalShards(2)
                .build();
        assertThatThrownBy(() -> narrow.logicalShardOf(Long.MAX_VALUE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("above its largest ID")
                .extracting("argument")
                .isEqualTo("id");
    }

    @Test
    void formIssuesDecimalStringsOnlyWithAShardKey() {
        ShardedSnowflake shards = sharded(1024, ShardPosition.AFTER_TIMESTAMP);
        IdForm form = shards.form("orders");
        assertThat(form.generator()).isEqualTo("orders");
        assertThat(form.form()).isEqualTo("shard");
        assertThatThrownBy(form::next)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("shard key")
                .extracting("argument")
                .isEqualTo("shardKey");
        assertThatThrownBy(() -> form.next(3))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("shardKey");
        assertThatThrownBy(() -> form.next(3, ""))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("shardKey");
        assertThatThrownBy(() -> form.next(0, "user-1"))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("count");

        String[] texts = form.next(5, "user-42");
        assertThat(texts).hasSize(5).doesNotHaveDuplicates().allMatch(text -> text.matches("[1-9][0-9]*"));
        Map<String, Object> parts = form.decode(texts[4]);
        assertThat(parts.keySet()).containsExactly("form", "timestamp", "shard", "worker", "sequence", "id");
        assertThat(parts)
                .containsEntry("form", "shard")
                .containsEntry("timestamp", START.plusMillis(1))
                .containsEntry("shard", 678)
                .containsEntry("worker", 5L)
                .containsEntry("id", texts[4]);
    }

    @Test
    void formDecodesOnlyCanonicalDecimalStrings() {
        IdForm form = sharded(1024, ShardPosition.LOW).form("orders");
        String valid = form.next(1, "user-1")[0];
        for (String bad : new String[] {
            "",
            "abc",
            "0",
            "-" + valid,
            "+" + valid,
            "0" + valid,
            " " + valid,
            valid + "x",
            "99999999999999999999",
            "9223372036854775808",
            "7"
        }) {
            assertThatThrownBy(() -> form.decode(bad))
                    .as("'%s'", bad)
                    .isInstanceOf(InvalidArgumentException.class)
                    .extracting("argument")
                    .isEqualTo("id");
        }
        assertThatThrownBy(() -> form.decode(null))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("id");
    }
}
