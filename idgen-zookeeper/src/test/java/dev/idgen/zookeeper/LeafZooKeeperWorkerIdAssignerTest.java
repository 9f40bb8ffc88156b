package dev.idgen.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.spi.WorkerIdLease;
import dev.idgen.test.services.OwnZooKeeperCluster;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeafZooKeeperWorkerIdAssigner} on a ZooKeeper server of the test's own, beside Leaf servers replayed by
 * {@link LeafServer}: the ZooKeeper calls Leaf 1.0.1's {@code SnowflakeZookeeperHolder} makes, with its paths, create
 * mode and data.
 */
class LeafZooKeeperWorkerIdAssignerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Short, so that reusing a node does not take Leaf's 10 s; still longer than the replayed Leaf's refreshes. */
    private static final Duration QUIET = Duration.ofMillis(1500);

    private static final Pattern LEAF_DATA =
            Pattern.compile("\\{\"ip\":\"([^\"]+)\",\"port\":\"(\\d+)\",\"timestamp\":(\\d+)}");

    private static final Charset UTF8 = StandardCharsets.UTF_8;

    private static OwnZooKeeperCluster zookeeper;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private String leafName;

    /** The test's own view of the nodes. */
    private CuratorFramework observer;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = OwnZooKeeperCluster.start(1);
    }

    @AfterAll
    static void stopZooKeeper() {
        if (zookeeper != null) {
            zookeeper.close();
        }
    }

    @BeforeEach
    void freshLeafName() throws InterruptedException {
        observer = client();
        // No '-': Leaf parses a new node's worker id from its whole path split at '-'.
        leafName = "com.example.leaf." + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        closeables.clear();
    }

    @Test
    void leafServersBeforeAndAfterAndIdgenGetDistinctWorkerIdsIdgensAFreshSequence() throws Exception {
        List<Long> workerIds = new ArrayList<>();
        for (int port = 8080; port < 8083; port++) {
            workerIds.add(leaf("10.0.0.1", port).start());
        }
        WorkerIdLease idgen = lease(assigner("10.0.0.9", 9090), 1023);
        workerIds.add(idgen.workerId());
        for (int port = 8080; port < 8083; port++) {
            workerIds.add(leaf("10.0.0.2", port).start());
        }

        assertThat(workerIds).doesNotHaveDuplicates().containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(idgen.lastUsedTimestamp()).as("a fresh node has no history").isEmpty();
        // The node is as Leaf creates it: a Leaf server restarted at idgen's address would find it and parse it.
        CuratorFramework client = observer;
        List<String> children = client.getChildren().forPath(forever());
        assertThat(children).contains("10.0.0.9:9090-0000000003");
        String data = new String(client.getData().forPath(forever() + "/10.0.0.9:9090-0000000003"), UTF8);
        Matcher matcher = LEAF_DATA.matcher(data);
        assertThat(matcher.matches()).as(data).isTrue();
        assertThat(matcher.group(1)).isEqualTo("10.0.0.9");
        assertThat(matcher.group(2)).isEqualTo("9090");
        assertThat(leaf("10.0.0.9", 9090).start())
                .as("Leaf's own reading of idgen's node")
                .isEqualTo(3L);
        assertThat(client.checkExists().forPath(LeafZooKeeperWorkerIdAssigner.ROOT + "/" + leafName + "/idgen-live"))
                .as("idgen's companion nodes are outside forever, whose children Leaf parses")
                .isNotNull();
    }

    @Test
    void aRestartAtTheSameAddressReusesItsNodeAndItsTimestamp() throws Exception {
        LeafZooKeeperWorkerIdAssigner assigner = assigner("10.0.0.9", 9090);
        WorkerIdLease first = assigner.acquire(1023);
        long recordedAtClose = System.currentTimeMillis() + 200;
        first.recordTimestamp(recordedAtClose);
        long workerId = first.workerId();
        first.close();
        long recorded = timestampOf(forever() + "/10.0.0.9:9090-" + String.format("%010d", workerId));

        WorkerIdLease again = lease(assigner("10.0.0.9", 9090), 1023);

        assertThat(again.workerId()).isEqualTo(workerId);
        assertThat(again.lastUsedTimestamp()).hasValue(recorded);
        assertThat(recorded).as("the last timestamp recorded at close").isGreaterThanOrEqualTo(recordedAtClose);
        assertThat(observer.getChildren().forPath(forever())).hasSize(1);
    }

    @Test
    void anIdgenInstanceTakesOverTheNodeOfAStoppedLeafServerAtItsAddress() throws Exception {
        LeafServer leaf = leaf("10.0.0.1", 8080);
        long leafWorkerId = leaf.start();
        leaf("10.0.0.1", 8081).start();
        leaf.stop();

        WorkerIdLease idgen = lease(assigner("10.0.0.1", 8080), 1023);

        assertThat(idgen.workerId()).isEqualTo(leafWorkerId);
        assertThat(idgen.lastUsedTimestamp()).hasValue(leaf.lastTimestamp);
    }

    @Test
    void aClockBehindTheNodesTimestampRefuses() throws Exception {
        LeafServer leaf = leaf("10.0.0.1", 8080);
        leaf.clock = () -> System.currentTimeMillis() + 60_000; // the Leaf server's clock was a minute ahead
        long workerId = leaf.start();
        leaf.stop();

        assertThatThrownBy(() -> lease(assigner("10.0.0.1", 8080), 1023))
                .isInstanceOf(ClockBackwardsException.class)
                .hasMessageContaining("behind the timestamp")
                .hasMessageContaining("worker id " + workerId);
        // Once the clock has passed it, the node is reused.
        long recorded = timestampOf(forever() + "/10.0.0.1:8080-0000000000");
        ManualTimeSource later = new ManualTimeSource(recorded + 1);
        WorkerIdLease lease = lease(assigner("10.0.0.1", 8080, later), 1023);
        assertThat(lease.workerId()).isEqualTo(workerId);
        assertThat(lease.lastUsedTimestamp()).hasValue(recorded);
    }

    @Test
    void aSecondLiveInstanceWithTheSameAddressRefusesUntilTheFirstStops() throws Exception {
        WorkerIdLease first = assigner("10.0.0.9", 9090).acquire(1023);

        assertThatThrownBy(() -> lease(assigner("10.0.0.9", 9090), 1023))
                .isInstanceOf(LeafNodeInUseException.class)
                .hasMessageContaining("Another idgen instance is live with the Leaf address 10.0.0.9:9090")
                .hasMessageContaining("idgen.snowflake.leaf.address");

        first.close();
        assertThat(lease(assigner("10.0.0.9", 9090), 1023).workerId()).isEqualTo(first.workerId());
    }

    @Test
    void aLeafServerStillRunningAtTheSameAddressRefuses() throws Exception {
        LeafServer leaf = leaf("10.0.0.1", 8080);
        leaf.start();
        leaf.refreshEvery(Duration.ofMillis(100));

        assertThatThrownBy(() -> lease(assigner("10.0.0.1", 8080), 1023))
                .isInstanceOf(LeafNodeInUseException.class)
                .hasMessageContaining("was written by another process")
                .hasMessageContaining("is still running");
    }

    @Test
    void aLeafServerStartedLaterAtTheSameAddressLosesTheLease() throws Exception {
        WorkerIdLease idgen = lease(assigner("10.0.0.9", 9090), 1023);
        List<String> lost = new CopyOnWriteArrayList<>();
        idgen.whenLost(() -> lost.add("lost"));

        LeafServer leaf = leaf("10.0.0.9", 9090);
        assertThat(leaf.start()).as("Leaf checks nothing").isEqualTo(idgen.workerId());
        leaf.refreshEvery(Duration.ofMillis(50));

        await("the lease is lost", () -> !lost.isEmpty());
        assertThat(lost).containsExactly("lost");
        assertThat(idgen.isValid()).isFalse();
        assertThatThrownBy(idgen::checkValid).hasMessageContaining("changed by another process");
        // Acquiring again (as the generator does) sees the Leaf server's writes, not the lost lease's companion node.
        assertThatThrownBy(() -> lease(assigner("10.0.0.9", 9090), 1023))
                .isInstanceOf(LeafNodeInUseException.class)
                .hasMessageContaining("is still running");
    }

    @Test
    void anotherInstanceLiveAtTheAddressAfterTheSessionEndedLosesTheLease() throws Exception {
        WorkerIdLease idgen = lease(assigner("10.0.0.9", 9090), 1023);
        List<String> lost = new CopyOnWriteArrayList<>();
        idgen.whenLost(() -> lost.add("lost"));
        String live = LeafZooKeeperWorkerIdAssigner.ROOT + "/" + leafName + "/idgen-live/10.0.0.9:9090";

        // What an expired session and another instance's start in the meantime leave behind.
        observer.transaction()
                .forOperations(
                        observer.transactionOp().delete().forPath(live),
                        observer.transactionOp()
                                .create()
                                .withMode(CreateMode.EPHEMERAL)
                                .forPath(live, "another".getBytes(UTF8)));

        await("the lease is lost", () -> !lost.isEmpty());
        assertThat(idgen.isValid()).isFalse();
    }

    @Test
    void theTimestampIsRefreshedFromTheInjectedClockAndNeverGoesBack() throws Exception {
        ManualTimeSource clock = new ManualTimeSource(System.currentTimeMillis());
        WorkerIdLease lease = lease(assigner("10.0.0.9", 9090, clock), 1023);
        String path = forever() + "/10.0.0.9:9090-0000000000";

        long later = clock.advance(Duration.ofMinutes(5));
        await("the node records " + later, () -> timestampOf(path) == later);
        clock.advance(Duration.ofMinutes(-10));
        int version = statOf(path).getVersion();
        await("two more refreshes", () -> statOf(path).getVersion() >= version + 2);
        assertThat(timestampOf(path)).as("a clock stepped back").isEqualTo(later);
        assertThat(lease.isValid()).isTrue();
    }

    @Test
    void aSequenceAboveTheLayoutsLargestWorkerIdRefuses() throws Exception {
        CuratorFramework client = observer;
        client.create().creatingParentsIfNeeded().forPath(forever());
        // 1024 Leaf servers registered before: sequences 0 to 1023.
        for (int chunk = 0; chunk < 4; chunk++) {
            List<CuratorOp> creates = new ArrayList<>();
            for (int i = 0; i < 256; i++) {
                creates.add(client.transactionOp()
                        .create()
                        .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                        .forPath(forever() + "/10.1." + chunk + "." + i + ":8080-", LeafServer.data("x", 1, 1)));
            }
            client.transaction().forOperations(creates);
        }

        assertThatThrownBy(() -> lease(assigner("10.0.0.9", 9090), 1023))
                .isInstanceOf(WorkerIdsExhaustedException.class)
                .hasMessageContaining("sequence number 1024")
                .hasMessageContaining("largest worker id 1023")
                .hasMessageContaining("idgen.snowflake.leaf.name")
                .hasMessageContaining("is exhausted");
        assertThat(client.checkExists()
                        .forPath(LeafZooKeeperWorkerIdAssigner.ROOT + "/" + leafName + "/idgen-live/10.0.0.9:9090"))
                .as("a refused start leaves no companion node")
                .isNull();
    }

    @Test
    void zooKeeperUnreachableAtStartIsAStoreUnavailableException() throws Exception {
        CuratorFramework unreachable = CuratorFrameworkFactory.builder()
                .connectString("127.0.0.1:1")
                .sessionTimeoutMs(4000)
                .connectionTimeoutMs(500)
                .retryPolicy(new RetryUntilElapsed(500, 100))
                .build();
        unreachable.start();
        closeables.add(unreachable);
        LeafZooKeeperWorkerIdAssigner assigner =
                new LeafZooKeeperWorkerIdAssigner(unreachable, leafName, "10.0.0.9", 9090, Duration.ofMillis(500));

        assertThatThrownBy(() -> assigner.acquire(1023))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("127.0.0.1:1");
    }

    @Test
    void addressesLeafCannotParseAreRefused() throws Exception {
        CuratorFramework client = observer;
        assertThatThrownBy(() -> new LeafZooKeeperWorkerIdAssigner(client, leafName, "my-host", 8080, TIMEOUT))
                .hasMessageContaining("without '-'");
        assertThatThrownBy(() -> new LeafZooKeeperWorkerIdAssigner(client, "", "10.0.0.1", 8080, TIMEOUT))
                .hasMessageContaining("leaf.name");
        assertThatThrownBy(() -> new LeafZooKeeperWorkerIdAssigner(client, leafName, "10.0.0.1", 0, TIMEOUT))
                .hasMessageContaining("port must be from 1 to 65535");
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    private String forever() {
        return "/snowflake/" + leafName + "/forever";
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework client = ZooKeeperTests.client(zookeeper.connectString());
        closeables.add(client);
        return client;
    }

    private LeafZooKeeperWorkerIdAssigner assigner(String ip, int port) throws InterruptedException {
        return assigner(ip, port, TimeSource.system());
    }

    private LeafZooKeeperWorkerIdAssigner assigner(String ip, int port, TimeSource clock) throws InterruptedException {
        return new LeafZooKeeperWorkerIdAssigner(
                client(), leafName, ip, port, TIMEOUT, clock, Duration.ofMillis(100), QUIET);
    }

    private WorkerIdLease lease(LeafZooKeeperWorkerIdAssigner assigner, long maxWorkerId) {
        WorkerIdLease lease = assigner.acquire(maxWorkerId);
        closeables.add(lease);
        return lease;
    }

    private LeafServer leaf(String ip, int port) throws InterruptedException {
        LeafServer leaf = new LeafServer(client(), leafName, ip, port);
        closeables.add(leaf);
        return leaf;
    }

    private long timestampOf(String path) {
        try {
            Matcher matcher = LEAF_DATA.matcher(new String(observer.getData().forPath(path), UTF8));
            assertThat(matcher.matches()).isTrue();
            return Long.parseLong(matcher.group(3));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Stat statOf(String path) {
        try {
            return observer.checkExists().forPath(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Polls {@code condition} until it holds, for at most 20 s. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Not within 20 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    /**
     * What a Leaf 1.0.1 server does in ZooKeeper ({@code SnowflakeZookeeperHolder.init} and its 3 s upload), written
     * anew for the test: the same paths, create mode and data, and the worker id parsed from the node's name as Leaf
     * parses it. The refresh is started separately and faster than Leaf's 3 s, to keep tests short.
     */
    static final class LeafServer implements AutoCloseable {

        private final CuratorFramework client;
        private final String forever;
        private final String ip;
        private final String port;
        private ScheduledExecutorService upload;
        private String node;
        TimeSource clock = TimeSource.system();
        volatile long lastTimestamp;

        LeafServer(CuratorFramework client, String leafName, String ip, int port) {
            this.client = client;
            this.forever = "/snowflake/" + leafName + "/forever";
            this.ip = ip;
            this.port = String.valueOf(port);
        }

        /** Leaf's JSON of its Endpoint (ip, port as a string, timestamp), as its Jackson ObjectMapper writes it. */
        static byte[] data(String ip, int port, long timestamp) {
            return ("{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}")
                    .getBytes(StandardCharsets.UTF_8);
        }

        private byte[] data() {
            lastTimestamp = clock.currentTimeMillis();
            return data(ip, Integer.parseInt(port), lastTimestamp);
        }

        /** @return the worker id, as Leaf's init finds or creates it */
        long start() throws Exception {
            String listenAddress = ip + ":" + port;
            if (client.checkExists().forPath(forever) == null) {
                node = create(listenAddress);
                return 0; // Leaf's first node: "worker id 默认是0", not parsed
            } else {
                Map<String, Integer> nodeMap = new HashMap<>();
                Map<String, String> realNode = new HashMap<>();
                for (String key : client.getChildren().forPath(forever)) {
                    String[] nodeKey = key.split("-");
                    realNode.put(nodeKey[0], key);
                    nodeMap.put(nodeKey[0], Integer.parseInt(nodeKey[1]));
                }
                Integer workerId = nodeMap.get(listenAddress);
                if (workerId != null) {
                    node = forever + "/" + realNode.get(listenAddress);
                    Matcher matcher =
                            LEAF_DATA.matcher(new String(client.getData().forPath(node), UTF8));
                    assertThat(matcher.matches())
                            .as("Leaf's Jackson reads the node")
                            .isTrue();
                    assertThat(Long.parseLong(matcher.group(3)))
                            .as("Leaf's start-up check")
                            .isLessThanOrEqualTo(clock.currentTimeMillis());
                    return workerId;
                }
                node = create(listenAddress);
            }
            return Integer.parseInt(node.split("-")[1]);
        }

        private String create(String listenAddress) throws Exception {
            return client.create()
                    .creatingParentsIfNeeded()
                    .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(forever + "/" + listenAddress + "-", data());
        }

        /** Leaf's periodic upload of its time, at {@code interval}. */
        void refreshEvery(Duration interval) {
            upload = Executors.newSingleThreadScheduledExecutor();
            upload.scheduleWithFixedDelay(
                    () -> {
                        try {
                            client.setData().forPath(node, data());
                        } catch (Exception e) {
                            // as Leaf: logged and tried again at the next upload
                        }
                    },
                    0,
                    interval.toMillis(),
                    TimeUnit.MILLISECONDS);
        }

        void stop() {
            if (upload != null) {
                upload.shutdownNow();
            }
        }

        @Override
        public void close() {
            stop();
        }
    }
}
