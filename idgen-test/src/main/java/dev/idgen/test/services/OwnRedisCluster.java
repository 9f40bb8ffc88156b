package dev.idgen.test.services;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Cluster of the test's own on free loopback ports: three masters with one replica each, without persistence.
 * A test kills or freezes the master of a key's slot and watches its replica take the slot over, to see what the
 * client under test does when a slot moves to another server.
 *
 * <p>The nodes give up on a silent peer after {@value #NODE_TIMEOUT_MILLIS} ms ({@code cluster-node-timeout}), short
 * so that a failover takes seconds. Two settings keep the topology as the test expects it on a loaded machine:
 * {@code cluster-replica-validity-factor 0} lets a replica take over however long it has not heard from its master
 * (otherwise a slow machine can leave a slot without a master), and {@code cluster-allow-replica-migration no} keeps
 * every replica with the master it was given.
 *
 * <p>A node killed and {@linkplain OwnRedisNode#restart() restarted} comes back empty but keeps its cluster
 * configuration file, so it rejoins the cluster (as a replica, once its slots have moved on).
 */
public final class OwnRedisCluster implements AutoCloseable {

    public static final int NODE_TIMEOUT_MILLIS = 2_000;

    /** How long the whole cluster may take to form, on a loaded machine. */
    private static final Duration FORM_DEADLINE = Duration.ofSeconds(120);

    private final Path dir;
    private final List<OwnRedisNode> nodes = new ArrayList<>();
    private final List<LettuceConnectionFactory> factories = new CopyOnWriteArrayList<>();

    private OwnRedisCluster(Path dir) {
        this.dir = dir;
    }

    /** One line of {@code CLUSTER NODES}: who a node is, what it is, whom it replicates, which slots it serves. */
    public record NodeLine(String id, int port, Set<String> flags, String masterId, List<int[]> slots) {

        public boolean master() {
            return flags.contains("master");
        }

        public boolean failed() {
            return flags.contains("fail") || flags.contains("fail?");
        }

        public boolean serves(int slot) {
            for (int[] range : slots) {
                if (slot >= range[0] && slot <= range[1]) {
                    return true;
                }
            }
            return false;
        }

        static NodeLine parse(String line) {
            String[] fields = line.trim().split(" ");
            String hostPort = fields[1].split("[@,]")[0]; // ip:port@busport[,hostname]
            int port = Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
            List<int[]> slots = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue; // a slot being migrated or imported
                }
                String[] range = fields[i].split("-");
                int from = Integer.parseInt(range[0]);
                slots.add(new int[] {from, range.length > 1 ? Integer.parseInt(range[1]) : from});
            }
            return new NodeLine(fields[0], port, Set.of(fields[2].split(",")), fields[3], slots);
        }
    }

    /**
     * Starts six nodes, makes them a cluster with {@code redis-cli --cluster create ... --cluster-replicas 1} and waits
     * until every node reports {@code cluster_state:ok} and every master has a replica in sync.
     *
     * @throws IllegalStateException when redis-server or redis-cli is not installed, or the cluster does not form
     *         within 120 s
     */
    public static OwnRedisCluster start() throws Exception {
        OwnRedisNode.requireRedis();
        OwnRedisCluster cluster = new OwnRedisCluster(OwnRedisNode.createGroupDir("idgen-cluster-"));
        try {
            for (int i = 1; i <= 6; i++) {
                cluster.nodes.add(OwnRedisNode.start("cluster-" + i, cluster.dir, true, OwnRedisCluster::node));
            }
            cluster.create();
            cluster.awaitFormed();
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    private static List<String> node(int port, Path dir) {
        return new ArrayList<>(List.of(
                OwnRedisNode.REDIS_SERVER,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes-" + port + ".conf",
                "--cluster-node-timeout",
                Integer.toString(NODE_TIMEOUT_MILLIS),
                "--cluster-replica-validity-factor",
                "0",
                "--cluster-allow-replica-migration",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no"));
    }

    private void create() throws Exception {
        List<String> command = new ArrayList<>(List.of(OwnRedisNode.REDIS_CLI, "--cluster", "create"));
        for (OwnRedisNode node : nodes) {
            command.add("127.0.0.1:" + node.port());
        }
        command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        Path log = dir.resolve("cluster-create.log");
        Process create = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!create.waitFor(FORM_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-cli --cluster create did not finish within "
                        + FORM_DEADLINE.toSeconds() + " s; its output:\n" + Files.readString(log));
            }
            if (create.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed (exit " + create.exitValue()
                        + "); its output:\n" + Files.readString(log));
            }
        } finally {
            create.destroyForcibly();
        }
    }

    private void awaitFormed() throws Exception {
        OwnRedisNode.await(
                FORM_DEADLINE,
                "the cluster in " + dir + " to form (cluster_state:ok on all 6 nodes,"
                        + " 3 masters each with a replica in sync)",
                () -> {
                    for (OwnRedisNode node : nodes) {
                        String info = (String) node.call("CLUSTER", "INFO");
                        if (!"ok".equals(OwnRedisNode.field(info, "cluster_state"))
                                || !"6".equals(OwnRedisNode.field(info, "cluster_known_nodes"))
                                || !"3".equals(OwnRedisNode.field(info, "cluster_size"))) {
                            return false;
                        }
                        List<NodeLine> view = clusterNodes(node);
                        for (NodeLine master : view) {
                            if (master.master()
                                    && view.stream()
                                            .noneMatch(replica -> !replica.failed()
                                                    && master.id().equals(replica.masterId()))) {
                                return false;
                            }
                        }
                    }
                    for (OwnRedisNode node : nodes) {
                        if ("slave".equals(node.role())
                                && !"up".equals(node.infoField("replication", "master_link_status"))) {
                            return false;
                        }
                    }
                    return agreedView() != null;
                });
    }

    /** @return the six nodes, whatever their role now */
    public List<OwnRedisNode> nodes() {
        return List.copyOf(nodes);
    }

    /** @return {@code CLUSTER NODES} as {@code node} sees the cluster */
    public static List<NodeLine> clusterNodes(OwnRedisNode node) throws IOException {
        List<NodeLine> lines = new ArrayList<>();
        for (String line : ((String) node.call("CLUSTER", "NODES")).split("\n")) {
            if (!line.isBlank()) {
                lines.add(NodeLine.parse(line));
            }
        }
        return lines;
    }

    /** @return the slot of {@code key} ({@code CLUSTER KEYSLOT}, hash tags included) */
    public int slot(String key) {
        for (OwnRedisNode node : nodes) {
            if (node.tryCall("CLUSTER", "KEYSLOT", key) instanceof Long slot) {
                return slot.intValue();
            }
        }
        throw new IllegalStateException("No node of " + nodes + " answers CLUSTER KEYSLOT");
    }

    /**
     * @return the node serving {@code key}'s slot as the first node that answers sees it; right after it died that is
     *         still the dead one, until its replica takes over
     */
    public OwnRedisNode masterForKey(String key) {
        int slot = slot(key);
        for (NodeLine line : anyView()) {
            if (line.master() && line.serves(slot)) {
                return byPort(line.port());
            }
        }
        throw new IllegalStateException("No master serves slot " + slot + " (key " + key + ")");
    }

    /**
     * @return the replica of {@code master}, as the first node that answers sees the cluster (one that is not marked
     *         failed, if there is one)
     */
    public OwnRedisNode replicaOf(OwnRedisNode master) {
        List<NodeLine> view = anyView();
        String masterId = view.stream()
                .filter(line -> line.port() == master.port())
                .map(NodeLine::id)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(master + " is not in the cluster"));
        NodeLine found = null;
        for (NodeLine line : view) {
            if (masterId.equals(line.masterId()) && (found == null || found.failed())) {
                found = line;
            }
        }
        if (found == null) {
            throw new IllegalStateException(master + " has no replica");
        }
        return byPort(found.port());
    }

    /**
     * Waits until every node that answers reports {@code cluster_state:ok} and sees the same master, other than
     * {@code notThis}, serving {@code key}'s slot, every node that answers sees the same roles (who is a master, whom
     * each replica follows), and that master answers {@code ROLE} as master. So when it returns, {@link #replicaOf} and
     * {@link #masterForKey} give the same answer whichever node they ask.
     *
     * @return the slot's new master
     * @throws IllegalStateException when that does not happen within {@code deadline}
     */
    public OwnRedisNode awaitMasterForKey(String key, OwnRedisNode notThis, Duration deadline) throws Exception {
        int slot = slot(key);
        OwnRedisNode[] found = new OwnRedisNode[1];
        OwnRedisNode.await(
                deadline,
                "a master other than " + notThis + " to serve slot " + slot + " (key " + key
                        + ") with cluster_state:ok and the same view of the cluster on every node that answers",
                () -> {
                    List<NodeLine> view = agreedView();
                    if (view == null) {
                        return false;
                    }
                    NodeLine owner = view.stream()
                            .filter(line -> line.master() && line.serves(slot))
                            .findFirst()
                            .orElse(null);
                    if (owner == null || owner.port() == notThis.port()) {
                        return false;
                    }
                    OwnRedisNode candidate = byPort(owner.port());
                    if (!candidate.answering() || !"master".equals(candidate.role())) {
                        return false;
                    }
                    found[0] = candidate;
                    return true;
                });
        return found[0];
    }

    /**
     * Waits until every node that answers reports {@code cluster_state:ok} and they all see the same slot owners and
     * the same roles, e.g. after a restarted node rejoined or a manual failover.
     */
    public void awaitConverged(Duration deadline) throws Exception {
        OwnRedisNode.await(
                deadline,
                "cluster_state:ok and the same view of the cluster on every node that answers",
                () -> agreedView() != null);
    }

    /**
     * @return the cluster as every node that answers sees it (slot owners and roles; flags such as {@code fail?} may
     *         differ), when they all agree and report {@code cluster_state:ok}; otherwise {@code null}
     */
    private List<NodeLine> agreedView() throws IOException {
        List<NodeLine> agreedLines = null;
        Map<String, String> agreed = null;
        for (OwnRedisNode node : nodes) {
            if (!node.answering()) {
                continue;
            }
            String info = (String) node.call("CLUSTER", "INFO");
            if (!"ok".equals(OwnRedisNode.field(info, "cluster_state"))) {
                return null;
            }
            List<NodeLine> view = clusterNodes(node);
            Map<String, String> summary = new TreeMap<>();
            for (NodeLine line : view) {
                StringBuilder slots = new StringBuilder();
                for (int[] range : line.slots()) {
                    slots.append(range[0]).append('-').append(range[1]).append(' ');
                }
                summary.put(
                        line.id(),
                        line.port() + (line.master() ? " master " + slots : " replica of " + line.masterId()));
            }
            if (agreed != null && !agreed.equals(summary)) {
                return null;
            }
            agreed = summary;
            agreedLines = view;
        }
        return agreedLines;
    }

    /**
     * Sends {@code CLUSTER FAILOVER TAKEOVER} to {@code replica}: it takes its master's slots without asking the
     * master or the other masters, as an operator would when the master is gone. Returns when the replica accepted
     * it; wait with {@link #awaitMasterForKey} or {@link OwnRedisNode#awaitRole}.
     */
    public void failoverTakeover(OwnRedisNode replica) throws IOException {
        replica.call("CLUSTER", "FAILOVER", "TAKEOVER");
    }

    /**
     * Sends {@code CLUSTER FAILOVER} to {@code replica}: a manual failover in agreement with its (live) master, which
     * stops taking writes until the replica has caught up. Returns when the replica accepted it; wait with
     * {@link #awaitMasterForKey} or {@link OwnRedisNode#awaitRole}.
     */
    public void failover(OwnRedisNode replica) throws IOException {
        replica.call("CLUSTER", "FAILOVER");
    }

    /**
     * @return a started Lettuce connection factory on all six nodes that refreshes its view of the cluster every
     *         second and on every redirection or reconnect, so it follows a failover; it is destroyed by
     *         {@link #close()} if the test did not destroy it
     */
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        List<String> addresses =
                nodes.stream().map(node -> "127.0.0.1:" + node.port()).toList();
        // Every adaptive refresh trigger (redirections, reconnects) is on by default since Lettuce 7.
        ClusterClientOptions options = ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(Duration.ofSeconds(1))
                        .build())
                .build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisClusterConfiguration(addresses),
                LettuceClientConfiguration.builder()
                        .commandTimeout(commandTimeout)
                        .clientOptions(options)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        factories.add(factory);
        return factory;
    }

    private List<NodeLine> anyView() {
        IOException last = null;
        for (OwnRedisNode node : nodes) {
            if (!node.answering()) {
                continue;
            }
            try {
                return clusterNodes(node);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("No node of " + nodes + " answers CLUSTER NODES", last);
    }

    private OwnRedisNode byPort(int port) {
        OwnRedisNode node = OwnRedisNode.byPort(nodes, port);
        if (node == null) {
            throw new IllegalStateException("Port " + port + " is none of this cluster's nodes " + nodes);
        }
        return node;
    }

    /** Destroys the factories handed out, kills every node (SIGKILL) and deletes the temporary directory. */
    @Override
    public void close() {
        OwnRedisNode.closeGroup(factories, dir, nodes);
    }

    @Override
    public String toString() {
        return "OwnRedisCluster" + nodes;
    }
}
