package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The dual store against a Redis of the test's own that stops answering for a while with its data intact (SIGSTOP
 * past the timeout, then SIGCONT), and MariaDB.
 */
class DualSegmentStoreTest {

    private final String table =
            "idgen_dual_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final String prefix = "d" + UUID.randomUUID().toString().substring(0, 6) + ":";
    private OwnRedis ownRedis;
    private LettuceConnectionFactory factory;
    private HikariDataSource pool;

    @BeforeEach
    void start() throws Exception {
        ownRedis = OwnRedis.start();
        factory = ownRedis.connectionFactory();
        pool = TestServices.mariadb().pool(4);
    }

    @AfterEach
    void stop() throws Exception {
        ownRedis.signal("CONT");
        factory.destroy();
        ownRedis.close();
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
        pool.close();
    }

    private static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
        }
    }

    @Test
    void aRedisThatOnlyTimedOutComesBackWithoutACallerFailingOrAnIdGoingBackwards() throws Exception {
        RedisScriptExecutor redis = new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofMillis(500), new RedisRoundTrips());
        assertThat(redis.awaitReady(Duration.ofSeconds(60)))
                .as("own Redis answers")
                .isTrue();
        JdbcSegmentStore database =
                new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        DualSegmentStore dual = new DualSegmentStore(
                new RedisSegmentStore(new RedisWindowedCounter(redis, database, prefix, 100_000)), database);
        // Small fixed blocks, so several blocks load while Redis is stopped and after; the caller draws as fast as it
        // can, so a long await timeout keeps a slow load on a busy machine (a Redis timeout, then the database) from
        // counting as a failure: what is tested is that blocks never go backwards.
        try (SegmentIdService ids = SegmentIdService.builder(dual)
                .settings(SegmentSettings.builder()
                        .step(200)
                        .minStep(200)
                        .maxStep(200)
                        .awaitTimeout(Duration.ofSeconds(30))
                        .build())
                .build()) {
            List<Long> issued = new ArrayList<>();
            List<RuntimeException> failures = new ArrayList<>();
            Runnable draw = () -> {
                try {
                    issued.add(ids.nextId("orders"));
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            };
            // A block from Redis is a script Redis answered; a block from the database follows one it did not.
            LongSupplier redisAnswers = () -> redis.roundTrips().count(RedisRoundTrips.Outcome.SUCCESS);
            long answersBefore = redisAnswers.getAsLong();
            until(
                    () -> {
                        draw.run();
                        return issued.size() > 1000 && redisAnswers.getAsLong() > answersBefore;
                    },
                    "IDs from Redis");
            long fallbacksBefore = dual.fallbacks();

            ownRedis.signal("STOP");
            until(
                    () -> {
                        draw.run();
                        return dual.fallbacks() >= fallbacksBefore + 3;
                    },
                    "blocks from the database while Redis is stopped");
            long answersWhileStopped = redisAnswers.getAsLong();
            ownRedis.signal("CONT");
            until(
                    () -> {
                        draw.run();
                        return redisAnswers.getAsLong() > answersWhileStopped && issued.size() > 5000;
                    },
                    "blocks from Redis again");
            // Blocks are prefetched as deep as the caller's rate needs, so a fixed number of draws may all come from
            // blocks already loaded: draw until a later block comes from Redis again.
            long answersBeforeLast = redisAnswers.getAsLong();
            until(
                    () -> {
                        draw.run();
                        return redisAnswers.getAsLong() > answersBeforeLast;
                    },
                    "later blocks from Redis");

            assertThat(failures).as("calls that failed").isEmpty();
            for (int i = 1; i < issued.size(); i++) {
                assertThat(issued.get(i)).as("ID %d after %d", i, i - 1).isGreaterThan(issued.get(i - 1));
            }
        }
    }
}
