package dev.idgen.zookeeper;

import dev.idgen.test.services.OwnZooKeeperCluster;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The ZooKeeper tests' set-up, once: an ensemble of the test class's own (started before its first test, stopped after
 * its last), a fresh base path per test, and the clients a test opens, closed after it. Register it as a static field:
 * <pre>
 * &#64;RegisterExtension
 * static final ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(3, "segments");
 * </pre>
 */
final class ZooKeeperEnsemble implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final int servers;

    private final String pathPrefix;

    private final List<CuratorFramework> clients = new ArrayList<>();

    private OwnZooKeeperCluster cluster;

    private String basePath;

    /**
     * @param servers how many servers the ensemble has
     * @param pathPrefix what each test's base path starts with, for example {@code segments}
     */
    ZooKeeperEnsemble(int servers, String pathPrefix) {
        this.servers = servers;
        this.pathPrefix = pathPrefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster = OwnZooKeeperCluster.start(servers);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        basePath = ZooKeeperTests.basePath(pathPrefix);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        closeClients();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** @return the ensemble, to stop, pause or restart its servers */
    OwnZooKeeperCluster cluster() {
        return cluster;
    }

    /** @return the running test's own base path */
    String basePath() {
        return basePath;
    }

    /** @return a connected client, closed after the test */
    CuratorFramework client() throws InterruptedException {
        CuratorFramework client = ZooKeeperTests.client(cluster.connectString());
        clients.add(client);
        return client;
    }

    /** Closes the clients the running test opened. */
    void closeClients() {
        clients.forEach(CuratorFramework::close);
        clients.clear();
    }
}
