package dev.idgen.samples;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The Redis the sample's redis-profile tests use: {@code IDGEN_TEST_REDIS_URL} (which .ci/run sets), else, outside
 * CI, the local default port. A Redis that does not answer fails the test, saying what to start.
 */
final class SampleRedis {

    private SampleRedis() {}

    static void register(DynamicPropertyRegistry registry) {
        String url = System.getenv("IDGEN_TEST_REDIS_URL");
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if ((url == null || url.isBlank()) && ci) {
            throw new IllegalStateException("This test needs a real Redis: set IDGEN_TEST_REDIS_URL (.ci/run does)");
        }
        URI uri = URI.create(url == null || url.isBlank() ? "redis://127.0.0.1:6379" : url.trim());
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), 1000);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(
                    "This test needs a real Redis at " + uri.getHost() + ":" + port + ": start"
                            + " one (redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save \"\" --appendonly no)"
                            + " or set IDGEN_TEST_REDIS_URL",
                    e);
        }
        registry.add("spring.data.redis.host", uri::getHost);
        registry.add("spring.data.redis.port", () -> port);
    }
}
