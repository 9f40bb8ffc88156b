package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.CircuitBreaker.State;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Readable IDs from Redis buckets, on the real Redis (and, for the circuit breakers, on a Redis of the test's own
 * that it kills and starts again).
 */
class BucketedRedisSequenceTest {

    private static final DateTimeFormatter TIME_PART = DateTimeFormatter.ofPattern("yyMMddHHmmssSSS");

    /**
     * Room on top of the executor's timeout for a loaded machine (scheduling, a reconnect attempt). A call that hung,
     * or retried on until some far longer timeout, still takes longer than this.
     */
    private static final Duration ROOM = Duration.ofSeconds(10);

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final LettuceConnectionFactory factory = OwnRedis.connectionFactory(
            TestServices.redis().host(), TestServices.redis().port());
    private final RedisScriptExecutor redis = RedisTests.ready(new RedisScriptExecutor(
            new SpringLettuceConnectionSource(factory), Duration.ofSeconds(2), new RedisRoundTrips()));

    @AfterEach
    void close() {
        OwnRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    private BucketedRedisSequence sequence(int buckets, long maxSequence) {
        return new BucketedRedisSequence(
                redis, prefix, buckets, maxSequence, ZoneOffset.UTC, Duration.ofSeconds(5), TimeSource.system());
    }

    private long redisMillis() {
        try (var connection = factory.getConnection()) {
            return connection.serverCommands().time(TimeUnit.MILLISECONDS);
        }
    }

    private byte[] key(int bucket) {
        return (prefix + "bucket:{" + bucket + "}").getBytes(StandardCharsets.UTF_8);
    }

    private void setBucket(int bucket, long ms, long seq) {
        try (var connection = factory.getConnection()) {
            connection
                    .hashCommands()
                    .hSet(key(bucket), "ms".getBytes(), Long.toString(ms).getBytes());
            connection
                    .hashCommands()
                    .hSet(key(bucket), "seq".getBytes(), Long.toString(seq).getBytes());
        }
    }

    private String field(int bucket, String field) {
        try (var connection = factory.getConnection()) {
            byte[] value = connection.hashCommands().hGet(key(bucket), field.getBytes());
            return value == null ? null : new String(value, StandardCharsets.US_ASCII);
        }
    }

    @Test
    void writesTheRedisTimeTheBizCodeTheBucketAndTheSequenceAndDecodesThemBack() {
        BucketedRedisSequence sequence = new BucketedRedisSequence(redis, prefix);
        long before = redisMillis();
        String id = sequence.nextReadableId("ORD");
        long after = redisMillis();

        assertThat(id).hasSize(26).matches("\\d{15}ORD\\d{3}\\d{5}").endsWith("ORD00000000");
        BucketedDecodedId decoded = sequence.decodeReadable(id);
        assertThat(decoded.timestamp().toEpochMilli())
                .as("the Redis server time")
                .isBetween(before, after);
        assertThat(Duration.between(decoded.timestamp(), Instant.now()).abs()).isLessThan(Duration.ofSeconds(5));
        assertThat(id).startsWith(TIME_PART.withZone(ZoneOffset.UTC).format(decoded.timestamp()));
        assertThat(decoded.bizCode()).isEqualTo("ORD");
        assertThat(decoded.bucket()).isZero();
        assertThat(decoded.sequence()).isZero();
        assertThat(decoded.readableId()).isEqualTo(id);
        assertThat(decoded.strategy()).isEqualTo("redis-buckets");
        assertThat(decoded.toMap())
                .containsOnlyKeys("strategy", "id", "timestamp", "bizCode", "bucket", "sequence")
                .containsEntry("id", id)
                .containsEntry("bucket", 0)
                .containsEntry("sequence", 0L);

        String plain = sequence.nextReadableId("");
        assertThat(plain).hasSize(23).matches("\\d{23}");
        assertThat(sequence.decodeReadable(plain))
                .extracting(BucketedDecodedId::bizCode, BucketedDecodedId::bucket)
                .containsExactly("", 1);
        String longest = sequence.nextReadableId("A1b2");
        assertThat(longest).hasSize(27).contains("A1b2002");
        assertThat(sequence.decodeReadable(longest).bizCode()).isEqualTo("A1b2");
    }

    @Test
    void theWidthsFollowTheBucketsAndTheLargestSequence() {
        assertThat(sequence(1, 9).nextReadableId("")).hasSize(15 + 1 + 1).endsWith("00");
        String wide = new BucketedRedisSequence(
                        redis,
                        prefix + "w:",
                        1024,
                        99_999_999,
                        ZoneOffset.UTC,
                        Duration.ofSeconds(5),
                        TimeSource.system())
                .nextReadableId("X");
        assertThat(wide).hasSize(15 + 1 + 4 + 8).endsWith("X000000000000");
    }

    @Test
    void decodesAKnownId() {
        BucketedDecodedId decoded =
                new BucketedRedisSequence(redis, prefix).decodeReadable("250314093015123ORD04200017");
        assertThat(decoded.timestamp()).isEqualTo(Instant.parse("2025-03-14T09:30:15.123Z"));
        assertThat(decoded.bizCode()).isEqualTo("ORD");
        assertThat(decoded.bucket()).isEqualTo(42);
        assertThat(decoded.sequence()).isEqualTo(17);
        assertThat(decoded.id()).as("readable IDs have no 64-bit form").isZero();
    }

    @Test
    void theZoneMovesTheTimePartButNotTheInstant() {
        BucketedRedisSequence shanghai = new BucketedRedisSequence(
                redis, prefix, 4, 99, ZoneId.of("Asia/Shanghai"), Duration.ofSeconds(5), TimeSource.system());
        String id = shanghai.nextReadableId("CN");
        Instant issued = shanghai.decodeReadable(id).timestamp();
        assertThat(Duration.between(issued, Instant.now()).abs()).isLessThan(Duration.ofSeconds(5));
        assertThat(id).startsWith(TIME_PART.withZone(ZoneOffset.ofHours(8)).format(issued));
        assertThat(sequence(4, 99).decodeReadable(id).timestamp())
                .as("the same digits read as UTC")
                .isEqualTo(issued.plus(Duration.ofHours(8)));

        assertThatThrownBy(() -> new BucketedRedisSequence(
                        redis, prefix, 4, 99, ZoneId.of("Europe/Berlin"), Duration.ofSeconds(5), TimeSource.system()))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("zone must not set its clocks back")
                .satisfies(e ->
                        assertThat(((InvalidArgumentException) e).argument()).isEqualTo("zone"));
    }

    @Test
    void bizCodesAreChecked() {
        BucketedRedisSequence sequence = sequence(4, 99);
        for (String bad : new String[] {"ORDER", "a-b", "é", " ", null}) {
            assertThatThrownBy(() -> sequence.nextReadableId(bad))
                    .as(String.valueOf(bad))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("bizCode must be 0 to 4")
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo("bizCode"));
        }
        assertThat(sequence.busySkips() + sequence.failures()).isZero();
    }

    @Test
    void callersTakeTurnsOverTheBuckets() {
        BucketedRedisSequence sequence = sequence(4, 99);
        List<Integer> buckets = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            buckets.add(sequence.decodeReadable(sequence.nextReadableId("R")).bucket());
        }
        assertThat(buckets).containsExactly(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
        for (int bucket = 0; bucket < 4; bucket++) {
            assertThat(field(bucket, "seq"))
                    .as("bucket %d is its own hash", bucket)
                    .isNotNull();
        }
        assertThat(sequence.bucketCount()).isEqualTo(4);
        assertThat(sequence.openBuckets()).isZero();
    }

    @Test
    void eightThreadsWithTinySequencesNeverRepeatAnId() throws Exception {
        BucketedRedisSequence sequence = sequence(4, 9);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<List<String>> perThread = new ArrayList<>();
        try {
            List<Future<List<String>>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String bizCode = t % 2 == 0 ? "" : "B";
                futures.add(pool.submit(() -> {
                    List<String> ids = new ArrayList<>(5000);
                    for (int i = 0; i < 5000; i++) {
                        ids.add(sequence.nextReadableId(bizCode));
                    }
                    return ids;
                }));
            }
            for (Future<List<String>> future : futures) {
                perThread.add(future.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> unique = new HashSet<>();
        Set<String> pairs = new HashSet<>();
        for (List<String> ids : perThread) {
            for (String id : ids) {
                unique.add(id);
                BucketedDecodedId decoded = sequence.decodeReadable(id);
                assertThat(decoded.sequence()).isBetween(0L, 9L);
                pairs.add(decoded.bucket() + "/" + decoded.timestamp().toEpochMilli() + "/" + decoded.sequence());
            }
        }
        assertThat(unique).hasSize(40_000);
        assertThat(pairs).as("(bucket, ms, seq), whatever the bizCode").hasSize(40_000);
        // 10,000 IDs per bucket, 10 per cycle: every bucket wrapped at least 999 times.
        assertThat(sequence.wraps()).isGreaterThanOrEqualTo(4 * 999);
        assertThat(sequence.busySkips()).isGreaterThanOrEqualTo(sequence.wraps());
        assertThat(sequence.failures()).isZero();
    }

    @Test
    void aBucketThatWrapsInItsMillisecondIsBusyAndTheCallMovesToTheNext() {
        BucketedRedisSequence sequence = sequence(2, 9);
        // Bucket 0 at its last sequence, a minute ahead of the Redis clock: it wraps in that millisecond and stays
        // busy until the clock gets there.
        long ahead = redisMillis() + 60_000;
        setBucket(0, ahead, 9);

        BucketedDecodedId first = sequence.decodeReadable(sequence.nextReadableId(""));
        assertThat(first.bucket()).isEqualTo(1);
        assertThat(sequence.wraps()).isEqualTo(1);
        assertThat(sequence.busySkips()).isEqualTo(1);
        assertThat(field(0, "wrap")).isEqualTo(Long.toString(ahead));
        assertThat(field(0, "ms")).isEqualTo(Long.toString(ahead));
        assertThat(field(0, "seq")).isEqualTo("-1");

        assertThat(sequence.decodeReadable(sequence.nextReadableId("")).bucket())
                .as("its own turn")
                .isEqualTo(1);
        assertThat(sequence.busySkips()).isEqualTo(1);

        BucketedDecodedId third = sequence.decodeReadable(sequence.nextReadableId(""));
        assertThat(third.bucket()).as("bucket 0 is still busy").isEqualTo(1);
        assertThat(third.sequence()).isEqualTo(2);
        assertThat(sequence.busySkips()).isEqualTo(2);
        assertThat(sequence.wraps()).isEqualTo(1);
        assertThat(sequence.openBuckets()).as("busy is no failure").isZero();
    }

    @Test
    void aBucketNeverGoesBackInTimeWhenTheRedisClockIsBehindIt() {
        BucketedRedisSequence sequence = sequence(1, 99);
        long ahead = redisMillis() + 60_000;
        setBucket(0, ahead, 3);
        BucketedDecodedId decoded = sequence.decodeReadable(sequence.nextReadableId("T"));
        assertThat(decoded.timestamp().toEpochMilli()).isEqualTo(ahead);
        assertThat(decoded.sequence()).isEqualTo(4);
    }

    @Test
    void failedBucketsOpenAndOneProbeEachClosesThemAfterTheOpenDuration() throws Exception {
        try (OwnRedis own = OwnRedis.start()) {
            LettuceConnectionFactory ownFactory = own.connectionFactory();
            try {
                Duration timeout = Duration.ofMillis(500);
                RedisScriptExecutor executor = new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(ownFactory), timeout, new RedisRoundTrips());
                ManualTimeSource time = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z"));
                BucketedRedisSequence sequence =
                        new BucketedRedisSequence(executor, prefix, 4, 99, ZoneOffset.UTC, Duration.ofSeconds(5), time);
                assertThat(sequence.nextReadableId("A")).hasSize(15 + 1 + 1 + 2);

                own.kill();
                for (int call = 0; !sequence.allOpen(); call++) {
                    assertThat(call)
                            .as("each failing call opens at least one bucket")
                            .isLessThan(4);
                    assertFailsWithin(sequence, timeout);
                }
                for (int bucket = 0; bucket < 4; bucket++) {
                    assertThat(sequence.circuitState(bucket)).isEqualTo(State.OPEN);
                }
                assertThat(sequence.openBuckets()).isEqualTo(4);
                assertThat(assertFailsWithoutAsking(sequence, executor))
                        .hasMessageContaining("All 4 buckets")
                        .hasMessageContaining("are open")
                        .hasMessageContaining(executor.describe());

                // Time is up while Redis is still down: each bucket gets one probe, which fails and opens it again.
                time.advance(Duration.ofSeconds(5));
                for (int call = 0; call < 4; call++) {
                    assertFailsWithin(sequence, timeout);
                }
                assertThat(sequence.allOpen())
                        .as("opened again for a new openDuration")
                        .isTrue();
                assertFailsWithoutAsking(sequence, executor);

                own.startServer();
                awaitAnswer(executor);
                time.advance(Duration.ofSeconds(4));
                assertThat(assertFailsWithoutAsking(sequence, executor))
                        .as("not yet: 4 s of 5")
                        .hasMessageContaining("All 4 buckets");

                time.advance(Duration.ofSeconds(1));
                for (int closed = 1; closed <= 4; closed++) {
                    assertThat(sequence.nextReadableId("A")).hasSize(19);
                    assertThat(sequence.openBuckets()).as("one probe per call").isEqualTo(4 - closed);
                }
                for (int bucket = 0; bucket < 4; bucket++) {
                    assertThat(sequence.circuitState(bucket)).isEqualTo(State.CLOSED);
                }
                assertThat(sequence.allOpen()).isFalse();
                assertThat(sequence.failures()).isGreaterThanOrEqualTo(8);
            } finally {
                ownFactory.destroy();
            }
        }
    }

    @Test
    void anInterruptedProbeLetsTheNextCallerProbeAtOnceAndABusyProbeClosesTheBucket() throws Exception {
        try (OwnRedis own = OwnRedis.start()) {
            LettuceConnectionFactory ownFactory = own.connectionFactory();
            try {
                Duration timeout = Duration.ofMillis(300);
                RedisScriptExecutor executor = new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(ownFactory), timeout, new RedisRoundTrips());
                ManualTimeSource time = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z"));
                BucketedRedisSequence sequence =
                        new BucketedRedisSequence(executor, prefix, 1, 99, ZoneOffset.UTC, Duration.ofSeconds(5), time);
                assertThat(sequence.nextReadableId("A")).hasSize(15 + 1 + 1 + 2);

                // A stopped Redis keeps the connection but answers nothing: every command times out.
                own.signal("STOP");
                try {
                    assertThat(assertFailsWithin(sequence, timeout)).hasMessageContaining("1 of 1 buckets are open");
                    assertThat(sequence.circuitState(0)).isEqualTo(State.OPEN);
                    assertThat(sequence.failures()).isEqualTo(1);

                    time.advance(Duration.ofSeconds(5));
                    Thread.currentThread().interrupt();
                    try {
                        assertThatThrownBy(() -> sequence.nextReadableId("A"))
                                .isInstanceOf(IdGenerationException.class)
                                .hasMessageContaining("Interrupted");
                    } finally {
                        assertThat(Thread.interrupted())
                                .as("the interrupt is kept for the caller")
                                .isTrue();
                    }
                    assertThat(sequence.failures())
                            .as("an interrupt says nothing about Redis")
                            .isEqualTo(1);
                    assertThat(sequence.circuitState(0))
                            .as("the probe given back")
                            .isEqualTo(State.OPEN);

                    // No time passes: the next caller probes at once, and the probe's failure opens it afresh.
                    assertFailsWithin(sequence, timeout);
                    assertThat(sequence.failures()).as("the probe was sent").isEqualTo(2);
                    assertThat(assertFailsWithoutAsking(sequence, executor)).hasMessageContaining("All 1 buckets");
                    assertThat(sequence.failures()).isEqualTo(2);
                } finally {
                    own.signal("CONT");
                }
                awaitAnswer(executor);

                // The bucket wrapped a minute ahead of the Redis clock: Redis answers, but only "busy".
                try (var connection = ownFactory.getConnection()) {
                    connection
                            .hashCommands()
                            .hSet(
                                    key(0),
                                    "wrap".getBytes(),
                                    Long.toString(connection.serverCommands().time(TimeUnit.MILLISECONDS) + 60_000)
                                            .getBytes());
                }
                time.advance(Duration.ofSeconds(5));
                assertThat(assertFailsWithin(sequence, timeout))
                        .as("busy, not open")
                        .hasMessageContaining("had used up its 100 sequences");
                assertThat(sequence.circuitState(0))
                        .as("busy is an answer: the probe closed it")
                        .isEqualTo(State.CLOSED);
                assertThat(sequence.openBuckets()).isZero();
                assertThat(sequence.failures()).isEqualTo(2);
                assertThat(sequence.busySkips()).isPositive();
            } finally {
                ownFactory.destroy();
            }
        }
    }

    /** Asserts that a call fails, having waited for Redis no longer than its {@code timeout} (plus {@link #ROOM}). */
    private static StoreUnavailableException assertFailsWithin(BucketedRedisSequence sequence, Duration timeout) {
        long started = System.nanoTime();
        try {
            String id = sequence.nextReadableId("A");
            throw new AssertionError("expected StoreUnavailableException, got " + id);
        } catch (StoreUnavailableException e) {
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("a call against a Redis timing out after %s", timeout)
                    .isLessThan(timeout.plus(ROOM));
            return e;
        }
    }

    /**
     * Asserts that a call fails without a round trip to Redis: every bucket it could use is open, so it is refused
     * before anything is sent (and so whatever the machine's speed).
     */
    private static StoreUnavailableException assertFailsWithoutAsking(
            BucketedRedisSequence sequence, RedisScriptExecutor executor) {
        long roundTrips = roundTrips(executor);
        try {
            String id = sequence.nextReadableId("A");
            throw new AssertionError("expected StoreUnavailableException, got " + id);
        } catch (StoreUnavailableException e) {
            assertThat(roundTrips(executor))
                    .as("round trips to Redis; open buckets are skipped, not asked")
                    .isEqualTo(roundTrips);
            return e;
        }
    }

    private static long roundTrips(RedisScriptExecutor executor) {
        long total = 0;
        for (RedisRoundTrips.Outcome outcome : RedisRoundTrips.Outcome.values()) {
            total += executor.roundTrips().count(outcome);
        }
        return total;
    }

    /** Lettuce reconnects on its own schedule; the breakers are what this test is about. */
    private static void awaitAnswer(RedisScriptExecutor executor) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (true) {
            try {
                executor.ping();
                return;
            } catch (RedisUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    @Test
    void malformedIdsNameId() {
        // The format's own test covers every malformation; these follow from this sequence's settings.
        BucketedRedisSequence sequence = new BucketedRedisSequence(redis, prefix);
        for (String id : new String[] {null, "250314093015123ORD30000017", "2503140930151230000001"}) {
            assertThatThrownBy(() -> sequence.decodeReadable(id))
                    .as(String.valueOf(id))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("id must be a readable ID")
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo("id"));
        }
        assertThatThrownBy(() -> sequence(256, 50).decodeReadable("250314093015123ORD04251"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("sequence 51 is above 50");
    }

    @Test
    void badArgumentsNameThemselves() {
        record Case(String argument, Runnable construct) {}
        TimeSource system = TimeSource.system();
        Duration open = Duration.ofSeconds(5);
        List<Case> cases = List.of(
                new Case(
                        "buckets", () -> new BucketedRedisSequence(redis, prefix, 0, 99, ZoneOffset.UTC, open, system)),
                new Case(
                        "buckets",
                        () -> new BucketedRedisSequence(redis, prefix, 1025, 99, ZoneOffset.UTC, open, system)),
                new Case(
                        "maxSequence",
                        () -> new BucketedRedisSequence(redis, prefix, 4, 8, ZoneOffset.UTC, open, system)),
                new Case(
                        "maxSequence",
                        () -> new BucketedRedisSequence(redis, prefix, 4, 100_000_000, ZoneOffset.UTC, open, system)),
                new Case(
                        "openDuration",
                        () -> new BucketedRedisSequence(redis, prefix, 4, 99, ZoneOffset.UTC, Duration.ZERO, system)),
                new Case(
                        "openDuration",
                        () -> new BucketedRedisSequence(redis, prefix, 4, 99, ZoneOffset.UTC, null, system)),
                new Case(
                        "openDuration",
                        () -> new BucketedRedisSequence(
                                redis, prefix, 4, 99, ZoneOffset.UTC, Duration.ofHours(2), system)),
                new Case(
                        "prefix",
                        () -> new BucketedRedisSequence(redis, "bad{prefix}", 4, 99, ZoneOffset.UTC, open, system)),
                new Case("zone", () -> new BucketedRedisSequence(redis, prefix, 4, 99, null, open, system)));
        for (Case c : cases) {
            assertThatThrownBy(c.construct()::run)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(c.argument() + " must")
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo(c.argument()));
        }
        assertThat(new BucketedRedisSequence(redis, prefix, 1, 9, ZoneOffset.UTC, open, system).bucketCount())
                .isEqualTo(1);
    }
}
