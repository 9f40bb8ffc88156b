package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.redis.RedisRoundTrips.Outcome;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Right after a failover every bucket is fenced for {@link BucketedRedisSequence#FAILOVER_FENCE}. A round trip must
 * wait for the fence to end rather than sweep the fenced buckets again and again (which cost thousands of scripts per
 * round trip). The fence is made here as a failover leaves it: each bucket's {@code replid} names another master.
 */
class BucketedRedisFenceWaitTest {

    private static final int BUCKETS = 4;

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final LettuceConnectionFactory factory = OwnRedis.connectionFactory(
            TestServices.redis().host(), TestServices.redis().port());

    @AfterEach
    void close() {
        OwnRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    private RedisScriptExecutor executor(Duration timeout) {
        return RedisTests.ready(
                new RedisScriptExecutor(new SpringLettuceConnectionSource(factory), timeout, new RedisRoundTrips()));
    }

    private BucketedRedisSequence sequence(RedisScriptExecutor redis) {
        return new BucketedRedisSequence(
                redis, prefix, BUCKETS, 999, ZoneOffset.UTC, Duration.ofSeconds(5), TimeSource.system());
    }

    /** What a failover leaves: every bucket written under a master other than the one answering now. */
    private void writtenUnderAnotherMaster() {
        try (var connection = factory.getConnection()) {
            for (int i = 0; i < BUCKETS; i++) {
                connection
                        .hashCommands()
                        .hSet(
                                (prefix + "bucket:{" + i + "}").getBytes(StandardCharsets.UTF_8),
                                "replid".getBytes(StandardCharsets.UTF_8),
                                "0000000000000000000000000000000000000000".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private static long scripts(RedisScriptExecutor redis) {
        return redis.roundTrips().count(Outcome.SUCCESS)
                + redis.roundTrips().count(Outcome.ERROR)
                + redis.roundTrips().count(Outcome.TIMEOUT);
    }

    @Test
    void aRoundTripWaitsForTheFenceInsteadOfSweepingTheBuckets() {
        RedisScriptExecutor redis = executor(Duration.ofSeconds(5));
        BucketedRedisSequence sequence = sequence(redis);
        for (int i = 0; i < BUCKETS; i++) {
            sequence.nextReadableId("F");
        }
        writtenUnderAnotherMaster();
        long before = scripts(redis);

        String id = sequence.nextReadableId("F");

        long spent = scripts(redis) - before;
        System.out.println("fence wait: " + spent + " scripts for one ID across a "
                + BucketedRedisSequence.FAILOVER_FENCE + " fence of " + BUCKETS + " buckets");
        assertThat(sequence.failovers()).isEqualTo(BUCKETS);
        assertThat(sequence.decodeReadable(id).bizCode()).isEqualTo("F");
        // One pass that fences every bucket, then one script once the fence ended; a little slack for a bucket that
        // a slow machine finds still fenced by a millisecond.
        assertThat(spent).as("scripts for one ID across the fence").isLessThanOrEqualTo(3L * BUCKETS);
    }

    @Test
    void aFenceLongerThanTheTimeoutFailsAtOnceWithoutSweeping() {
        RedisScriptExecutor redis = executor(Duration.ofMillis(300));
        BucketedRedisSequence sequence = sequence(redis);
        for (int i = 0; i < BUCKETS; i++) {
            sequence.nextReadableId("F");
        }
        writtenUnderAnotherMaster();
        long before = scripts(redis);

        assertThatThrownBy(() -> sequence.nextReadableId("F"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("fenced");

        long spent = scripts(redis) - before;
        System.out.println("fence longer than the timeout: " + spent + " scripts before the refusal");
        assertThat(spent).as("scripts before the refusal").isLessThanOrEqualTo(BUCKETS);
    }
}
