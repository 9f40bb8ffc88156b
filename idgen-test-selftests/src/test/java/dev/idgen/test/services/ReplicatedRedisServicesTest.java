package dev.idgen.test.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Checks the test's own replicated Redis services themselves: a Sentinel group and a Cluster each form, lose the
 * master that holds a key to SIGKILL, promote its replica with the key still there, and a Lettuce connection factory
 * made before the failover serves reads and writes again afterwards. The fault tests of the Redis backends rely on
 * exactly that, so a failure here points at the services (or the machine), not at idgen.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
// Each method starts servers of its own and mostly waits on them: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
class ReplicatedRedisServicesTest {

    /** Short, as the backends' own timeouts are: commands to the dead master must fail fast, not hang. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    /** Generous, for a loaded machine: the sentinels or the cluster decide in seconds, Lettuce may take longer. */
    private static final Duration FAILOVER_DEADLINE = Duration.ofSeconds(120);

    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    @Test
    void sentinelGroupPromotesAReplicaAndTheSameFactoryFollowsIt() throws Exception {
        long starting = System.nanoTime();
        try (OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start()) {
            log(
                    "Sentinel group formed in %d ms: data nodes %s, sentinels %s",
                    millisSince(starting), group.nodes(), group.sentinelPorts());
            LettuceConnectionFactory factory = group.connectionFactory(COMMAND_TIMEOUT);
            StringRedisTemplate redis = template(factory);
            String before = "idgen:replicated:" + tag + ":before";
            String after = "idgen:replicated:" + tag + ":after";

            redis.opsForValue().set(before, "written-before");
            assertThat(redis.opsForValue().get(before)).isEqualTo("written-before");
            OwnRedisNode old = group.master();
            assertThat(old).isSameAs(group.nodes().get(0));
            assertThat(old.call("GET", before))
                    .as("the write went to the master the sentinels name")
                    .isEqualTo("written-before");
            assertThat(group.replicas()).hasSize(2).doesNotContain(old);
            group.awaitReplicasCaughtUp(Duration.ofSeconds(60));

            old.kill();
            long killed = System.nanoTime();
            assertThat(old.alive()).isFalse();
            OwnRedisNode promoted = group.awaitNewMaster(old, FAILOVER_DEADLINE);
            log("Sentinels promoted %s %d ms after the master %s was killed", promoted, millisSince(killed), old);
            assertThat(promoted).isNotSameAs(old);
            assertThat(promoted.port()).isNotEqualTo(old.port());
            assertThat(group.master()).isSameAs(promoted);
            assertThat(group.replicas()).hasSize(1).doesNotContain(old, promoted);

            String read = retry(
                    "read and write through the Sentinel factory after the failover",
                    () -> {
                        redis.opsForValue().set(after, "written-after");
                        return redis.opsForValue().get(before);
                    },
                    killed);
            assertThat(read)
                    .as("the write made before the failover survived it")
                    .isEqualTo("written-before");
            assertThat(redis.opsForValue().get(after)).isEqualTo("written-after");
            assertThat(promoted.call("GET", after))
                    .as("the write after the failover went to the new master")
                    .isEqualTo("written-after");

            long restarting = System.nanoTime();
            old.restart();
            old.awaitRole("slave", FAILOVER_DEADLINE);
            OwnRedisNode.await(
                    FAILOVER_DEADLINE,
                    old + " to copy the new master's data",
                    () -> "written-after".equals(old.call("GET", after)));
            log(
                    "The old master came back empty and the sentinels made it a replica of %s in %d ms",
                    promoted, millisSince(restarting));
            assertThat(group.master()).isSameAs(promoted);
        }
    }

    @Test
    void clusterPromotesTheReplicaOfTheKeysMasterAndTheSameFactoryFollowsIt() throws Exception {
        long starting = System.nanoTime();
        try (OwnRedisCluster cluster = OwnRedisCluster.start()) {
            log("Cluster formed in %d ms: %s", millisSince(starting), cluster.nodes());
            LettuceConnectionFactory factory = cluster.connectionFactory(COMMAND_TIMEOUT);
            StringRedisTemplate redis = template(factory);
            // One hash tag: both keys live in the same slot, so on the same master.
            String before = "idgen:{replicated-" + tag + "}:before";
            String after = "idgen:{replicated-" + tag + "}:after";
            assertThat(cluster.slot(before)).isEqualTo(cluster.slot(after));

            redis.opsForValue().set(before, "written-before");
            assertThat(redis.opsForValue().get(before)).isEqualTo("written-before");
            OwnRedisNode old = cluster.masterForKey(before);
            assertThat(old.role()).isEqualTo("master");
            assertThat(old.call("GET", before))
                    .as("the write went to the master of the key's slot")
                    .isEqualTo("written-before");
            OwnRedisNode replica = cluster.replicaOf(old);
            assertThat(replica).isNotSameAs(old);
            assertThat(replica.role()).isEqualTo("slave");
            replica.awaitReplOffset(old.replOffset(), Duration.ofSeconds(60));

            old.kill();
            long killed = System.nanoTime();
            OwnRedisNode promoted = cluster.awaitMasterForKey(before, old, FAILOVER_DEADLINE);
            log(
                    "Cluster moved slot %d from %s to %s %d ms after the kill",
                    cluster.slot(before), old, promoted, millisSince(killed));
            assertThat(promoted).isSameAs(replica);
            assertThat(promoted.port()).isNotEqualTo(old.port());
            assertThat(cluster.masterForKey(before)).isSameAs(promoted);

            String read = retry(
                    "read and write through the Cluster factory after the failover",
                    () -> {
                        redis.opsForValue().set(after, "written-after");
                        return redis.opsForValue().get(before);
                    },
                    killed);
            assertThat(read)
                    .as("the write made before the failover survived it")
                    .isEqualTo("written-before");
            assertThat(redis.opsForValue().get(after)).isEqualTo("written-after");
            assertThat(promoted.call("GET", after))
                    .as("the write after the failover went to the new master")
                    .isEqualTo("written-after");

            long restarting = System.nanoTime();
            old.restart();
            old.awaitRole("slave", FAILOVER_DEADLINE);
            OwnRedisNode.await(
                    FAILOVER_DEADLINE,
                    old + " to become the replica of " + promoted + " and catch up",
                    () -> cluster.replicaOf(promoted) == old && old.replOffset() >= promoted.replOffset());
            log(
                    "The old master came back empty and rejoined as the replica of %s in %d ms",
                    promoted, millisSince(restarting));
            assertThat(cluster.masterForKey(before)).isSameAs(promoted);
        }
    }

    private static StringRedisTemplate template(LettuceConnectionFactory factory) {
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }

    /**
     * Repeats {@code action} until it succeeds, for at most {@link #FAILOVER_DEADLINE}: right after a failover the
     * client may still be reconnecting, or talking to the dead master, and each attempt may fail with a timeout.
     */
    private static <T> T retry(String what, Callable<T> action, long killed) throws Exception {
        long start = System.nanoTime();
        long deadline = start + FAILOVER_DEADLINE.toNanos();
        int failures = 0;
        RuntimeException first = null;
        RuntimeException last = null;
        while (true) {
            try {
                T result = action.call();
                log(
                        "%s: succeeded after %d failed attempts, %d ms after the failover was seen, %d ms after the kill"
                                + "%s",
                        what,
                        failures,
                        millisSince(start),
                        millisSince(killed),
                        first == null ? "" : "; first failure: " + first + "; last failure: " + last);
                return result;
            } catch (RuntimeException e) {
                failures++;
                if (first == null) {
                    first = e;
                }
                last = e;
            }
            if (System.nanoTime() > deadline) {
                AssertionError timeout = new AssertionError(
                        "Could not " + what + " within " + FAILOVER_DEADLINE.toSeconds() + " s (" + failures
                                + " attempts)",
                        last);
                timeout.addSuppressed(first);
                throw timeout;
            }
            Thread.sleep(100);
        }
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static void log(String format, Object... args) {
        System.out.println("[ReplicatedRedisServicesTest] " + String.format(format, args));
    }
}
