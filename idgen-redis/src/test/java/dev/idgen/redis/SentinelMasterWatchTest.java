package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.OwnRedisNode;
import dev.idgen.test.services.OwnRedisSentinelGroup;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * After a manual failover the old master stays writable until the sentinels demote it, some seconds later, and a
 * connection to it sees no error meanwhile. The executor must leave it because the sentinels name another master, not
 * because a command failed: otherwise two processes could issue readable IDs or leases on two masters at once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SentinelMasterWatchTest {

    private static final Duration DEADLINE = Duration.ofSeconds(90);

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
}
