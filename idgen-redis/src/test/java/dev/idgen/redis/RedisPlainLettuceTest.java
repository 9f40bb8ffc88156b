package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.redis.RedisScriptExecutor.Topology;
import dev.idgen.test.services.OwnRedisCluster;
import dev.idgen.test.services.OwnRedisNode;
import dev.idgen.test.services.OwnRedisSentinelGroup;
import dev.idgen.test.services.TestServices;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every Redis backend over an executor built with plain Lettuce ({@link RedisScriptExecutor#standalone},
 * {@link RedisScriptExecutor#sentinel}, {@link RedisScriptExecutor#cluster}), no Spring connection factory: on the
 * real Redis, through a Sentinel group and on a Cluster of the test's own, each across a failover where there is one.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RedisPlainLettuceTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration REUSE_DELAY = Duration.ofSeconds(1);
    private static final List<String> NAMES = List.of("orders", "payments", "messages", "users", "carts");

    private final String prefix = "p" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final InMemorySegmentStore database = new InMemorySegmentStore(0, Duration.ZERO);

    /** The backends under test, on one executor. */
    private final class Backends {
        final RedisWindowedCounter counter;
        final RedisIdService ids;
        final BucketedRedisSequence readable;
        final RedisWorkerIdLeaseStore leases;
        final Set<String> readableIds = new HashSet<>();

        Backends(RedisScriptExecutor redis) {
            counter = new RedisWindowedCounter(redis, database, prefix, 1000);
            ids = new RedisIdService(counter);
            readable = new BucketedRedisSequence(
                    redis, prefix, 16, 99, ZoneOffset.UTC, Duration.ofSeconds(5), TimeSource.system());
            leases = new RedisWorkerIdLeaseStore(redis, prefix);
        }

        /** Draws from every backend once the way an application would, checking what each gives. */
        void drawFromEach() throws Exception {
            counter.verifyPersistence();
            for (String name : NAMES) {
                assertThat(ids.nextIds(name, 3)).as(name).containsExactly(1, 2, 3);
                assertThat(ids.nextId(name)).as(name).isEqualTo(4);
            }
            for (int i = 0; i < 200; i++) {
                String id = readable.nextReadableId("ORD");
                assertThat(readableIds.add(id)).as("%s handed out twice", id).isTrue();
                BucketedDecodedId decoded = readable.decodeReadable(id);
                assertThat(decoded.bizCode()).isEqualTo("ORD");
                assertThat(decoded.bucket()).isEqualTo(i % 16);
                assertThat(Duration.between(decoded.timestamp(), Instant.now()).abs())
                        .isLessThan(Duration.ofMinutes(1));
            }
            Acquisition first = awaitGranted("plain-1");
            Acquisition second = awaitGranted("plain-2");
            assertThat(second.workerId()).isNotEqualTo(first.workerId());
            assertThat(leases.renew(first.workerId(), "plain-1", TTL, REUSE_DELAY, 0, true))
                    .isTrue();
            assertThat(leases.renew(first.workerId(), "plain-2", TTL, REUSE_DELAY, 0, true))
                    .as("not its owner")
                    .isFalse();
            leases.release(second.workerId(), "plain-2", 0);
        }

        /** A fresh Redis makes newcomers wait ttl + reuse delay after its start. */
        private Acquisition awaitGranted(String owner) throws InterruptedException {
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (true) {
                Acquisition acquisition = leases.acquire(owner, 1023, TTL, REUSE_DELAY);
                if (acquisition.isGranted()) {
                    return acquisition;
                }
                assertThat(System.nanoTime())
                        .as(owner + " got a worker id within " + DEADLINE)
                        .isLessThan(deadline);
                Thread.sleep(Math.max(10, Math.min(500, acquisition.retryAfterMillis())));
            }
        }
    }

    @Test
    void everyBackendOnASingleRedis() throws Exception {
        TestServices.RedisEndpoint endpoint = TestServices.redis();
        try (RedisScriptExecutor redis = RedisTests.ready(RedisScriptExecutor.standalone(
                RedisURI.create(endpoint.host(), endpoint.port()), Duration.ofSeconds(2)))) {
            assertThat(redis.topology()).isEqualTo(Topology.STANDALONE);
            assertThat(redis.describe()).isEqualTo("Redis at " + endpoint.host() + ":" + endpoint.port());
            new Backends(redis).drawFromEach();
            assertThat(redis.probeMasters())
                    .hasSize(1)
                    .allSatisfy((node, answer) -> assertThat(answer).startsWith("master"));
            assertThat(redis.reconnects()).isZero();
        } finally {
            RedisTests.deleteKeys(RedisURI.create(endpoint.host(), endpoint.port()), prefix);
        }
    }

    @Test
    void everyBackendThroughSentinelAndTheExecutorFollowsAFailover() throws Exception {
        try (OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start()) {
            RedisURI.Builder uri = RedisURI.builder().withSentinelMasterId(group.masterName());
            for (int port : group.sentinelPorts()) {
                uri.withSentinel("127.0.0.1", port);
            }
            try (RedisScriptExecutor redis =
                    RedisTests.ready(RedisScriptExecutor.sentinel(uri.build(), Duration.ofSeconds(2)))) {
                assertThat(redis.topology()).isEqualTo(Topology.SENTINEL);
                assertThat(redis.describe())
                        .startsWith("Redis Sentinel master '" + group.masterName() + "'")
                        .contains("127.0.0.1:" + group.sentinelPorts().get(0));
                OwnRedisNode old = group.master();
                assertThat(redis.probeMasters()).isEqualTo(Map.of("127.0.0.1:" + old.port(), "master, 2 replicas"));
                Backends backends = new Backends(redis);
                backends.drawFromEach();

                group.awaitReplicasCaughtUp(DEADLINE);
                group.failover();
                OwnRedisNode promoted = group.awaitNewMaster(old, DEADLINE);
                // No command runs meanwhile, so no error can prompt the reconnect: only the sentinel watch can.
                awaitTrue(() -> redis.reconnects() > 0, "the executor dropped the old master's connection");
                awaitTrue(
                        () -> redis.probeMasters().containsKey("127.0.0.1:" + promoted.port()),
                        "the executor on the new master " + promoted);

                long next = retryWithin(() -> backends.ids.nextId("orders"));
                assertThat(next)
                        .as("a fresh window: the old one was installed under the old master")
                        .isGreaterThan(1000);
                assertThat(backends.counter.failovers()).isEqualTo(1);
                String readableId = retryWithin(() -> backends.readable.nextReadableId("ORD"));
                assertThat(backends.readableIds.add(readableId))
                        .as("%s handed out twice", readableId)
                        .isTrue();
                assertThat(backends.readable.failovers())
                        .as("buckets found written under the old master")
                        .isPositive();
            }
        }
    }

    @Test
    void everyBackendOnAClusterAndTheExecutorFollowsAFailover() throws Exception {
        try (OwnRedisCluster cluster = OwnRedisCluster.start()) {
            List<RedisURI> seeds = cluster.nodes().stream()
                    .map(node -> RedisURI.create("127.0.0.1", node.port()))
                    .toList();
            try (RedisScriptExecutor redis =
                    RedisTests.ready(RedisScriptExecutor.cluster(seeds, Duration.ofSeconds(2)))) {
                assertThat(redis.topology()).isEqualTo(Topology.CLUSTER);
                assertThat(redis.describe()).startsWith("Redis Cluster (seed nodes 127.0.0.1:");
                Backends backends = new Backends(redis);
                backends.drawFromEach();
                assertThat(redis.probeMasters())
                        .hasSize(3)
                        .allSatisfy((node, answer) -> assertThat(answer).isEqualTo("master, 1 replicas"));

                OwnRedisNode old = cluster.masterForKey(prefix + "{orders}");
                OwnRedisNode replica = cluster.replicaOf(old);
                replica.awaitReplOffset(old.replOffset(), DEADLINE);
                cluster.failover(replica);
                cluster.awaitMasterForKey(prefix + "{orders}", old, DEADLINE);

                long next = retryWithin(() -> backends.ids.nextId("orders"));
                assertThat(next)
                        .as("a fresh window: the old one was installed under the old master")
                        .isGreaterThan(1000);
                assertThat(backends.counter.failovers()).isEqualTo(1);
                for (int i = 0; i < 100; i++) {
                    String readableId = retryWithin(() -> backends.readable.nextReadableId("ORD"));
                    assertThat(backends.readableIds.add(readableId))
                            .as("%s handed out twice", readableId)
                            .isTrue();
                }
            }
        }
    }

    @Test
    void badArgumentsNameThemselves() {
        RedisURI sentinelUri =
                RedisURI.Builder.sentinel("127.0.0.1", 26379, "m").build();
        assertThatThrownBy(() -> RedisScriptExecutor.standalone(null, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("uri must");
        assertThatThrownBy(() -> RedisScriptExecutor.standalone(sentinelUri, Duration.ofSeconds(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("use sentinel(");
        assertThatThrownBy(
                        () -> RedisScriptExecutor.sentinel(RedisURI.create("127.0.0.1", 6379), Duration.ofSeconds(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("uri must name the sentinels");
        assertThatThrownBy(() -> RedisScriptExecutor.cluster(List.of(), Duration.ofSeconds(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("seedNodes must")
                .satisfies(e ->
                        assertThat(((InvalidArgumentException) e).argument()).isEqualTo("seedNodes"));
        assertThatThrownBy(() -> RedisScriptExecutor.standalone(RedisURI.create("127.0.0.1", 6379), Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("timeout must")
                .satisfies(e ->
                        assertThat(((InvalidArgumentException) e).argument()).isEqualTo("timeout"));
    }

    private static void awaitTrue(Supplier<Boolean> condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.get()) {
            assertThat(System.nanoTime()).as(what + " within " + DEADLINE).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /** Calls right after a failover may fail until the client is on the new master and fences have passed. */
    private static <T> T retryWithin(Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (StoreUnavailableException e) {
                assertThat(System.nanoTime())
                        .as("an answer within " + DEADLINE + "; last: " + e.getMessage())
                        .isLessThan(deadline);
                Thread.sleep(50);
            }
        }
    }
}
