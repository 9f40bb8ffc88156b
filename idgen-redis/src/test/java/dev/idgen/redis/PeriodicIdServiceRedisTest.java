package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.period.PeriodicIdService;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.test.PeriodicMidnight;
import dev.idgen.test.services.TestServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PeriodicIdService} over the {@code redis} strategy on the real Redis, across a manual-clock midnight with two
 * instances and several threads each ({@link PeriodicMidnight}), under a key prefix of the test's own. The instances
 * share the Redis counters and the store their windows come from, as two JVMs would.
 */
class PeriodicIdServiceRedisTest {

    private final String prefix = "p" + UUID.randomUUID().toString().substring(0, 8) + ":";

    private final List<RedisScriptExecutor> executors = new CopyOnWriteArrayList<>();

    private RedisURI uri;

    @AfterEach
    void deleteKeys() {
        executors.forEach(RedisScriptExecutor::close);
        if (uri != null) {
            RedisTests.deleteKeys(uri, prefix);
        }
    }

    @Test
    void eachDayCountsFromOneInItsOwnRedisCounter() throws Exception {
        TestServices.RedisEndpoint endpoint = TestServices.redis();
        uri = RedisURI.create(endpoint.host(), endpoint.port());
        InMemorySegmentStore windows = new InMemorySegmentStore();
        PeriodicMidnight.run(
                () -> {
                    RedisScriptExecutor redis =
                            RedisTests.ready(RedisScriptExecutor.standalone(uri, Duration.ofSeconds(5)));
                    executors.add(redis);
                    return new RedisIdService(new RedisWindowedCounter(redis, windows, prefix, 100));
                },
                4,
                50);

        String before = PeriodicMidnight.counterName(PeriodicMidnight.DAY_BEFORE);
        String after = PeriodicMidnight.counterName(PeriodicMidnight.DAY_AFTER);
        RedisClient client = RedisClient.create(uri);
        try (var connection = client.connect()) {
            assertThat(connection.sync().keys(prefix + "*"))
                    .containsExactlyInAnyOrder(
                            prefix + "{" + before + "}", prefix + "{" + before + "}:window",
                            prefix + "{" + after + "}", prefix + "{" + after + "}:window");
        } finally {
            client.shutdown();
        }
    }
}
