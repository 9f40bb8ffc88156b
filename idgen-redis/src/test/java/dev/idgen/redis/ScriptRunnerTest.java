package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.OwnRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ScriptRunner} on a Redis of the test's own: a script Redis does not know ({@code NOSCRIPT}, as after a
 * restart or {@code SCRIPT FLUSH}) runs all the same, its source sent once with {@code EVAL}, and the calls after that
 * go by SHA1 alone; on the blocking and the non-blocking path.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ScriptRunnerTest {

    private static final RedisScript ANSWER = RedisScript.of("idgen-test-answer", "return {tonumber(ARGV[1]) + 1}");

    private static final byte[][] NO_KEYS = new byte[0][];

    @Test
    void aScriptRedisDoesNotKnowIsSentOnceAndThenRunByItsSha() throws Exception {
        try (OwnRedis own = OwnRedis.start()) {
            RedisClient admin = RedisClient.create(RedisURI.create("127.0.0.1", own.port()));
            try (StatefulRedisConnection<String, String> server = admin.connect();
                    RedisScriptExecutor redis = RedisTests.ready(RedisScriptExecutor.standalone(
                            RedisURI.create("127.0.0.1", own.port()), Duration.ofSeconds(5)))) {
                server.sync().scriptFlush();
                server.sync().configResetstat();

                assertThat(redis.evalList(ANSWER, NO_KEYS, "41".getBytes())).containsExactly(42L);
                assertThat(server.sync().scriptExists(ANSWER.sha1())).containsExactly(true);
                assertThat(redis.evalList(ANSWER, NO_KEYS, "1".getBytes())).containsExactly(2L);
                assertThat(calls(server, "eval")).as("EVAL sent").isEqualTo(1);

                // Forgotten again (a restart): the non-blocking path sends the source once too.
                server.sync().scriptFlush();
                assertThat(redis.evalListAsync(ANSWER, NO_KEYS, "6".getBytes()).get(30, TimeUnit.SECONDS))
                        .containsExactly(7L);
                assertThat(redis.evalListAsync(ANSWER, NO_KEYS, "7".getBytes()).get(30, TimeUnit.SECONDS))
                        .containsExactly(8L);
                assertThat(calls(server, "eval")).as("EVAL sent").isEqualTo(2);
                assertThat(calls(server, "evalsha")).as("EVALSHA sent").isEqualTo(4);
            } finally {
                admin.shutdown();
            }
        }
    }

    /** How many times Redis ran {@code command} since the stats were reset (its calls that failed included). */
    private static long calls(StatefulRedisConnection<String, String> server, String command) {
        String prefix = "cmdstat_" + command + ":calls=";
        return server.sync()
                .info("commandstats")
                .lines()
                .filter(line -> line.startsWith(prefix))
                .mapToLong(line -> Long.parseLong(line.substring(prefix.length(), line.indexOf(',', prefix.length()))))
                .sum();
    }
}
