package dev.idgen.redis;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.test.IdServiceContract;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The {@link IdService} contract for the {@code redis} strategy on the real Redis, through the plain-Java
 * constructors on plain Lettuce, under a key prefix of the test's own. Windows of 1,000 make the concurrency test reserve many.
 */
class RedisIdServiceContractTest extends IdServiceContract {

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";

    private final LettuceConnectionFactory factory = OwnRedis.connectionFactory(
            TestServices.redis().host(), TestServices.redis().port());

    private RedisScriptExecutor redis;

    @Override
    protected IdService service() {
        redis = executor();
        return new RedisIdService(new RedisWindowedCounter(redis, new InMemorySegmentStore(), prefix, 1000));
    }

    /** The only line here that knows how a {@link RedisScriptExecutor} is built. */
    private RedisScriptExecutor executor() {
        return RedisTests.ready(RedisScriptExecutor.standalone(
                io.lettuce.core.RedisURI.create(
                        TestServices.redis().host(), TestServices.redis().port()),
                Duration.ofSeconds(5)));
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }

    @AfterEach
    void deleteKeys() {
        if (redis != null) {
            redis.close();
        }
        OwnRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }
}
