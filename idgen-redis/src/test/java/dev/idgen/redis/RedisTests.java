package dev.idgen.redis;

/**
 * What the Redis backend's tests share.
 */
final class RedisTests {

    private RedisTests() {}

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

    /**
     * Deletes the keys under {@code prefix} on the Redis at {@code uri}, over a Lettuce client of its own (no Spring).
     */
    static void deleteKeys(io.lettuce.core.RedisURI uri, String prefix) {
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(uri);
        try (var connection = client.connect()) {
            java.util.List<String> keys = connection.sync().keys(prefix + "*");
            if (!keys.isEmpty()) {
                connection.sync().del(keys.toArray(String[]::new));
            }
        } finally {
            client.shutdown();
        }
    }
}
