package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.WorkerIdLeaseStoreContract;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lease store contract on the real Redis. Its server has been up longer than the contract's ttl plus reuse
 * delay, so no test meets the wait that follows a restart (the fault tests cover that).
 */
class RedisWorkerIdLeaseStoreTest extends WorkerIdLeaseStoreContract {

    private final String prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final LettuceConnectionFactory factory = OwnRedis.connectionFactory(
            TestServices.redis().host(), TestServices.redis().port());

    @AfterEach
    void close() {
        try (var connection = factory.getConnection()) {
            connection.keyCommands().del((prefix + "{workers}").getBytes(StandardCharsets.UTF_8));
        }
        factory.destroy();
    }

    @Override
    protected WorkerIdLeaseStore store() {
        return new RedisWorkerIdLeaseStore(
                RedisTests.ready(new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(factory), Duration.ofSeconds(2), new RedisRoundTrips())),
                prefix);
    }

    /**
     * An acquisition whose answer was lost (the call timed out after Redis ran it, or Lettuce sent it again after a
     * reconnect) runs a second time for the same owner: the owner gets its own lease back, not a second id, so it
     * does not find the space used up by a lease of its own.
     */
    @Test
    void anOwnerAcquiringAgainGetsItsOwnUnexpiredLeaseBack() {
        WorkerIdLeaseStore store = store();
        Acquisition lost = store.acquire("retrying", 1, Duration.ofSeconds(30), Duration.ofSeconds(5));
        Acquisition other = store.acquire("other", 1, Duration.ofSeconds(30), Duration.ofSeconds(5));
        assertThat(lost.workerId()).isZero();
        assertThat(other.workerId()).isEqualTo(1);
        Acquisition again = store.acquire("retrying", 1, Duration.ofSeconds(30), Duration.ofSeconds(5));
        assertThat(again.isGranted()).as("the owner's second acquisition").isTrue();
        assertThat(again.workerId()).isZero();
        assertThat(store.acquire("newcomer", 1, Duration.ofSeconds(30), Duration.ofSeconds(5))
                        .isGranted())
                .as("a newcomer, with both ids held")
                .isFalse();
        assertThat(store.renew(0, "retrying", Duration.ofSeconds(30), Duration.ofSeconds(5), 1, true))
                .isTrue();
    }

    @Override
    protected void pass(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }
}
