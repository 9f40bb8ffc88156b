package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.OwnRedisNode;
import dev.idgen.test.services.OwnRedisSentinelGroup;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * After a manual failover the old master stays writable until the sentinels demote it, some seconds later, and a
 * connection to it sees no error meanwhile. The executor must leave it because the sentinels name another master, not
 * because a command failed: otherwise two processes could issue readable IDs or leases on two masters at once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
// Each method has servers or keys of its own and mostly waits: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
class SentinelMasterWatchTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    /** Long: a sentinel that answers late makes the watch ask the next one, which would be the stray one. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void theExecutorFollowsTheSentinelsWithoutWaitingForAnError() throws Exception {
        try (OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start();
                RedisScriptExecutor executor = new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(group.connectionFactory(Duration.ofSeconds(2))),
                        Duration.ofSeconds(2),
                        new RedisRoundTrips())) {
            assertThat(executor.awaitReady(DEADLINE)).isTrue();
            OwnRedisNode old = group.master();
            assertThat(executor.probeMasters()).isEqualTo(Map.of("127.0.0.1:" + old.port(), "master, 2 replicas"));
            assertThat(executor.reconnects()).isZero();

            group.failover();
            OwnRedisNode promoted = group.awaitNewMaster(old, DEADLINE);

            // No command runs meanwhile, so no error can prompt the reconnect: only the watch can.
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            while (executor.reconnects() == 0) {
                assertThat(System.nanoTime())
                        .as("reconnected within " + DEADLINE)
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
            Map<String, String> masters = executor.probeMasters();
            while (!masters.containsKey("127.0.0.1:" + promoted.port())) {
                assertThat(System.nanoTime())
                        .as("on the new master within " + DEADLINE + ": " + masters)
                        .isLessThan(deadline);
                Thread.sleep(100);
                masters = executor.probeMasters();
            }
            assertThat(masters.get("127.0.0.1:" + promoted.port())).startsWith("master");
        }
    }

    /**
     * A failover between the data connection and the watch's first look at the sentinels: the sentinels' first answer
     * already names the new master, while the connection still leads to the old one. The watch must compare the
     * sentinels' answer with where the connection actually is, not take that first answer as the baseline.
     */
    @Test
    void aFailoverBeforeTheFirstLookIsFollowedToo() throws Exception {
        try (OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start()) {
            var factory = group.connectionFactory(Duration.ofSeconds(2));
            OwnRedisNode old = group.master();
            // The factory's shared connection is opened now, to the old master.
            try (var connection = factory.getConnection()) {
                assertThat(connection.ping()).isEqualTo("PONG");
            }
            group.failover();
            OwnRedisNode promoted = group.awaitNewMaster(old, DEADLINE);

            try (RedisScriptExecutor executor = new RedisScriptExecutor(
                    new SpringLettuceConnectionSource(factory), Duration.ofSeconds(2), new RedisRoundTrips())) {
                assertThat(executor.awaitReady(DEADLINE)).isTrue();
                // No command of the executor's can fail meanwhile (PING answers on a demoted master): only the watch
                // can move it.
                long deadline = System.nanoTime() + DEADLINE.toNanos();
                while (executor.reconnects() == 0) {
                    assertThat(System.nanoTime())
                            .as("reconnected within " + DEADLINE + " although the sentinels" + " named " + promoted
                                    + " from the start")
                            .isLessThan(deadline);
                    Thread.sleep(20);
                }
                Map<String, String> masters = executor.probeMasters();
                while (!masters.containsKey("127.0.0.1:" + promoted.port())) {
                    assertThat(System.nanoTime())
                            .as("on the new master within " + DEADLINE + ": " + masters)
                            .isLessThan(deadline);
                    Thread.sleep(100);
                    masters = executor.probeMasters();
                }
                assertThat(masters.get("127.0.0.1:" + promoted.port())).startsWith("master");
            }
        }
    }

    /**
     * A paused master that resumes after the failover takes writes until the sentinels demote it, and a reconnect can
     * be led back to it by a sentinel that has not learnt of the failover yet (ReplicatedRedisFailoverTest met it: the
     * watch took the two addresses for one node behind NAT and stopped comparing, and the process issued on the old
     * master). Here a sentinel outside the group names another server under the group's master name, and every
     * reconnect lands there: the watch must keep reconnecting, however often, and never take it for NAT.
     */
    @Test
    void aSentinelThatStillNamesTheOldMasterIsNotTakenForNat() throws Exception {
        try (OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start()) {
            List<OwnRedisNode> stray = group.startStraySentinel();
            String strayAddress = "127.0.0.1:" + stray.get(0).port();
            List<RedisURI> sentinels = List.of(
                    RedisURI.create("127.0.0.1", group.sentinelPorts().get(0)),
                    RedisURI.create("127.0.0.1", stray.get(1).port()));
            // Every reconnect asks the stray sentinel and reaches its server again.
            try (WatchReaching reaching = new WatchReaching(sentinels, strayAddress)) {
                SentinelMasterWatch watch = reaching.watch;
                AtomicInteger switches = reaching.switches;
                long started = System.nanoTime();
                long deadline = started + DEADLINE.toNanos();
                // Past twice the time after which a mismatch that no sentinel names is taken for NAT.
                long past = 2 * SentinelMasterWatch.NAT_SETTLE.toNanos();
                while (switches.get() < 3 * SentinelMasterWatch.NAT_EVIDENCE || System.nanoTime() - started < past) {
                    assertThat(watch.takenAsOneNode())
                            .as("taken for NAT after %d reconnects", switches.get())
                            .isFalse();
                    assertThat(System.nanoTime())
                            .as("%d reconnects within %s", 3 * SentinelMasterWatch.NAT_EVIDENCE, DEADLINE)
                            .isLessThan(deadline);
                    Thread.sleep(20);
                }
                assertThat(watch.takenAsOneNode()).isFalse();
            }
        }
    }

    /**
     * Behind NAT the server's own address for the connection is not the one the sentinels announce, and no sentinel
     * names it: after {@link SentinelMasterWatch#NAT_EVIDENCE} reconnects that reach it again, over
     * {@link SentinelMasterWatch#NAT_SETTLE}, the watch takes them as one node, instead of reconnecting for ever.
     */
    @Test
    void anAddressNoSentinelNamesIsTakenForNatAfterAFewReconnects() throws Exception {
        try (OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start()) {
            // 127.0.0.2 reaches the same server on Linux, under an address no sentinel announces.
            String natAddress = "127.0.0.2:" + group.master().port();
            List<RedisURI> sentinels = group.sentinelPorts().stream()
                    .map(port -> RedisURI.create("127.0.0.1", port))
                    .toList();
            try (WatchReaching reaching = new WatchReaching(sentinels, natAddress)) {
                SentinelMasterWatch watch = reaching.watch;
                AtomicInteger switches = reaching.switches;
                long deadline = System.nanoTime() + DEADLINE.toNanos();
                while (!watch.takenAsOneNode()) {
                    assertThat(System.nanoTime())
                            .as("taken for NAT within " + DEADLINE)
                            .isLessThan(deadline);
                    Thread.sleep(20);
                }
                long settleIntervals =
                        SentinelMasterWatch.NAT_SETTLE.toMillis() / SentinelMasterWatch.INTERVAL.toMillis();
                assertThat(switches.get())
                        .as("reconnects before the addresses were taken for one node")
                        .isBetween(SentinelMasterWatch.NAT_EVIDENCE, 2 * (int) settleIntervals + 2);
            }
        }
    }

    /**
     * A watch over {@code sentinels} whose data connection reaches {@code address}, and reaches it again after every
     * reconnect the watch asks for (counted in {@link #switches}).
     */
    private static final class WatchReaching implements AutoCloseable {
        final RedisClient client = RedisClient.create();
        final AtomicInteger switches = new AtomicInteger();
        final SentinelMasterWatch watch;

        WatchReaching(List<RedisURI> sentinels, String address) {
            AtomicReference<SentinelMasterWatch> watching = new AtomicReference<>();
            try {
                watch = new SentinelMasterWatch(client, OwnRedisSentinelGroup.MASTER_NAME, sentinels, TIMEOUT, () -> {
                    switches.incrementAndGet();
                    watching.get().reached(address);
                });
            } catch (RuntimeException e) {
                client.shutdown();
                throw e;
            }
            watching.set(watch);
            watch.reached(address);
        }

        @Override
        public void close() {
            watch.close();
            client.shutdown();
        }
    }
}
