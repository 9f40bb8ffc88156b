package dev.idgen.test.services;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis Sentinel group of the test's own on free loopback ports: one master, two replicas and three sentinels
 * (quorum 2) watching master {@value #MASTER_NAME}, all without persistence. A test kills or freezes the master and
 * watches the sentinels promote a replica, to see what the client under test does across a real failover rather than
 * across a restart of one server.
 *
 * <p>The sentinels notice a dead master after {@value #DOWN_AFTER_MILLIS} ms ({@code down-after-milliseconds}),
 * short so that a failover takes seconds; a frozen master counts as dead after that time as well.
 *
 * <p>{@link #start()} returns only when the group is fully formed (both replicas in sync, every sentinel knowing both
 * replicas and both other sentinels): a failover started earlier could fail for want of a quorum or a replica.
 */
public final class OwnRedisSentinelGroup implements AutoCloseable {

    public static final String MASTER_NAME = "idgenm";
    public static final int DOWN_AFTER_MILLIS = 1_500;
    public static final int FAILOVER_TIMEOUT_MILLIS = 10_000;

    /** How long the whole group may take to form: sentinels look at the replicas only every 10 s. */
    private static final Duration FORM_DEADLINE = Duration.ofSeconds(120);

    private final Path dir;
    private final List<OwnRedisNode> nodes = new ArrayList<>();
    private final List<OwnRedisNode> sentinels = new ArrayList<>();
    /** Servers outside the group, see {@link #startStraySentinel()}. */
    private final List<OwnRedisNode> strays = new ArrayList<>();

    private final List<LettuceConnectionFactory> factories = new CopyOnWriteArrayList<>();

    private OwnRedisSentinelGroup(Path dir) {
        this.dir = dir;
    }

    /**
     * Starts the master, the two replicas and the three sentinels, and waits until the group is fully formed.
     *
     * @throws IllegalStateException when redis-server is not installed, or the group does not form within 120 s
     */
    public static OwnRedisSentinelGroup start() throws Exception {
        OwnRedisNode.requireRedis();
        OwnRedisSentinelGroup group = new OwnRedisSentinelGroup(OwnRedisNode.createGroupDir("idgen-sentinel-"));
        try {
            OwnRedisNode master = OwnRedisNode.start("redis-1", group.dir, false, (port, dir) -> dataNode(port, dir));
            group.nodes.add(master);
            for (int i = 2; i <= 3; i++) {
                group.nodes.add(OwnRedisNode.start("redis-" + i, group.dir, false, (port, dir) -> {
                    List<String> command = dataNode(port, dir);
                    command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())));
                    return command;
                }));
            }
            for (int i = 1; i <= 3; i++) {
                group.sentinels.add(OwnRedisNode.start(
                        "sentinel-" + i, group.dir, false, (port, dir) -> sentinel(port, dir, master.port())));
            }
            group.awaitFormed(master);
            return group;
        } catch (Exception | Error e) {
            group.close();
            throw e;
        }
    }

    private static List<String> dataNode(int port, Path dir) {
        return new ArrayList<>(List.of(
                OwnRedisNode.REDIS_SERVER,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no"));
    }

    /** Sentinel rewrites its configuration file as it learns the group, so it gets a file of its own to write. */
    private static List<String> sentinel(int port, Path dir, int masterPort) {
        Path conf = dir.resolve("sentinel.conf").toAbsolutePath();
        String text = String.join(
                "\n",
                "port " + port,
                "bind 127.0.0.1",
                "daemonize no",
                "dir " + dir.toAbsolutePath(),
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER_MILLIS,
                "sentinel failover-timeout " + MASTER_NAME + " " + FAILOVER_TIMEOUT_MILLIS,
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                "");
        try {
            Files.writeString(conf, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot write " + conf, e);
        }
        return new ArrayList<>(List.of(OwnRedisNode.REDIS_SERVER, conf.toString(), "--sentinel"));
    }

    private void awaitFormed(OwnRedisNode master) throws Exception {
        OwnRedisNode.await(
                FORM_DEADLINE,
                "the Sentinel group in " + dir + " to form (replicas linked to " + master
                        + ", every sentinel knowing 2 replicas and 2 other sentinels)",
                () -> {
                    for (OwnRedisNode replica : nodes) {
                        if (replica != master && !"up".equals(replica.infoField("replication", "master_link_status"))) {
                            return false;
                        }
                    }
                    for (OwnRedisNode sentinel : sentinels) {
                        Map<String, String> state = sentinelMaster(sentinel);
                        if (!"2".equals(state.get("num-slaves"))
                                || !"2".equals(state.get("num-other-sentinels"))
                                || !Integer.toString(master.port()).equals(state.get("port"))) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** @return {@code SENTINEL MASTER idgenm} on {@code sentinel}, as field to value */
    public static Map<String, String> sentinelMaster(OwnRedisNode sentinel) throws IOException {
        List<?> reply = (List<?>) sentinel.call("SENTINEL", "MASTER", MASTER_NAME);
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            fields.put(String.valueOf(reply.get(i)), String.valueOf(reply.get(i + 1)));
        }
        return fields;
    }

    public String masterName() {
        return MASTER_NAME;
    }

    public List<Integer> sentinelPorts() {
        return sentinels.stream().map(OwnRedisNode::port).toList();
    }

    /** @return the three sentinels, which a test may kill or freeze too */
    public List<OwnRedisNode> sentinels() {
        return List.copyOf(sentinels);
    }

    /** @return the three data nodes, whatever their role now; the first one started as the master */
    public List<OwnRedisNode> nodes() {
        return List.copyOf(nodes);
    }

    /**
     * @return the data node the sentinels report as master now ({@code SENTINEL GET-MASTER-ADDR-BY-NAME} on the first
     *         sentinel that answers); right after it died that is still the dead one, until the failover
     * @throws IllegalStateException when no sentinel answers
     */
    public OwnRedisNode master() {
        for (OwnRedisNode sentinel : sentinels) {
            Integer port = reportedMasterPort(sentinel);
            if (port != null) {
                OwnRedisNode node = OwnRedisNode.byPort(nodes, port);
                if (node == null) {
                    throw new IllegalStateException(sentinel + " reports a master on port " + port
                            + ", which is none of this group's data nodes " + nodes);
                }
                return node;
            }
        }
        throw new IllegalStateException("No sentinel of " + sentinels + " answers SENTINEL GET-MASTER-ADDR-BY-NAME");
    }

    /** @return the data nodes other than {@link #master()} whose processes are alive */
    public List<OwnRedisNode> replicas() {
        OwnRedisNode master = master();
        return nodes.stream().filter(node -> node != master && node.alive()).toList();
    }

    /**
     * Waits until every sentinel that answers (at least two, a quorum) reports the same master other than {@code old},
     * and that node answers {@code ROLE} as master.
     *
     * @return the new master
     * @throws IllegalStateException when that does not happen within {@code deadline}
     */
    public OwnRedisNode awaitNewMaster(OwnRedisNode old, Duration deadline) throws Exception {
        OwnRedisNode[] found = new OwnRedisNode[1];
        OwnRedisNode.await(
                deadline, "the sentinels of " + MASTER_NAME + " to promote a master other than " + old, () -> {
                    Integer agreed = null;
                    int answered = 0;
                    for (OwnRedisNode sentinel : sentinels) {
                        Integer port = reportedMasterPort(sentinel);
                        if (port == null) {
                            continue;
                        }
                        answered++;
                        if (agreed != null && !agreed.equals(port)) {
                            return false;
                        }
                        agreed = port;
                    }
                    if (answered < 2 || agreed == null || agreed == old.port()) {
                        return false;
                    }
                    OwnRedisNode candidate = OwnRedisNode.byPort(nodes, agreed);
                    if (candidate == null || !candidate.answering() || !"master".equals(candidate.role())) {
                        return false;
                    }
                    found[0] = candidate;
                    return true;
                });
        return found[0];
    }

    /**
     * Waits until every replica that answers has processed the master's replication stream as far as the master had
     * written when this was called, so that writes made before survive a failover.
     */
    public void awaitReplicasCaughtUp(Duration deadline) throws Exception {
        OwnRedisNode master = master();
        long offset = master.replOffset();
        for (OwnRedisNode replica : replicas()) {
            if (replica.answering()) {
                replica.awaitReplOffset(offset, deadline);
            }
        }
    }

    /**
     * Asks the first sentinel that answers for a failover ({@code SENTINEL FAILOVER idgenm}), as an operator would
     * for maintenance; it returns once the sentinel accepted it: wait with {@link #awaitNewMaster}.
     *
     * @throws OwnRedisNode.ErrorReply when the sentinel refuses, e.g. {@code -INPROG} or {@code -NOGOODSLAVE}
     */
    public void failover() throws IOException {
        IOException last = null;
        for (OwnRedisNode sentinel : sentinels) {
            if (!sentinel.answering()) {
                continue;
            }
            try {
                sentinel.call("SENTINEL", "FAILOVER", MASTER_NAME);
                return;
            } catch (OwnRedisNode.ErrorReply e) {
                throw e;
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("No sentinel of " + sentinels + " answered SENTINEL FAILOVER", last);
    }

    /**
     * @return a started Lettuce connection factory that finds the master through the three sentinels; it is destroyed
     *         by {@link #close()} if the test did not destroy it
     */
    public LettuceConnectionFactory connectionFactory(Duration commandTimeout) {
        RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(MASTER_NAME);
        for (OwnRedisNode sentinel : sentinels) {
            configuration.sentinel("127.0.0.1", sentinel.port());
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                configuration,
                LettuceClientConfiguration.builder()
                        .commandTimeout(commandTimeout)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        factories.add(factory);
        return factory;
    }

    private static Integer reportedMasterPort(OwnRedisNode sentinel) {
        Object reply = sentinel.tryCall("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
        if (!(reply instanceof List<?> address) || address.size() < 2) {
            return null;
        }
        return Integer.valueOf(String.valueOf(address.get(1)));
    }

    /**
     * Starts a standalone Redis and a sentinel of its own that monitors it under this group's master name, outside the
     * group (they never learn of each other): a sentinel whose answer differs from the group's, as one that has not
     * learnt of a failover yet answers. Both are killed with the group.
     *
     * @return the standalone Redis (index 0) and its sentinel (index 1)
     */
    public List<OwnRedisNode> startStraySentinel() throws Exception {
        OwnRedisNode stray = OwnRedisNode.start("stray-redis", dir, false, (port, nodeDir) -> dataNode(port, nodeDir));
        strays.add(stray);
        OwnRedisNode sentinel = OwnRedisNode.start(
                "stray-sentinel", dir, false, (port, nodeDir) -> sentinel(port, nodeDir, stray.port()));
        strays.add(sentinel);
        OwnRedisNode.await(
                FORM_DEADLINE,
                "the stray sentinel on " + sentinel.port() + " to name " + stray + " as " + MASTER_NAME,
                () -> Integer.valueOf(stray.port()).equals(reportedMasterPort(sentinel)));
        return List.of(stray, sentinel);
    }

    /** Destroys the factories handed out, kills every server (SIGKILL) and deletes the temporary directory. */
    @Override
    public void close() {
        OwnRedisNode.closeGroup(factories, dir, strays, sentinels, nodes);
    }

    @Override
    public String toString() {
        return "OwnRedisSentinelGroup" + nodes + sentinels;
    }
}
