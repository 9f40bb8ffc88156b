package dev.idgen.redis;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What {@link RedisWithoutSpringTest} runs in a class loader that has no Spring: every Redis backend over
 * {@link RedisScriptExecutor#standalone}. Only JDK types cross the loader's boundary (the test sees this class as a
 * {@link BiFunction}).
 */
public final class WithoutSpringRun implements BiFunction<String, String, List<String>> {

    /**
     * @param redisUri the Redis to use, {@code redis://host:port}
     * @param prefix the key prefix
     * @return what each backend gave: two counter values, a readable ID, a worker id
     */
    @Override
    public List<String> apply(String redisUri, String prefix) {
        try (RedisScriptExecutor redis =
                RedisScriptExecutor.standalone(RedisURI.create(redisUri), Duration.ofSeconds(2))) {
            if (!redis.awaitReady(Duration.ofSeconds(90))) {
                redis.ping(); // throws, saying why
                throw new IllegalStateException(redis.describe() + " did not answer within 90 s");
            }
            List<String> drawn = new ArrayList<>();
            RedisIdService ids = new RedisIdService(
                    new RedisWindowedCounter(redis, new InMemorySegmentStore(0, Duration.ZERO), prefix, 1000));
            drawn.add(Long.toString(ids.nextId("orders")));
            drawn.add(Long.toString(ids.nextId("orders")));
            BucketedRedisSequence readable = new BucketedRedisSequence(redis, prefix);
            drawn.add(readable.decodeReadable(readable.nextReadableId("ORD")).bizCode());
            Acquisition lease = new RedisWorkerIdLeaseStore(redis, prefix)
                    .acquire("without-spring", 1023, Duration.ofSeconds(2), Duration.ofSeconds(1));
            drawn.add(Long.toString(lease.workerId()));
            return drawn;
        }
    }
}
