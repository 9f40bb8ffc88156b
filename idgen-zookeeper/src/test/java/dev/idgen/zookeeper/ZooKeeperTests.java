package dev.idgen.zookeeper;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;

/** Curator clients as the tests use them. */
final class ZooKeeperTests {

    private ZooKeeperTests() {}

    /**
     * @return a started client on {@code connectString} with a 4 s session, a 2 s connection timeout and retries for
     *         at most 2 s, connected (waits up to 30 s)
     */
    static CuratorFramework client(String connectString) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(4000)
                .connectionTimeoutMs(2000)
                .retryPolicy(new RetryUntilElapsed(2000, 100))
                .build();
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("No connection to " + connectString + " within 30 s");
        }
        return client;
    }

    static String basePath(String prefix) {
        return "/" + prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static long millisSince(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
    }
}
