package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.test.services.OwnRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Lettuce resends, after a reconnect, every command that was sent but not answered (at least once). The scenario that
 * repeated IDs, on real servers of the test's own and a proxy that loses one reply:
 * <ol>
 * <li>instance P1 reserves a window from the database; its install runs on node A, and the reply is lost with the
 * connection;</li>
 * <li>instance P2 takes values from that window on A;</li>
 * <li>A comes back empty (a restart without persistence), or P1's reconnect reaches another node B;</li>
 * <li>Lettuce resends the install there, within P1's timeout.</li>
 * </ol>
 * P1 must then repeat none of P2's values, and both must serve again afterwards.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RedisReplayTest {

    static final Duration DEADLINE = Duration.ofSeconds(90);
    /** Long enough that the replay, after the test restarted a server, still falls within the call. */
    static final Duration P1_TIMEOUT = Duration.ofSeconds(30);

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            try {
                closing.get(i).close();
            } catch (Exception e) {
                // the servers go anyway
            }
        }
    }

    private <T extends AutoCloseable> T closing(T resource) {
        closing.add(resource);
        return resource;
    }

    enum Disruption {
        /** A restarts without its data. */
        RESTART_EMPTY,
        /** P1's reconnect reaches another node. */
        OTHER_NODE
    }

    @Test
    void ownClientReplayOnARestartedEmptyNodeRepeatsNothing() throws Exception {
        scenario(
                port -> RedisScriptExecutor.standalone(RedisURI.create("redis://127.0.0.1:" + port), P1_TIMEOUT),
                Disruption.RESTART_EMPTY);
    }

    @Test
    void ownClientReplayOnAnotherNodeRepeatsNothing() throws Exception {
        scenario(
                port -> RedisScriptExecutor.standalone(RedisURI.create("redis://127.0.0.1:" + port), P1_TIMEOUT),
                Disruption.OTHER_NODE);
    }

    @Test
    void springFactoryReplayOnARestartedEmptyNodeRepeatsNothing() throws Exception {
        scenario(this::springExecutor, Disruption.RESTART_EMPTY);
    }

    @Test
    void springFactoryReplayOnAnotherNodeRepeatsNothing() throws Exception {
        scenario(this::springExecutor, Disruption.OTHER_NODE);
    }

    /** Spring's factory with Lettuce's default client options (at least once), as an application has it. */
    private RedisScriptExecutor springExecutor(int port) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", port),
                LettuceClientConfiguration.builder()
                        .commandTimeout(P1_TIMEOUT.multipliedBy(2))
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        closing(factory::destroy);
        return new RedisScriptExecutor(new SpringLettuceConnectionSource(factory), P1_TIMEOUT, new RedisRoundTrips());
    }

    private void scenario(Function<Integer, RedisScriptExecutor> p1Executor, Disruption disruption) throws Exception {
        OwnRedis a = closing(OwnRedis.start());
        OwnRedis b = closing(OwnRedis.start());
        ReplayingProxy proxy = closing(ReplayingProxy.to(a.port()));
        loadScripts(a.uri());
        loadScripts(b.uri());
        InMemorySegmentStore database = new InMemorySegmentStore(0, Duration.ZERO);
        RedisScriptExecutor e1 = closing(RedisTests.ready(p1Executor.apply(proxy.port())));
        RedisScriptExecutor e2 = closing(
                RedisTests.ready(RedisScriptExecutor.standalone(RedisURI.create(a.uri()), Duration.ofSeconds(5))));
        RedisWindowedCounter p1 = new RedisWindowedCounter(e1, database, "replay:", 1000);
        RedisWindowedCounter p2 = new RedisWindowedCounter(e2, database, "replay:", 1000);

        // 1. P1's install runs on A; its reply is lost, the connection held.
        CompletableFuture<Void> swallowed =
                proxy.swallowNextReplyTo(RedisWindowedCounter.INSTALL.sha1().getBytes(StandardCharsets.US_ASCII));
        CompletableFuture<Long> p1First = CompletableFuture.supplyAsync(() -> p1.increment("orders", 1));
        swallowed.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

        // 2. P2 takes values from the window P1 installed.
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            assertThat(issued.add(p2.increment("orders", 1))).isTrue();
        }
        assertThat(issued).as("P2 counted in the window P1 installed").containsExactlyInAnyOrder(1L, 2L, 3L);

        // 3. A comes back empty, or P1's reconnect leads to B.
        if (disruption == Disruption.RESTART_EMPTY) {
            a.kill();
            a.startServer();
        } else {
            proxy.target(b.port());
        }
        proxy.releaseHeld();

        // 4. Lettuce resends the install (and the executor may EVAL it after a NOSCRIPT); P1's call ends.
        Long first = null;
        try {
            first = p1First.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            // Refusing is allowed; repeating is not.
            assertThat(e.getCause()).isInstanceOf(IdGenerationException.class);
        }
        if (first != null) {
            assertThat(issued)
                    .as("P1's first value after the replay (%s) repeats one of P2's", first)
                    .doesNotContain(first);
            issued.add(first);
        }

        // Both serve again, and nothing repeats.
        List<Long> p1After = new ArrayList<>();
        List<Long> p2After = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long value = awaitValue(() -> p1.increment("orders", 1));
            assertThat(issued.add(value))
                    .as("P1's %s repeats; issued %s", value, issued)
                    .isTrue();
            p1After.add(value);
            value = awaitValue(() -> p2.increment("orders", 1));
            assertThat(issued.add(value))
                    .as("P2's %s repeats; issued %s", value, issued)
                    .isTrue();
            p2After.add(value);
        }
        System.out.println("replay " + disruption + ": P2 took 1, 2, 3; P1's replayed call answered " + first
                + " (refused installs " + p1.refusedInstalls() + "), then P1 " + p1After + ", P2 " + p2After);
    }

    /**
     * Sentinel: P1's install runs on the master and its reply is lost; P2 (through the sentinels, on Spring's factory)
     * takes values from the window; the replicas missed all of it (frozen meanwhile); the master dies, the sentinels
     * promote a replica, and P1's reconnect, resending the install, reaches the new master.
     */
    @Test
    void replayOnThePromotedReplicaAfterASentinelFailoverRepeatsNothing() throws Exception {
        dev.idgen.test.services.OwnRedisSentinelGroup group =
                closing(dev.idgen.test.services.OwnRedisSentinelGroup.start());
        dev.idgen.test.services.OwnRedisNode master = group.master();
        ReplayingProxy proxy = closing(ReplayingProxy.to(master.port()));
        loadScripts("redis://127.0.0.1:" + master.port());
        InMemorySegmentStore database = new InMemorySegmentStore(0, Duration.ZERO);
        RedisScriptExecutor e1 =
                closing(RedisTests.ready(RedisScriptExecutor.standalone(RedisURI.create(proxy.uri()), P1_TIMEOUT)));
        RedisScriptExecutor e2 = closing(RedisTests.ready(new RedisScriptExecutor(
                new SpringLettuceConnectionSource(group.connectionFactory(Duration.ofSeconds(5))),
                Duration.ofSeconds(5),
                new RedisRoundTrips())));
        RedisWindowedCounter p1 = new RedisWindowedCounter(e1, database, "replay:", 1000);
        RedisWindowedCounter p2 = new RedisWindowedCounter(e2, database, "replay:", 1000);
        List<dev.idgen.test.services.OwnRedisNode> replicas = group.replicas();
        for (var replica : replicas) {
            replica.signal("STOP");
        }
        // Cut the replication links while the replicas are frozen: what the master writes from now on never reaches
        // them (data already in a socket would still arrive after they resume).
        master.call("CLIENT", "KILL", "TYPE", "replica");
        try {
            CompletableFuture<Void> swallowed =
                    proxy.swallowNextReplyTo(RedisWindowedCounter.INSTALL.sha1().getBytes(StandardCharsets.US_ASCII));
            CompletableFuture<Long> p1First = CompletableFuture.supplyAsync(() -> p1.increment("orders", 1));
            swallowed.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            Set<Long> issued = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                assertThat(issued.add(p2.increment("orders", 1))).isTrue();
            }
            assertThat(issued).containsExactlyInAnyOrder(1L, 2L, 3L);
            master.kill();
            for (var replica : replicas) {
                replica.signal("CONT");
            }
            dev.idgen.test.services.OwnRedisNode promoted = group.awaitNewMaster(master, DEADLINE);
            proxy.target(promoted.port());
            proxy.releaseHeld();

            Long first = null;
            try {
                first = p1First.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(IdGenerationException.class);
            }
            if (first != null) {
                assertThat(issued)
                        .as("P1's first value after the replay (%s) repeats one of P2's", first)
                        .doesNotContain(first);
                issued.add(first);
            }
            List<Long> p1After = new ArrayList<>();
            List<Long> p2After = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long value = awaitValue(() -> p1.increment("orders", 1));
                assertThat(issued.add(value))
                        .as("P1's %s repeats; issued %s", value, issued)
                        .isTrue();
                p1After.add(value);
                value = awaitValue(() -> p2.increment("orders", 1));
                assertThat(issued.add(value))
                        .as("P2's %s repeats; issued %s", value, issued)
                        .isTrue();
                p2After.add(value);
            }
            System.out.println("replay SENTINEL_FAILOVER: P2 took 1, 2, 3; P1's replayed call answered " + first
                    + " (refused installs " + p1.refusedInstalls() + "), then P1 " + p1After + ", P2 " + p2After);
        } finally {
            for (var replica : replicas) {
                if (replica.processState() == 'T') {
                    replica.signal("CONT");
                }
            }
        }
    }

    /** Retries while Redis is unavailable (a client still reconnecting), within {@link #DEADLINE}. */
    static long awaitValue(java.util.function.LongSupplier call) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            try {
                return call.getAsLong();
            } catch (IdGenerationException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("No value within " + DEADLINE + ": " + e.getMessage(), e);
                }
                Thread.sleep(50);
            }
        }
    }

    /** Loads the counter's scripts, so that P1 sends the install as EVALSHA with the SHA the proxy looks for. */
    static void loadScripts(String uri) {
        RedisClient client = RedisClient.create(uri);
        try (var connection = client.connect()) {
            connection.sync().scriptLoad(RedisWindowedCounter.INSTALL.source());
            connection.sync().scriptLoad(RedisWindowedCounter.INCREMENT.source());
        } finally {
            client.shutdown();
        }
    }
}
