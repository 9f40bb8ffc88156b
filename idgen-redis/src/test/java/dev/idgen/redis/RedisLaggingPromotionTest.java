package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.services.OwnRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The failover that repeats IDs in Redis-based generators, on two real {@code redis-server}s of the test's own: a
 * replica stops following its master (SIGSTOP) while the master goes on; the master dies; the replica resumes and is
 * promoted ({@code REPLICAOF NO ONE}) with the older copy. The scripts must notice that the data they find was written
 * under another master and not trust it. (The Sentinel and Cluster tests do the same through the sentinels and the
 * cluster's own failover, with separate JVMs.)
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
// Each method has servers or keys of its own and mostly waits: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
class RedisLaggingPromotionTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private OwnRedis master;
    private OwnRedis replica;

    @BeforeEach
    void startMasterAndReplica() throws Exception {
        master = OwnRedis.start();
        replica = OwnRedis.start("--replicaof", "127.0.0.1", Integer.toString(master.port()));
    }

    @AfterEach
    void stop() throws Exception {
        factories.forEach(LettuceConnectionFactory::destroy);
        replica.signal("CONT");
        replica.close();
        master.close();
    }

    private RedisScriptExecutor executor(OwnRedis redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        factories.add(factory);
        return RedisTests.ready(new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofSeconds(2), new RedisRoundTrips()));
    }

    /** Waits until the replica has everything the master wrote, then stops it: it misses what follows. */
    private void replicaFallsBehind() throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            Properties onMaster = info(master);
            Properties onReplica = info(replica);
            if ("up".equals(onReplica.getProperty("master_link_status"))
                    && onMaster.getProperty("master_repl_offset").equals(onReplica.getProperty("slave_repl_offset"))) {
                break;
            }
            assertThat(System.nanoTime())
                    .as("the replica caught up within " + DEADLINE)
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
        replica.signal("STOP");
    }

    /** The master dies; the replica resumes with its older copy and is made master. */
    private void promoteTheLaggingReplica() throws Exception {
        master.kill();
        replica.signal("CONT");
        try (var connection = replica.connectionFactory().getConnection()) {
            connection.serverCommands().replicaOfNoOne();
        }
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!"master".equals(info(replica).getProperty("role"))) {
            assertThat(System.nanoTime())
                    .as("the replica became master within " + DEADLINE)
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static Properties info(OwnRedis redis) {
        LettuceConnectionFactory factory = redis.connectionFactory();
        try (var connection = factory.getConnection()) {
            return connection.serverCommands().info("replication");
        } finally {
            factory.destroy();
        }
    }

    @Test
    void theCounterContinuesAboveEverythingTheOldMasterHandedOut() throws Exception {
        InMemorySegmentStore database = new InMemorySegmentStore(0, Duration.ZERO);
        RedisWindowedCounter onMaster = new RedisWindowedCounter(executor(master), database, "lag:", 1000);
        List<Long> handedOut = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            handedOut.add(onMaster.increment("orders", 1));
        }
        replicaFallsBehind();
        for (int i = 0; i < 100; i++) {
            handedOut.add(onMaster.increment("orders", 1));
        }
        assertThat(handedOut).endsWith(200L);
        promoteTheLaggingReplica();

        RedisWindowedCounter onPromoted = new RedisWindowedCounter(executor(replica), database, "lag:", 1000);
        long next = onPromoted.increment("orders", 1);

        // The replica's copy of the counter stood at 100: without the check it would have answered 101.
        assertThat(next).isGreaterThan(1000);
        assertThat(onPromoted.failovers()).isEqualTo(1);
        assertThat(onPromoted.increment("orders", 1)).isEqualTo(next + 1);
    }

    @Test
    void aWorkerIdAcquiredOnlyOnTheOldMasterIsNotHandedOutAgainUntilItsHolderHadTimeToStop() throws Exception {
        // Long enough that the first lease is still held when the second is taken, however slowly a busy machine gets
        // the replica to fall behind in between.
        Duration ttl = Duration.ofSeconds(10);
        Duration reuseDelay = Duration.ofSeconds(2);
        RedisWorkerIdLeaseStore onMaster = new RedisWorkerIdLeaseStore(executor(master), "lag:");
        // A fresh server makes newcomers wait ttl + reuse delay after its start: wait that out once.
        Acquisition first = awaitGranted(onMaster, "first", ttl, reuseDelay);
        replicaFallsBehind();
        Acquisition second = onMaster.acquire("second", 1023, ttl, reuseDelay);
        assertThat(second.workerId()).isEqualTo(first.workerId() + 1);
        promoteTheLaggingReplica();

        RedisWorkerIdLeaseStore onPromoted = new RedisWorkerIdLeaseStore(executor(replica), "lag:");
        long seen = System.nanoTime();
        Acquisition newcomer = onPromoted.acquire("newcomer", 1023, ttl, reuseDelay);

        // The promoted copy shows the second worker id as free: it must not hand it out yet.
        assertThat(newcomer.isGranted()).isFalse();
        // Counted from the promoted server's start, which a busy machine may have reached seconds before this call:
        // still well beyond one lease and its reuse delay.
        assertThat(newcomer.retryAfterMillis())
                .isBetween(ttl.toMillis() + reuseDelay.toMillis() + 1000, 2 * ttl.toMillis() + reuseDelay.toMillis());
        // The holder whose acquisition was lost renews: it takes its id back, as after a restart.
        assertThat(onPromoted.renew(second.workerId(), "second", ttl, reuseDelay, 0, true))
                .isTrue();
        Acquisition later = awaitGranted(onPromoted, "newcomer", ttl, reuseDelay);
        assertThat(Duration.ofNanos(System.nanoTime() - seen))
                .isGreaterThanOrEqualTo(ttl.multipliedBy(2).plus(reuseDelay).minusMillis(1000));
        // The first holder never renewed, so its id is free by now; the second renewed on the promoted master.
        assertThat(later.workerId()).isNotEqualTo(second.workerId());
    }

    private static Acquisition awaitGranted(
            RedisWorkerIdLeaseStore store, String owner, Duration ttl, Duration reuseDelay)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            Acquisition acquisition = store.acquire(owner, 1023, ttl, reuseDelay);
            if (acquisition.isGranted()) {
                return acquisition;
            }
            assertThat(System.nanoTime())
                    .as(owner + " got a worker id within " + DEADLINE)
                    .isLessThan(deadline);
            Thread.sleep(Math.max(10, Math.min(500, acquisition.retryAfterMillis())));
        }
    }

    @Test
    void readableIdsOfThePromotedReplicaDifferFromEveryOneTheOldMasterGave() throws Exception {
        BucketedRedisSequence onMaster = new BucketedRedisSequence(
                executor(master),
                "lag:",
                2,
                9,
                java.time.ZoneOffset.UTC,
                Duration.ofSeconds(1),
                dev.idgen.core.TimeSource.system());
        java.util.Set<String> handedOut = new java.util.HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertThat(handedOut.add(onMaster.nextReadableId("T"))).isTrue();
        }
        replicaFallsBehind();
        for (int i = 0; i < 200; i++) {
            assertThat(handedOut.add(onMaster.nextReadableId("T"))).isTrue();
        }
        promoteTheLaggingReplica();
        java.time.Instant lastOld = handedOut.stream()
                .map(id -> onMaster.decodeReadable(id).timestamp())
                .max(java.util.Comparator.naturalOrder())
                .orElseThrow();
        BucketedRedisSequence onPromoted = new BucketedRedisSequence(
                executor(replica),
                "lag:",
                2,
                9,
                java.time.ZoneOffset.UTC,
                Duration.ofSeconds(1),
                dev.idgen.core.TimeSource.system());
        String first = onPromoted.nextReadableId("T");
        // Both buckets were found written under the old master and fenced: the new IDs start past the fence.
        assertThat(onPromoted.failovers()).isEqualTo(2);
        assertThat(onPromoted.decodeReadable(first).timestamp())
                .isAfter(lastOld.plus(BucketedRedisSequence.FAILOVER_FENCE));
        assertThat(handedOut.add(first)).isTrue();
        for (int i = 0; i < 400; i++) {
            String id = onPromoted.nextReadableId("T");
            assertThat(handedOut.add(id)).as("%s handed out twice", id).isTrue();
        }
    }
}
