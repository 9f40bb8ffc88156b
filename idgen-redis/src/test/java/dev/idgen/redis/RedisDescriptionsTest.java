package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.test.services.TestServices;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the Redis services print (the start-up line shows it): where the counters live, not an object's identity. */
class RedisDescriptionsTest {

    private final String prefix = "desc" + UUID.randomUUID().toString().substring(0, 8) + ":";

    @Test
    void redisCountersAndSegmentsNameTheirRedis() {
        String host = TestServices.redis().host();
        int port = TestServices.redis().port();
        try (RedisScriptExecutor redis =
                RedisScriptExecutor.standalone(io.lettuce.core.RedisURI.create(host, port), Duration.ofSeconds(5))) {
            RedisWindowedCounter counter = new RedisWindowedCounter(redis, new InMemorySegmentStore(), prefix, 1000);
            assertThat(new RedisIdService(counter)).hasToString("counters on Redis at " + host + ":" + port);
            InMemorySegmentStore database = new InMemorySegmentStore();
            try (SegmentIdService segments = SegmentIdService.builder(
                            new DualSegmentStore(new RedisSegmentStore(counter), database))
                    .build()) {
                assertThat(segments)
                        .hasToString("segments from Redis at " + host + ":" + port + ", falling back to " + database);
            }
        }
    }
}
