package dev.idgen.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.OwnZooKeeperCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The holder nodes on a ZooKeeper server of the test's own, without any lease: shown in the caller's session with the
 * owner as data, replaced when another owner or session left one, kept when already right, hidden only by the owner
 * they name, and never a failure of the caller.
 */
class HolderNodesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static OwnZooKeeperCluster server;

    private final List<CuratorFramework> clients = new ArrayList<>();
    private String holdersPath;

    @BeforeAll
    static void startServer() throws Exception {
        server = OwnZooKeeperCluster.start(1);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void freshPath() {
        holdersPath = ZooKeeperTests.basePath("holders") + "/holders";
    }

    @AfterEach
    void closeClients() {
        clients.forEach(CuratorFramework::close);
        clients.clear();
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework client = ZooKeeperTests.client(server.connectString());
        clients.add(client);
        return client;
    }

    private HolderNodes holders(CuratorFramework client) {
        return new HolderNodes(new ZooKeeperCalls(client, TIMEOUT), holdersPath);
    }

    private static long deadline() {
        return System.nanoTime() + TIMEOUT.toNanos();
    }

    private static long session(CuratorFramework client) throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    @Test
    void aHolderIsShownAsAnEphemeralNodeOfTheCallersSessionNamingTheOwner() throws Exception {
        CuratorFramework client = client();

        holders(client).show("show", deadline(), 7, "owner-a");

        Stat stat = new Stat();
        byte[] data = client.getData().storingStatIn(stat).forPath(holdersPath + "/7");
        assertThat(new String(data, StandardCharsets.UTF_8)).isEqualTo("owner-a");
        assertThat(stat.getEphemeralOwner()).isEqualTo(session(client));
    }

    @Test
    void aNodeAlreadyRightIsKeptAndOneAnotherOwnerOrSessionLeftIsReplaced() throws Exception {
        CuratorFramework first = client();
        CuratorFramework second = client();
        holders(first).show("show", deadline(), 7, "owner-a");
        long created = first.checkExists().forPath(holdersPath + "/7").getCzxid();

        holders(first).show("show", deadline(), 7, "owner-a");
        assertThat(first.checkExists().forPath(holdersPath + "/7").getCzxid())
                .as("kept")
                .isEqualTo(created);

        holders(second).show("show", deadline(), 7, "owner-a");
        Stat stat = second.checkExists().forPath(holdersPath + "/7");
        assertThat(stat.getCzxid()).as("replaced").isNotEqualTo(created);
        assertThat(stat.getEphemeralOwner()).isEqualTo(session(second));

        holders(second).show("show", deadline(), 7, "owner-b");
        assertThat(new String(second.getData().forPath(holdersPath + "/7"), StandardCharsets.UTF_8))
                .isEqualTo("owner-b");
    }

    @Test
    void aHolderIsHiddenOnlyByTheOwnerItNames() throws Exception {
        CuratorFramework client = client();
        HolderNodes holders = holders(client);
        holders.show("show", deadline(), 7, "owner-a");

        holders.hide("hide", deadline(), 7, "owner-b");
        assertThat(client.checkExists().forPath(holdersPath + "/7")).isNotNull();

        holders.hide("hide", deadline(), 7, "owner-a");
        assertThat(client.checkExists().forPath(holdersPath + "/7")).isNull();
    }

    @Test
    void aFailureIsNeverTheCallersEvenPastTheDeadline() throws Exception {
        CuratorFramework client = client();
        HolderNodes holders = holders(client);

        // Neither throws. Whether the create reached the server before the wait ran out is the machine's timing, not
        // the code's, so the node is not checked.
        holders.show("show", System.nanoTime() - 1, 7, "owner-a");
        holders.hide("hide", System.nanoTime() - 1, 8, "owner-a");
    }
}
