package dev.idgen.redis;

import dev.idgen.test.WorkerIdLeaseStoreContract;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lease store contract on the real Redis. Its server has been up longer than the contract's ttl plus reuse
 * delay, so no test meets the wait that follows a restart (the fault tests cover that).
 */
class RedisWorkerIdLeaseStoreTest extends WorkerIdLeaseStoreContract {

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final LettuceConnectionFactory factory = OwnRedis.connectionFactory(TestServices.redis().host(),
            TestServices.redis().port());

    @AfterEach
    void close() {
        try (var connection = factory.getConnection()) {
            connection.keyCommands().del((prefix + "{workers}").getBytes(StandardCharsets.UTF_8));
        }
        factory.destroy();
    }

    @Override
    protected WorkerIdLeaseStore store() {
        return new RedisWorkerIdLeaseStore(RedisTests.ready(new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofSeconds(2), new RedisRoundTrips())), prefix);
    }

    @Override
    protected void pass(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }
}
