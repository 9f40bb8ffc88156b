package dev.idgen.redis;

/**
 * What the Redis backend's tests share.
 */
final class RedisTests {

    private RedisTests() {
    }

    /**
     * Waits, generously, for {@code executor}'s first connection: on a loaded machine a JVM's first Lettuce
     * connection can take longer than the short timeouts the tests give their executors for each call.
     *
     * @return {@code executor}, connected
     */
    static RedisScriptExecutor ready(RedisScriptExecutor executor) {
        if (!executor.awaitReady(java.time.Duration.ofSeconds(90))) {
            throw new IllegalStateException(executor.describe() + " did not answer within 90 s: is it running?"
                    + " (the tests' Redis is at IDGEN_TEST_REDIS_URL, default redis://127.0.0.1:6379)");
        }
        return executor;
    }
}
