package dev.idgen.zookeeper;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LeaseLostException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.core.spi.WorkerIdLease;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.Stat;

/**
 * Takes a worker id the way a Meituan Leaf server in Snowflake mode does, from the same ZooKeeper nodes, so that idgen
 * instances can replace Leaf servers one by one, or run beside them, without ever sharing a worker id with one.
 *
 * <p><b>Leaf's nodes.</b> Each Leaf server has one persistent sequential node
 * {@code /snowflake/<leaf.name>/forever/<ip>:<port>-<10-digit sequence>}, created the first time it starts at that
 * address and found again (by its {@code ip:port} prefix) on every later start. Its worker id is the sequence number.
 * Its data is {@code {"ip":"…","port":"…","timestamp":<ms>}}, rewritten with the current time every 3 s; a server that
 * finds its clock behind the recorded timestamp at start refuses to start. This assigner does all of that in the same
 * shape, so ZooKeeper's sequence counter of {@code forever}, which Leaf servers and idgen instances share, gives each
 * address a number no other address has; Leaf's own tools read idgen's nodes.
 *
 * <p><b>What Leaf does not check, and this does.</b> Leaf trusts that one address is one process. Two idgen instances
 * given the same {@code ip:port} would take the same worker id, and so would an idgen instance given the address of a
 * Leaf server that still runs. So:
 * <ul>
 * <li>an instance holds an ephemeral node {@code /snowflake/<leaf.name>/idgen-live/<ip>:<port>} while it runs
 * (outside {@code forever}, whose children Leaf parses): a second instance finds it and refuses. After a crash it goes
 * with the crashed instance's ZooKeeper session, when the session expires. Each refresh checks it: one that finds
 * another instance's there (its own session ended meanwhile) loses the lease;</li>
 * <li>before it reuses an existing node, it waits until nobody has written the node for the quiet period (by the
 * ZooKeeper leader's clock: the node's {@code mtime} against the creation time of the instance's ephemeral node), and
 * refuses if somebody writes it meanwhile: a live Leaf server rewrites it every 3 s;</li>
 * <li>its refreshes are conditional on the node's version: a write by anybody else marks the lease lost;</li>
 * <li>a sequence above the layout's largest worker id is refused, where Leaf would issue IDs with overlapping bits.
 * </li>
 * </ul>
 * Leaf also caches its worker id in a local file and starts from it when ZooKeeper is down; this assigner does not:
 * without ZooKeeper it cannot tell whether the id is still this address's, and fails with
 * {@link ZooKeeperUnavailableException}.
 *
 * <p>Starting a Leaf server at an address while an idgen instance runs at the same address is not detected at the
 * Leaf server (it checks nothing), only afterwards, by the idgen instance's next refresh: never give the two one
 * address at once.
 */
public final class LeafZooKeeperWorkerIdAssigner implements WorkerIdAssigner {

    /** How often Leaf rewrites its node's timestamp, and this assigner too by default. */
    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(3);

    /**
     * How long an existing node must have been left unwritten before it is reused: more than three of Leaf's
     * refreshes, so that a live Leaf server that missed one or two is still seen.
     */
    public static final Duration DEFAULT_QUIET_PERIOD = Duration.ofSeconds(10);

    /** Leaf's root node. */
    static final String ROOT = "/snowflake";

    /** Leaf splits a node's name at '-': the host part must not contain one. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:_\\[\\]]{1,253}");

    private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\"\\s*:\\s*\"?(-?\\d{1,19})\"?");

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private static final System.Logger LOG = System.getLogger(LeafZooKeeperWorkerIdAssigner.class.getName());

    private final ZooKeeperCalls calls;
    private final String ip;
    private final int port;
    private final String address;
    private final String foreverPath;
    private final String livePath;
    private final TimeSource clock;
    private final Duration refreshInterval;
    private final Duration quietPeriod;

    /**
     * With Leaf's refresh interval, the {@link #DEFAULT_QUIET_PERIOD} and the system clock.
     */
    public LeafZooKeeperWorkerIdAssigner(
            CuratorFramework client, String leafName, String ip, int port, Duration timeout) {
        this(client, leafName, ip, port, timeout, TimeSource.system(), DEFAULT_REFRESH_INTERVAL, DEFAULT_QUIET_PERIOD);
    }

    /**
     * @param client a started Curator client without a namespace: Leaf's nodes are under {@code /snowflake}
     * @param leafName Leaf's {@code leaf.name}: the nodes are under {@code /snowflake/<leafName>}
     * @param ip the address's host part, as Leaf writes it (Leaf: the host's first non-loopback IPv4 address)
     * @param port the address's port (Leaf: {@code leaf.snowflake.port})
     * @param timeout the longest each ZooKeeper call may take
     * @param clock the clock the timestamps written and checked are read from (the quiet period is waited by the
     *        ZooKeeper leader's clock and this process's monotonic one)
     * @param refreshInterval how often the node's timestamp is rewritten, from 10 ms to 1 min
     * @param quietPeriod how long an existing node must have been unwritten before it is reused, from 0 to 10 min; it
     *        must be longer than the refresh interval of any Leaf server at the same address (3 s)
     */
    public LeafZooKeeperWorkerIdAssigner(
            CuratorFramework client,
            String leafName,
            String ip,
            int port,
            Duration timeout,
            TimeSource clock,
            Duration refreshInterval,
            Duration quietPeriod) {
        this.calls = new ZooKeeperCalls(client, timeout);
        if (leafName == null || leafName.isEmpty()) {
            throw new InvalidArgumentException("leafName", leafName, "leafName (Leaf's leaf.name) must be set");
        }
        try {
            PathUtils.validatePath(ROOT + "/" + leafName);
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(
                    "leafName", leafName, "leafName is not valid in a ZooKeeper path: " + e.getMessage());
        }
        if (ip == null || !HOST.matcher(ip).matches()) {
            throw new InvalidArgumentException(
                    "ip",
                    ip,
                    "ip must be an IP address or host name without '-' (Leaf splits node names at '-'), but was '" + ip
                            + "'");
        }
        if (port < 1 || port > 65_535) {
            throw new InvalidArgumentException("port", port, "port must be from 1 to 65535, but was " + port);
        }
        if (clock == null) {
            throw new InvalidArgumentException("clock", null, "clock must not be null");
        }
        if (refreshInterval == null
                || refreshInterval.compareTo(Duration.ofMillis(10)) < 0
                || refreshInterval.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new InvalidArgumentException(
                    "refreshInterval",
                    refreshInterval,
                    "refreshInterval must be from 10ms to 1m, but was " + refreshInterval);
        }
        if (quietPeriod == null || quietPeriod.isNegative() || quietPeriod.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new InvalidArgumentException(
                    "quietPeriod", quietPeriod, "quietPeriod must be from 0 to 10m, but was " + quietPeriod);
        }
        this.ip = ip;
        this.port = port;
        this.address = ip + ":" + port;
        this.foreverPath = ROOT + "/" + leafName + "/forever";
        this.livePath = ROOT + "/" + leafName + "/idgen-live/" + address;
        this.clock = clock;
        this.refreshInterval = refreshInterval;
        this.quietPeriod = quietPeriod;
    }

    /** @return the {@code ip:port} this assigner registers as */
    public String address() {
        return address;
    }

    @Override
    public WorkerIdLease acquire(long maxWorkerId) {
        if (maxWorkerId < 0) {
            throw new InvalidArgumentException(
                    "maxWorkerId", maxWorkerId, "maxWorkerId must be at least 0, but was " + maxWorkerId);
        }
        String token = UUID.randomUUID().toString();
        Stat live = claimLive(token);
        long serverNanos = System.nanoTime();
        try {
            while (true) {
                String own = findOwn();
                if (own == null) {
                    String created = createNode();
                    if (created == null) {
                        continue; // the answer was lost: the node may exist now, under this address
                    }
                    long workerId = checkFits(sequenceOf(created), maxWorkerId, created);
                    return new LeafLease(workerId, created, 0, OptionalLong.empty(), token);
                }
                String path = foreverPath + "/" + own;
                CuratorEvent data = readData(path);
                if (data == null) {
                    continue; // deleted meanwhile
                }
                long workerId = checkFits(sequenceOf(own), maxWorkerId, path);
                Stat quiet = awaitQuiet(path, data.getStat(), live.getCtime(), serverNanos);
                long recorded = timestampOf(path, data.getData());
                long now = clock.currentTimeMillis();
                if (recorded > now) {
                    throw new ClockBackwardsException(
                            "This host's clock (" + now + ") is " + (recorded - now) + " ms behind the timestamp "
                                    + recorded + " recorded in the Leaf node " + path + " of worker id " + workerId
                                    + ": IDs issued now could repeat IDs issued before. Start when the clock has"
                                    + " passed it, as a Leaf server would refuse to start too",
                            recorded - now);
                }
                return new LeafLease(workerId, path, quiet.getVersion(), OptionalLong.of(recorded), token);
            }
        } catch (RuntimeException e) {
            try {
                releaseLive(token);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Creates this address's ephemeral companion node.
     *
     * @return its stat: its ctime is the ZooKeeper leader's time now
     * @throws LeafNodeInUseException when another live instance holds it
     */
    private Stat claimLive(String token) {
        String what = "register " + address + " as live at " + livePath;
        long deadline = calls.deadline();
        byte[] data = token.getBytes(StandardCharsets.UTF_8);
        while (true) {
            CuratorEvent created = calls.call(
                    what,
                    deadline,
                    callback -> calls.client()
                            .create()
                            .creatingParentsIfNeeded()
                            .withMode(CreateMode.EPHEMERAL)
                            .inBackground(callback)
                            .forPath(livePath, data));
            int code = created.getResultCode();
            if (code == Code.OK.intValue() || code == Code.NODEEXISTS.intValue()) {
                CuratorEvent read = calls.call(
                        what,
                        deadline,
                        callback ->
                                calls.client().getData().inBackground(callback).forPath(livePath));
                int readCode = read.getResultCode();
                if (readCode == Code.OK.intValue()) {
                    if (token.equals(new String(read.getData(), StandardCharsets.UTF_8))) {
                        return read.getStat();
                    }
                    throw new LeafNodeInUseException("Another idgen instance is live with the Leaf address " + address
                            + " (its node " + livePath + " exists): two instances with one address would share"
                            + " one worker id. Give each instance its own address (idgen.snowflake.leaf.address);"
                            + " if the previous instance at this address crashed, its node goes when its"
                            + " ZooKeeper session expires: start again after that");
                }
                if (readCode != Code.NONODE.intValue() && !ZooKeeperCalls.isTransient(readCode)) {
                    throw calls.failed(what, read);
                }
                calls.backOff(what, deadline, read);
                continue;
            }
            if (!ZooKeeperCalls.isTransient(code)) {
                throw calls.failed(what, created);
            }
            calls.backOff(what, deadline, created);
        }
    }

    /** Deletes the companion node if it is still this token's. */
    private void releaseLive(String token) {
        String what = "unregister " + address + " at " + livePath;
        long deadline = calls.deadline();
        CuratorEvent read = calls.call(
                what,
                deadline,
                callback -> calls.client().getData().inBackground(callback).forPath(livePath));
        if (read.getResultCode() != Code.OK.intValue()
                || !token.equals(new String(read.getData(), StandardCharsets.UTF_8))) {
            return;
        }
        int version = read.getStat().getVersion();
        calls.call(
                what,
                deadline,
                callback -> calls.client()
                        .delete()
                        .withVersion(version)
                        .inBackground(callback)
                        .forPath(livePath));
    }

    /**
     * @return the name of this address's node under {@code forever} (the lowest sequence if there are several), or
     *         null
     */
    private String findOwn() {
        String what = "list the Leaf nodes under " + foreverPath;
        long deadline = calls.deadline();
        while (true) {
            CuratorEvent answer = calls.call(
                    what,
                    deadline,
                    callback ->
                            calls.client().getChildren().inBackground(callback).forPath(foreverPath));
            int code = answer.getResultCode();
            if (code == Code.NONODE.intValue()) {
                return null;
            }
            if (code == Code.OK.intValue()) {
                String own = null;
                long lowest = Long.MAX_VALUE;
                for (String child : answer.getChildren()) {
                    int dash = child.indexOf('-');
                    if (dash < 0 || !child.substring(0, dash).equals(address)) {
                        continue;
                    }
                    long sequence = sequenceOrNegative(child);
                    if (sequence >= 0 && sequence < lowest) {
                        lowest = sequence;
                        own = child;
                    }
                }
                return own;
            }
            if (!ZooKeeperCalls.isTransient(code)) {
                throw calls.failed(what, answer);
            }
            calls.backOff(what, deadline, answer);
        }
    }

    /**
     * Creates this address's persistent sequential node, as Leaf does.
     *
     * @return its path, or null when the answer was lost (it may have been created)
     */
    private String createNode() {
        String what = "create the Leaf node " + foreverPath + "/" + address + "-";
        long deadline = calls.deadline();
        byte[] data = json(clock.currentTimeMillis());
        CuratorEvent answer = calls.call(
                what,
                deadline,
                callback -> calls.client()
                        .create()
                        .creatingParentsIfNeeded()
                        .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                        .inBackground(callback)
                        .forPath(foreverPath + "/" + address + "-", data));
        int code = answer.getResultCode();
        if (code == Code.OK.intValue()) {
            String name = answer.getName();
            return name.startsWith("/") ? name : foreverPath + "/" + name;
        }
        if (!ZooKeeperCalls.isTransient(code)) {
            throw calls.failed(what, answer);
        }
        calls.backOff(what, deadline, answer);
        return null;
    }

    /** @return the node's data and stat, or null when it does not exist */
    private CuratorEvent readData(String path) {
        String what = "read the Leaf node " + path;
        long deadline = calls.deadline();
        while (true) {
            CuratorEvent answer = calls.call(
                    what,
                    deadline,
                    callback -> calls.client().getData().inBackground(callback).forPath(path));
            int code = answer.getResultCode();
            if (code == Code.OK.intValue()) {
                return answer;
            }
            if (code == Code.NONODE.intValue()) {
                return null;
            }
            if (!ZooKeeperCalls.isTransient(code)) {
                throw calls.failed(what, answer);
            }
            calls.backOff(what, deadline, answer);
        }
    }

    /** @return the node's stat, or null when it does not exist */
    private Stat stat(String path) {
        String what = "read the Leaf node " + path;
        long deadline = calls.deadline();
        while (true) {
            CuratorEvent answer = calls.call(
                    what,
                    deadline,
                    callback ->
                            calls.client().checkExists().inBackground(callback).forPath(path));
            int code = answer.getResultCode();
            if (code == Code.OK.intValue()) {
                return answer.getStat();
            }
            if (code == Code.NONODE.intValue()) {
                return null;
            }
            if (!ZooKeeperCalls.isTransient(code)) {
                throw calls.failed(what, answer);
            }
            calls.backOff(what, deadline, answer);
        }
    }

    /**
     * Waits until the node has been unwritten for the quiet period, by the ZooKeeper leader's clock.
     *
     * @param serverMillis the leader's time at {@code serverNanos} (the companion node's ctime)
     * @return the node's stat, unchanged since {@code seen}
     * @throws LeafNodeInUseException when the node is written (or deleted) meanwhile
     */
    private Stat awaitQuiet(String path, Stat seen, long serverMillis, long serverNanos) {
        long quietMillis = quietPeriod.toMillis();
        while (true) {
            long serverNow = serverMillis + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - serverNanos);
            long left = quietMillis - (serverNow - seen.getMtime());
            if (left <= 0) {
                return seen;
            }
            LockSupport.parkNanos(Math.min(POLL_NANOS, TimeUnit.MILLISECONDS.toNanos(left)));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IdGenerationException("Interrupted while waiting for the Leaf node " + path + " to be quiet");
            }
            Stat now = stat(path);
            if (now == null || now.getMzxid() != seen.getMzxid()) {
                throw new LeafNodeInUseException("The Leaf node " + path + " of the address " + address + " was "
                        + (now == null ? "deleted" : "written") + " by another process while this instance waited "
                        + quietPeriod + " for it to be quiet: a Leaf server (or another process) at " + address
                        + " is still running, and taking its worker id would repeat its IDs. Stop it first, or give"
                        + " this instance another address (idgen.snowflake.leaf.address)");
            }
        }
    }

    private long checkFits(long sequence, long maxWorkerId, String path) {
        if (sequence < 0) {
            throw new IdGenerationException("The Leaf node " + path + " has no sequence number after its '-'");
        }
        if (sequence > maxWorkerId) {
            throw new WorkerIdsExhaustedException("The Leaf node " + path + " of the address " + address
                    + " has the sequence number " + sequence + ", above the layout's largest worker id "
                    + maxWorkerId + ": the Leaf namespace " + foreverPath + " (idgen.snowflake.leaf.name, Leaf's"
                    + " leaf.name) is exhausted, every address that ever registered there used one up. Use a fresh"
                    + " idgen.snowflake.leaf.name, with a layout whose IDs stay above the old ones");
        }
        return sequence;
    }

    /** @return the sequence number after the last '-' of a node name or path, or -1 when there is none */
    static long sequenceOrNegative(String name) {
        int dash = name.lastIndexOf('-');
        if (dash < 0 || dash == name.length() - 1 || name.length() - dash - 1 > 10) {
            return -1;
        }
        String digits = name.substring(dash + 1);
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(digits);
    }

    private static long sequenceOf(String name) {
        return sequenceOrNegative(name);
    }

    /** @return the node data as Leaf writes it (Jackson's order of its Endpoint's fields; the port a string) */
    byte[] json(long timestamp) {
        return ("{\"ip\":\"" + ip + "\",\"port\":\"" + port + "\",\"timestamp\":" + timestamp + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** @return the timestamp recorded in a Leaf node's data */
    static long timestampOf(String path, byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        Matcher matcher = TIMESTAMP.matcher(text);
        if (!matcher.find()) {
            throw new IdGenerationException("The Leaf node " + path + " records no timestamp ('" + text
                    + "'): this instance cannot check that its clock is past the IDs issued under it");
        }
        try {
            return Long.parseLong(matcher.group(1));
        } catch (NumberFormatException e) {
            throw new IdGenerationException("The Leaf node " + path + " records an unreadable timestamp: " + text, e);
        }
    }

    /** The worker id of one Leaf node, its timestamp refreshed until closed. */
    private final class LeafLease implements WorkerIdLease {

        private final long workerId;
        private final String path;
        private final OptionalLong previous;
        private final String token;
        private final AtomicLong newest = new AtomicLong(Long.MIN_VALUE);
        private final ScheduledThreadPoolExecutor refresher;
        private final List<Runnable> lostActions = new ArrayList<>();

        /** The node's version after this lease's last write; guarded by this. */
        private int version;

        /** The timestamp last written; guarded by this. */
        private long written = Long.MIN_VALUE;

        private volatile boolean lost;
        private volatile boolean closed;

        LeafLease(long workerId, String path, int version, OptionalLong previous, String token) {
            this.workerId = workerId;
            this.path = path;
            this.version = version;
            this.previous = previous;
            this.token = token;
            // One thread, one periodic task: Leaf's refresh, bounded.
            this.refresher = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, "idgen-leaf-refresh-" + workerId);
                thread.setDaemon(true);
                return thread;
            });
            refresher.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            long interval = refreshInterval.toNanos();
            refresher.scheduleWithFixedDelay(this::refresh, interval, interval, TimeUnit.NANOSECONDS);
        }

        @Override
        public long workerId() {
            return workerId;
        }

        @Override
        public OptionalLong lastUsedTimestamp() {
            return previous;
        }

        @Override
        public void recordTimestamp(long epochMillis) {
            newest.accumulateAndGet(epochMillis, Math::max);
        }

        @Override
        public void checkValid() {
            if (lost) {
                throw new LeaseLostException("The Leaf node " + path + " of worker id " + workerId
                        + " was changed by another process: it may be using the worker id");
            }
        }

        @Override
        public boolean isValid() {
            return !lost;
        }

        @Override
        public void whenLost(Runnable action) {
            synchronized (lostActions) {
                if (!lost) {
                    lostActions.add(action);
                    return;
                }
            }
            action.run();
        }

        private void refresh() {
            try {
                write();
                if (!lost && !closed) {
                    claimLiveAgain();
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Refreshing the Leaf node " + path + " failed", e);
            }
        }

        /** Writes the newest timestamp, conditional on this lease's last version. */
        private synchronized void write() {
            if (lost) {
                return;
            }
            long timestamp = Math.max(clock.currentTimeMillis(), Math.max(newest.get(), written));
            byte[] data = json(timestamp);
            int expected = version;
            String what = "refresh the Leaf node " + path;
            CuratorEvent answer = calls.call(
                    what,
                    calls.deadline(),
                    callback -> calls.client()
                            .setData()
                            .withVersion(expected)
                            .inBackground(callback)
                            .forPath(path, data));
            int code = answer.getResultCode();
            if (code == Code.OK.intValue()) {
                version = answer.getStat().getVersion();
                written = timestamp;
            } else if (code == Code.BADVERSION.intValue() || code == Code.NONODE.intValue()) {
                lose(Code.get(code) + ": the node was written or deleted by another process");
            } else {
                throw calls.failed(what, answer);
            }
        }

        /**
         * Creates the companion node again when the session that held it ended; loses the lease when another
         * instance's is there instead.
         */
        private void claimLiveAgain() {
            CuratorEvent read = readData(livePath);
            if (read != null) {
                if (!token.equals(new String(read.getData(), StandardCharsets.UTF_8))) {
                    lose("another idgen instance registered as live at " + address);
                }
                return;
            }
            try {
                claimLive(token);
            } catch (LeafNodeInUseException e) {
                lose("another idgen instance registered as live at " + address + " while this one's session had"
                        + " ended");
            }
        }

        private void lose(String why) {
            List<Runnable> actions;
            synchronized (lostActions) {
                if (lost) {
                    return;
                }
                lost = true;
                actions = new ArrayList<>(lostActions);
                lostActions.clear();
            }
            LOG.log(System.Logger.Level.ERROR, "Lost worker id " + workerId + " of the Leaf node " + path + ": " + why);
            try {
                // So that acquiring again judges the node by its writes, not by this lease's companion node.
                releaseLive(token);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Deleting " + livePath + " failed", e);
            }
            actions.forEach(Runnable::run);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            refresher.shutdown();
            try {
                if (!refresher.awaitTermination(calls.timeout().toMillis() * 2, TimeUnit.MILLISECONDS)) {
                    refresher.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                refresher.shutdownNow();
            }
            try {
                // The newest timestamp in use, for the next start's clock check (Leaf's own check).
                write();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Writing the last timestamp to " + path + " failed", e);
            }
            try {
                releaseLive(token);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Deleting " + livePath + " failed", e);
            }
        }

        @Override
        public String toString() {
            return "Leaf worker id " + workerId + " (" + path + ")";
        }
    }
}
