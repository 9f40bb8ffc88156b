package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The windowed counter behind the {@code redis} strategy and the Redis segment stores, on the real Redis.
 */
// Each method has servers or keys of its own and mostly waits: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
class RedisWindowedCounterTest {

    /** Room on top of a timeout for a loaded machine; a call that hung or retried on would take longer still. */
    private static final Duration ROOM = Duration.ofSeconds(10);

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final LettuceConnectionFactory factory = OwnRedis.connectionFactory(
            TestServices.redis().host(), TestServices.redis().port());
    private final RedisScriptExecutor redis = RedisTests.ready(new RedisScriptExecutor(
            new SpringLettuceConnectionSource(factory), Duration.ofSeconds(2), new RedisRoundTrips()));
    private final InMemorySegmentStore database = new InMemorySegmentStore(0, Duration.ZERO);

    @AfterEach
    void close() {
        OwnRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    private RedisWindowedCounter counter(long windowSize) {
        return new RedisWindowedCounter(redis, database, prefix, windowSize);
    }

    private void deleteKeys() {
        try (var connection = factory.getConnection()) {
            var keys = connection.keyCommands().keys((prefix + "*").getBytes(StandardCharsets.UTF_8));
            assertThat(keys).as("keys to delete").isNotEmpty();
            connection.keyCommands().del(keys.toArray(new byte[0][]));
        }
    }

    @Test
    void countsOneByOneInsideAWindowAndWritesTheDatabaseOncePerWindow() {
        RedisWindowedCounter counter = counter(100);
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            values.add(counter.increment("orders", 1));
        }
        // The call that finds a window used up reserves the next one and takes its first value: nothing is skipped.
        assertThat(values).startsWith(1L, 2L, 3L).doesNotHaveDuplicates().isSorted();
        assertThat(values.get(99)).isEqualTo(100);
        assertThat(values.get(249)).isBetween(250L, 252L);
        assertThat(counter.windowsReserved()).isEqualTo(3);
        assertThat(redis.roundTrips().count(RedisRoundTrips.Outcome.SUCCESS)).isGreaterThanOrEqualTo(250);
    }

    @Test
    void aBatchIsOneIncrementAndNeverStraddlesAWindow() {
        RedisWindowedCounter counter = counter(100);
        assertThat(counter.increment("orders", 60)).isEqualTo(60);
        long last = counter.increment("orders", 60);
        assertThat(last - 60).as("the rest of the first window is skipped").isGreaterThanOrEqualTo(100);
        assertThat(counter.increment("big", 500))
                .as("a window at least as large as the batch")
                .isEqualTo(500);
    }

    @Test
    void aRedisThatLostItsKeysContinuesAboveEverythingHandedOut() {
        RedisWindowedCounter counter = counter(1000);
        long before = 0;
        for (int i = 0; i < 10; i++) {
            before = counter.increment("orders", 1);
        }
        deleteKeys();
        long after = counter.increment("orders", 1);
        assertThat(after).isGreaterThan(before).isGreaterThan(1000);
        assertThat(counter.lostCounters()).isEqualTo(1);
    }

    @Test
    void twoInstancesOnOneRedisAndOneDatabaseNeverShareAValue() throws Exception {
        RedisWindowedCounter first = counter(50);
        RedisWindowedCounter second = counter(50);
        ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                RedisWindowedCounter counter = t % 2 == 0 ? first : second;
                boolean deleter = t == 0;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        long last = counter.increment("orders", 1 + i % 3);
                        for (long v = last - (i % 3); v <= last; v++) {
                            seen.add(v);
                        }
                        if (i == 250 && deleter) {
                            deleteKeys();
                        }
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(seen).hasSize(8 * (167 * 1 + 167 * 2 + 166 * 3)).doesNotHaveDuplicates();
    }

    @Test
    void anOlderWindowIsNeverInstalledOverALaterOne() {
        RedisWindowedCounter counter = counter(100);
        counter.increment("orders", 1);
        byte[][] keys = {
            (prefix + "{orders}").getBytes(StandardCharsets.UTF_8),
            (prefix + "{orders}:window").getBytes(StandardCharsets.UTF_8)
        };
        List<Object> state = redis.evalList(RedisWindowedCounter.STATE, keys);
        long installed = redis.evalLong(
                RedisWindowedCounter.INSTALL,
                keys,
                "0".getBytes(),
                "50".getBytes(),
                "1".getBytes(),
                "0".getBytes(),
                (byte[]) state.get(0),
                "1".getBytes());
        assertThat(installed).isZero();
        // The same install under a replication id this node does not have (another node, or this one before a
        // restart): refused, whatever the window.
        assertThat(redis.evalLong(
                        RedisWindowedCounter.INSTALL,
                        keys,
                        "1000".getBytes(),
                        "2000".getBytes(),
                        "1".getBytes(),
                        "0".getBytes(),
                        "0000000000000000000000000000000000000000".getBytes(),
                        "1".getBytes()))
                .isEqualTo(-1);
        assertThat(counter.increment("orders", 1)).isEqualTo(2);
    }

    @Test
    void aRedisThatDoesNotAnswerCostsTheTimeoutAndNoMore() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            // Lettuce's own timeouts a minute long: only the executor's 300 ms can end these calls in the bound below.
            LettuceConnectionFactory silentFactory = new LettuceConnectionFactory(
                    new RedisStandaloneConfiguration("127.0.0.1", silent.getLocalPort()),
                    LettuceClientConfiguration.builder()
                            .commandTimeout(Duration.ofMinutes(1))
                            .clientOptions(ClientOptions.builder()
                                    .socketOptions(SocketOptions.builder()
                                            .connectTimeout(Duration.ofMinutes(1))
                                            .build())
                                    .build())
                            .build());
            silentFactory.afterPropertiesSet();
            silentFactory.start();
            try {
                Duration timeout = Duration.ofMillis(300);
                RedisScriptExecutor executor = new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(silentFactory), timeout, new RedisRoundTrips());
                RedisWindowedCounter counter = new RedisWindowedCounter(executor, database, prefix, 100);
                long started = System.nanoTime();
                assertThatThrownBy(() -> counter.increment("orders", 1))
                        .isInstanceOf(RedisUnavailableException.class)
                        .hasMessageContaining("within PT0.3S (idgen.redis.timeout)");
                assertThatThrownBy(() -> counter.increment("orders", 1))
                        .isInstanceOf(RedisUnavailableException.class)
                        .hasMessageContaining("within PT0.3S (idgen.redis.timeout)");
                // Two timeouts, plus room for a loaded machine; a call that waited for Lettuce would take a minute.
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as("two calls against a silent Redis")
                        .isLessThan(timeout.multipliedBy(2).plus(ROOM));
            } finally {
                // The peer's sockets first: closed, they end Lettuce's calls still waiting out their minute, which
                // destroy() would otherwise wait for.
                for (Socket socket : accepted) {
                    socket.close();
                }
                silentFactory.destroy();
            }
        }
    }

    @Test
    void aRedisThatIsDownFailsFast() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        LettuceConnectionFactory downFactory = OwnRedis.connectionFactory("127.0.0.1", port);
        try {
            Duration timeout = Duration.ofMillis(500);
            RedisWindowedCounter counter = new RedisWindowedCounter(
                    new RedisScriptExecutor(
                            new SpringLettuceConnectionSource(downFactory), timeout, new RedisRoundTrips()),
                    database,
                    prefix,
                    100);
            long started = System.nanoTime();
            assertThatThrownBy(() -> counter.increment("orders", 1))
                    .isInstanceOf(RedisUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + port);
            // A refused connection is an answer: the call fails within the timeout (plus room for a loaded machine),
            // where a client that retried the connection until it came up would hang.
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("a call against a Redis that is down")
                    .isLessThan(timeout.plus(ROOM));
        } finally {
            downFactory.destroy();
        }
    }

    @Test
    void persistenceThatCouldBringBackOlderCountersIsRefused() throws Exception {
        counter(100).verifyPersistence();
        try (OwnRedis own = OwnRedis.start()) {
            LettuceConnectionFactory ownFactory = own.connectionFactory();
            try (var connection = ownFactory.getConnection()) {
                connection.serverCommands().setConfig("save", "60 1");
                RedisWindowedCounter counter = new RedisWindowedCounter(
                        new RedisScriptExecutor(
                                new SpringLettuceConnectionSource(ownFactory),
                                Duration.ofSeconds(1),
                                new RedisRoundTrips()),
                        database,
                        prefix,
                        100);
                assertThatThrownBy(counter::verifyPersistence)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("save='60 1'")
                        .hasMessageContaining("idgen.redis.verify-persistence");
                connection.serverCommands().setConfig("appendonly", "yes");
                connection.serverCommands().setConfig("appendfsync", "always");
                counter.verifyPersistence();
            } finally {
                ownFactory.destroy();
            }
        }
    }

    @Test
    void aRedisThatRefusesConfigIsReportedAsSuchNotAsDown() throws Exception {
        try (OwnRedis own = OwnRedis.start("--rename-command", "CONFIG", "")) {
            LettuceConnectionFactory ownFactory = own.connectionFactory();
            try {
                RedisWindowedCounter counter = new RedisWindowedCounter(
                        new RedisScriptExecutor(
                                new SpringLettuceConnectionSource(ownFactory),
                                Duration.ofSeconds(1),
                                new RedisRoundTrips()),
                        database,
                        prefix,
                        100);
                assertThatThrownBy(counter::verifyPersistence)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("idgen.redis.verify-persistence=false")
                        .satisfies(e -> assertThat(RedisWindowedCounter.isUnreachable((IllegalStateException) e))
                                .isFalse());
                counter.verifyPersistenceBeforeFirstWindow();
                assertThatThrownBy(() -> counter.increment("orders", 1))
                        .isInstanceOf(dev.idgen.core.IdGenerationException.class)
                        .isNotInstanceOf(RedisUnavailableException.class)
                        .hasMessageContaining("idgen.redis.verify-persistence=false");
            } finally {
                ownFactory.destroy();
            }
        }
    }

    @Test
    void aConfigGetThatLettuceTimesOutCountsAsUnreachableSoStartUpDefersTheCheck() throws Exception {
        // Lettuce's own command timeout (shorter here than idgen's) is reported as a subclass of its error-reply
        // exception; on a loaded machine it used to fail start-up as if Redis refused CONFIG GET.
        try (OwnRedis own = OwnRedis.start()) {
            LettuceConnectionFactory shortTimeouts = new LettuceConnectionFactory(
                    new org.springframework.data.redis.connection.RedisStandaloneConfiguration("127.0.0.1", own.port()),
                    org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.builder()
                            .commandTimeout(Duration.ofMillis(200))
                            .build());
            shortTimeouts.afterPropertiesSet();
            shortTimeouts.start();
            try {
                RedisScriptExecutor executor = new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(shortTimeouts),
                        Duration.ofSeconds(30),
                        new RedisRoundTrips());
                assertThat(executor.awaitReady(Duration.ofSeconds(60))).isTrue();
                RedisWindowedCounter counter = new RedisWindowedCounter(executor, database, prefix, 100);
                own.signal("STOP");
                try {
                    assertThatThrownBy(counter::verifyPersistence)
                            .isInstanceOf(IllegalStateException.class)
                            .satisfies(e -> assertThat(e.getCause())
                                    .hasRootCauseInstanceOf(io.lettuce.core.RedisCommandTimeoutException.class))
                            .satisfies(e -> assertThat(RedisWindowedCounter.isUnreachable((IllegalStateException) e))
                                    .as("a timeout is no refusal")
                                    .isTrue());
                } finally {
                    own.signal("CONT");
                }
            } finally {
                shortTimeouts.destroy();
            }
        }
    }

    @Test
    void newNamesPastTheLimitAreRefusedBeforeTouchingRedisWhileKnownNamesCarryOn() {
        RedisWindowedCounter counter = new RedisWindowedCounter(redis, database, prefix, 100, 2);
        counter.increment("orders", 1);
        counter.increment("invoices", 1);
        assertThatThrownBy(() -> counter.increment("coupons", 1))
                .isInstanceOf(dev.idgen.core.NameLimitExceededException.class)
                .hasMessageContaining("limit of 2 names");
        assertThat(counter.nameCount()).isEqualTo(2);
        assertThat(database.allocations())
                .as("no window reserved for the refused name")
                .isEqualTo(2);
        assertThat(counter.increment("orders", 1)).isEqualTo(2);
    }

    /**
     * Sets the counter of {@code name} back while its window and replication id stay: what an old master shows when it
     * answers again after a pause or partition, before the sentinels make it a replica of the node that went on
     * (ReplicatedRedisFailoverTest, partition the master under Sentinel, met it so).
     */
    private void setCounterBack(String name, long value) {
        try (var connection = factory.getConnection()) {
            connection
                    .stringCommands()
                    .set(
                            (prefix + "{" + name + "}").getBytes(StandardCharsets.UTF_8),
                            // The scripts keep counters 2^52 up (INCREMENT's offset).
                            Long.toString((1L << 52) + value).getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void aCounterBehindWhatThisProcessTookMovesToAFreshWindowAboveIt() {
        RedisWindowedCounter counter = counter(1000);
        long floor = 0;
        for (int i = 0; i < 5; i++) {
            long last = counter.incrementAbove("blocks", 50, floor);
            assertThat(last - 50).as("block %d above the floor", i).isGreaterThanOrEqualTo(floor);
            floor = last;
        }
        assertThat(floor).isEqualTo(250);
        setCounterBack("blocks", 100);
        assertThat(counter.increment("blocks", 1))
                .as("without a floor the node's stale counter answers (the window passes its check)")
                .isEqualTo(101);
        long last = counter.incrementAbove("blocks", 50, floor);
        assertThat(last - 50).as("the block after the counter went back").isGreaterThanOrEqualTo(1000);
        assertThat(counter.behindFloor()).isEqualTo(1);
        assertThat(counter.windowsReserved()).isEqualTo(2);
        assertThat(counter.incrementAbove("blocks", 50, last))
                .as("the next block follows in the fresh window, without another one")
                .isEqualTo(last + 50);
        assertThat(counter.behindFloor()).isEqualTo(1);
        assertThat(counter.windowsReserved()).isEqualTo(2);
    }

    @Test
    void aFreshWindowForAFloorAboveTheDatabaseLiesAboveTheFloor() {
        RedisWindowedCounter counter = counter(1000);
        counter.incrementAbove("blocks", 50, 0);
        // A floor the database never reached (its own data went back): the fresh window is reserved above the floor.
        long last = counter.incrementAbove("blocks", 50, 5_000);
        assertThat(last - 50).isGreaterThanOrEqualTo(5_000);
        assertThat(counter.behindFloor()).isEqualTo(1);
    }

    @Test
    void segmentsOnRedisServeOnAboveTheirOwnIdsWhenTheCounterGoesBack() {
        // One window holds every block: the counter goes back inside it, as on an old master (below the window's
        // start it would read as lost, and take the lost-data path instead).
        RedisWindowedCounter counter = counter(1_000_000);
        List<Long> ids = new ArrayList<>();
        try (SegmentIdService service = SegmentIdService.builder(new RedisSegmentStore(counter))
                .settings(SegmentSettings.builder()
                        .step(50)
                        .minStep(50)
                        .maxStep(50)
                        .awaitTimeout(Duration.ofSeconds(30))
                        .build())
                .build()) {
            for (int i = 0; i < 300; i++) {
                ids.add(service.nextId("blocks"));
            }
            setCounterBack("blocks", 10);
            // Blocks loaded ahead before the set-back serve first: draw until a load met the stale counter.
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (counter.behindFloor() == 0) {
                assertThat(System.nanoTime())
                        .as("a load after the counter went back, within 60 s")
                        .isLessThan(deadline);
                ids.add(service.nextId("blocks"));
            }
            for (int i = 0; i < 300; i++) {
                ids.add(service.nextId("blocks"));
            }
        }
        assertThat(ids).doesNotHaveDuplicates().isSorted();
        assertThat(counter.lostCounters()).isZero();
    }

    @Test
    void theDualStoreKeepsTheFloorOnItsRedisSide() {
        RedisWindowedCounter counter = counter(1_000_000);
        DualSegmentStore dual = new DualSegmentStore(new RedisSegmentStore(counter), database);
        long highest = 0;
        for (int i = 0; i < 5; i++) {
            highest = dual.allocateAbove("blocks", 50, highest).last();
        }
        setCounterBack("blocks", 10);
        assertThat(dual.allocateAbove("blocks", 50, highest).first()).isGreaterThan(highest);
        assertThat(counter.behindFloor()).isEqualTo(1);
        assertThat(counter.lostCounters()).isZero();
        assertThat(dual.fallbacks()).isZero();
    }

    @Test
    void badArgumentsNameThemselves() {
        assertThatThrownBy(() -> new RedisWindowedCounter(redis, database, "bad{prefix}", 100))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("prefix must be");
        assertThatThrownBy(() -> new RedisWindowedCounter(redis, database, prefix, 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("windowSize must be");
        assertThatThrownBy(() -> new RedisWindowedCounter(redis, database, prefix, 100, 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("maxNames must be");
        assertThatThrownBy(() -> new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(factory), Duration.ZERO, new RedisRoundTrips()))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("timeout must be");
    }
}
