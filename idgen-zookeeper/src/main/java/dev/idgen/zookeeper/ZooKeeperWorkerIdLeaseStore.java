package dev.idgen.zookeeper;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.zookeeper.WorkerLease.State;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;

/**
 * A {@link WorkerIdLeaseStore} on ZooKeeper, with the guarantees of the Redis and JDBC lease stores: a lease expires
 * when it is not renewed, even while its holder stays connected; a worker id is free only {@code reuseDelay} after its
 * lease expired or was released, by the store's clock; the last timestamp outlives the lease and never goes down; a
 * lapsed lease is never revived.
 *
 * <p><b>Nodes.</b> Under {@code basePath}:
 * <ul>
 * <li>{@code workers/<id>}, persistent, one per worker id ever leased. Its data records the owner, the state
 * ({@code HELD} or {@code RELEASED}), the ttl and reuse delay of the last write, the last timestamp, a random nonce
 * of the write, and how the lease was granted (the {@link Acquisition#previousTtlMillis()} its acquisition answered,
 * kept by renewals). Every change of it is conditional, a {@code create} (the id was never leased) or a
 * {@code setData} on the version read (compare and set), so of two owners racing for one id only one succeeds.</li>
 * <li>{@code holders/<id>}, ephemeral, created by the holder's ZooKeeper session when it acquires (data: the owner),
 * created again by a renewal if the session changed, deleted on release. It shows operators and health checks which
 * holders are alive. It grants nothing: a lease held by a live session still expires unrenewed (a session is kept
 * alive by the client library whether or not the generator still renews), and a worker id whose holder node is gone
 * is still free only by the rules below. {@link #acquire} only uses it for its hint: a lease whose holder session
 * ended is expected to lapse, so the caller is told to wait for it rather than that every id is taken.</li>
 * <li>{@code clock}, persistent, written (unconditionally, data empty) to read the store's clock.</li>
 * </ul>
 *
 * <p><b>The clock.</b> The store's clock is the clock of the ZooKeeper leader: it stamps every write with its time
 * ({@code Stat.mtime}), so {@code workers/<id>}'s mtime says when its lease was taken, renewed or released, and
 * "now" is the mtime of a write to {@code clock} made just before the decision. A lease {@code HELD} expires at
 * {@code mtime + ttl} and its id is free from {@code mtime + ttl + reuseDelay}; a {@code RELEASED} id is free from
 * {@code mtime + reuseDelay} (the longer of the reuse delay recorded and the one asked for). Since "now" is read
 * before the write that takes an id, the write itself happens no earlier: an id is never taken early. A renewal reads
 * "now" first and refuses a lease expired by then; after its versioned write it checks the write's own mtime again,
 * and a renewal that landed after the expiry (a slow round trip) answers false, leaving the node held by the old owner
 * until its new expiry (longer than needed, never shorter). When the leader changes, another server's clock becomes
 * "now". ZooKeeper never requires the servers' clocks to agree, and a leader's clock may step: a clock ahead makes
 * live leases look expired. So an id taken from a lease that lapsed {@code HELD} is granted as taken over, with that
 * lease's ttl, and its new owner waits that ttl plus the reuse delay by its own monotonic clock before issuing (see
 * {@link Acquisition}); its holder's renewals are refused meanwhile, and it stops by its own clock. An id
 * {@code RELEASED} was given up by a holder that had stopped, and is granted free.
 *
 * <p><b>Why a compare and set is enough.</b> An acquirer and the holder's renewal may run at once: both read the
 * node at some version, both read "now", both write on that version. ZooKeeper applies writes in one order and
 * applies a versioned write only to the version it names, so only the first of them succeeds; the other finds
 * {@code BadVersion} and reads again. So an acquirer takes an id only if nothing changed it since it found it expired
 * (no renewal came in between), and a renewal succeeds only if nobody took the id since it found the lease its own.
 *
 * <p><b>Lost answers.</b> A write whose answer was lost (connection loss) may or may not have happened; Curator may
 * also send it again after a reconnect, when the version check or the create fails. Either way the store reads the
 * node again: if it carries this write's nonce, the write happened, and its outcome is used. An acquisition that timed
 * out after it was applied leaves a lease in the owner's name: when that owner asks again while it is unexpired, it
 * gets that lease back (see {@link WorkerIdLeaseStore#acquire}), by a write on the version read; otherwise it lapses
 * after its ttl and the reuse delay. It is granted as the lost acquisition was, free or taken over with the same ttl:
 * a lost take-over given back free would skip the wait for the holder it was taken from. The grant is recorded after
 * a '/' in the nonce token, {@code nonce/grant}, which an older version reads as an opaque nonce, so older and newer
 * versions read each other's nodes; a node an older version wrote records no grant and is given back as taken over
 * with an unknown ttl. (A sixth field would not do: an older version finds such a node unreadable, and its
 * acquisitions fail while one is among the ids they consider.) The owner is unique per process (instance id plus
 * nonce), so no other process gets it back, not one with the same configured instance id nor a pod restarted while
 * the old one was only frozen.
 *
 * <p>Every call returns or throws {@link ZooKeeperUnavailableException} within the timeout (plus a few milliseconds),
 * also while the ensemble has no quorum or no server answers.
 *
 * <p>This class is the lease protocol; the calls bounded by the deadline whatever the connection's state are
 * {@link ZooKeeperCalls}, the data of a worker's node {@link WorkerLease}, and the holder nodes {@link HolderNodes}.
 * The reads of the clock and of the worker nodes stay here with the writes: each decision reads "now" before the
 * nodes and then writes on the version it read, and that order is the protocol (see the clock and the compare and set
 * above).
 */
public final class ZooKeeperWorkerIdLeaseStore implements WorkerIdLeaseStore {

    private static final int MAX_OWNER_LENGTH = 128;

    /** The largest worker id to consider: 2^22 - 1, more than any layout gives. */
    private static final long MAX_WORKER_ID = (1L << 22) - 1;

    /**
     * The version from which a worker's node is no longer renewed but has to be acquired afresh (and is then rotated,
     * see {@link ZooKeeperCalls#writeIfVersion}): 2^30 writes of one worker id, decades of renewals.
     */
    private static final int ROTATE_AT = 1 << 30;

    private static final byte[] EMPTY = new byte[0];

    private final ZooKeeperCalls calls;
    private final String basePath;
    private final String workersPath;
    private final String holdersPath;
    private final String clockPath;
    private final HolderNodes holders;

    /** A worker's node as read: its lease, version and when it was last written (leader's clock). */
    private record Node(WorkerLease lease, int version, long mtime) {

        boolean heldBy(String owner) {
            return lease.state() == State.HELD && lease.owner().equals(owner);
        }

        /** @return when the lease expires (or expired); for a released one, when it was released */
        long expiresAt() {
            return lease.state() == State.HELD ? mtime + lease.ttlMillis() : mtime;
        }

        /** @return from when the worker id is free, with at least {@code reuseDelayMillis} after the expiry */
        long freeAt(long reuseDelayMillis) {
            return expiresAt() + Math.max(reuseDelayMillis, lease.reuseDelayMillis());
        }
    }

    /**
     * @param client a started Curator client; the store never closes it. Its session owns the holder nodes
     * @param basePath the node the store's nodes live under, such as {@code /idgen}: starts with '/', no trailing '/',
     *        at most 256 characters; the client's namespace, if any, applies
     * @param timeout the longest one call may take, including waiting for a connection and retries
     * @throws InvalidArgumentException (an {@link IllegalArgumentException}) naming the argument that breaks its rule
     */
    public ZooKeeperWorkerIdLeaseStore(CuratorFramework client, String basePath, Duration timeout) {
        this.calls = new ZooKeeperCalls(client, timeout);
        this.basePath = ZooKeeperCalls.checkBasePath(basePath);
        this.workersPath = basePath + "/workers";
        this.holdersPath = basePath + "/holders";
        this.clockPath = basePath + "/clock";
        this.holders = new HolderNodes(calls, holdersPath);
    }

    @Override
    public Acquisition acquire(String owner, long maxWorkerId, Duration ttl, Duration reuseDelay) {
        checkOwner(owner);
        if (maxWorkerId < 0 || maxWorkerId > MAX_WORKER_ID) {
            throw new InvalidArgumentException(
                    "maxWorkerId",
                    maxWorkerId,
                    "maxWorkerId must be between 0 and " + MAX_WORKER_ID + ", but was " + maxWorkerId);
        }
        long ttlMillis = checkDuration("ttl", ttl);
        long reuseDelayMillis = checkDuration("reuseDelay", reuseDelay);
        String what = "acquire a worker id from 0 to " + maxWorkerId + " for '" + owner + "' under " + basePath;
        long deadline = calls.deadline();
        // The clock first: once this session's write is answered, the server it is connected to has applied every
        // write committed before it, so the reads that follow are at least as new as "now" (a sync for free).
        long now = now(what, deadline);
        Map<Long, Node> nodes = readWorkers(what, deadline, maxWorkerId);
        Set<Long> live = children(what, deadline, holdersPath);
        for (long workerId = 0; workerId <= maxWorkerId; workerId++) {
            for (Node node = nodes.get(workerId);
                    node != null && node.heldBy(owner) && now < node.expiresAt();
                    node = nodes.get(workerId)) {
                // Its own earlier grant, whose answer was lost: the same id again, written on the version read, so
                // whatever changed the node in between is read again and judged afresh.
                WorkerLease lease = new WorkerLease(
                        State.HELD,
                        ttlMillis,
                        Math.max(reuseDelayMillis, node.lease().reuseDelayMillis()),
                        node.lease().lastTimestamp(),
                        nonce(),
                        node.lease().grantedPreviousTtlMillis(),
                        owner);
                if (take(what, deadline, workerId, lease, node.version())) {
                    return lease.granted(workerId);
                }
                calls.checkDeadline(what, deadline);
                nodes.put(workerId, read(what, deadline, workerId));
            }
        }
        long wait = Long.MAX_VALUE;
        for (long workerId = 0; workerId <= maxWorkerId; workerId++) {
            Node node = nodes.get(workerId);
            if (node == null) {
                WorkerLease lease =
                        new WorkerLease(State.HELD, ttlMillis, reuseDelayMillis, -1, nonce(), Acquisition.FREE, owner);
                if (take(what, deadline, workerId, lease, -1)) {
                    return lease.granted(workerId);
                }
            } else if (now >= node.freeAt(reuseDelayMillis)) {
                // Taken if the version still matches, so the node is exactly as read: its last timestamp is the one
                // to hand on, and whether it was released or lapsed held (by the leader's clock, which may have
                // stepped).
                long previousTtl = node.lease().state() == State.RELEASED
                        ? Acquisition.FREE
                        : node.lease().ttlMillis() > 0 ? node.lease().ttlMillis() : Acquisition.UNKNOWN_TTL;
                WorkerLease lease = new WorkerLease(
                        State.HELD,
                        ttlMillis,
                        reuseDelayMillis,
                        node.lease().lastTimestamp(),
                        nonce(),
                        previousTtl,
                        owner);
                if (take(what, deadline, workerId, lease, node.version())) {
                    return lease.granted(workerId);
                }
            } else if (node.lease().state() == State.RELEASED || now >= node.expiresAt() || !live.contains(workerId)) {
                // Expired or released, waiting out its reuse delay; or held by a session that ended, so its lease
                // will lapse: worth waiting for, unlike an id held by a live holder.
                wait = Math.min(wait, node.freeAt(reuseDelayMillis) - now);
            }
        }
        return Acquisition.none(wait == Long.MAX_VALUE ? 0 : Math.max(1, wait));
    }

    /**
     * Takes {@code workerId} for {@code lease}: creates its node when {@code version} is -1 (it has none), else
     * writes it on {@code version}.
     *
     * @return whether this write took it; false when another owner's write came first
     */
    private boolean take(String what, long deadline, long workerId, WorkerLease lease, int version) {
        String path = workersPath + "/" + workerId;
        byte[] data = lease.encode();
        CuratorEvent written = version < 0
                ? calls.call(
                        what,
                        deadline,
                        callback -> calls.client()
                                .create()
                                .creatingParentsIfNeeded()
                                .withMode(CreateMode.PERSISTENT)
                                .inBackground(callback)
                                .forPath(path, data))
                : calls.writeIfVersion(what, deadline, path, version, data, ROTATE_AT);
        Code code = Code.get(written.getResultCode());
        boolean taken;
        if (code == Code.OK) {
            taken = true;
        } else if (code == Code.NODEEXISTS || code == Code.BADVERSION || code == Code.NONODE) {
            // Someone else's write came first; or this very write, resent by Curator after a lost answer.
            taken = isMine(what, deadline, path, lease.nonce());
        } else if (ZooKeeperCalls.isTransient(written.getResultCode())) {
            // The write may or may not have happened: the node tells.
            taken = isMine(what, deadline, path, lease.nonce());
        } else {
            throw calls.failed(what, written);
        }
        if (taken) {
            holders.show(what, deadline, workerId, lease.owner());
        }
        return taken;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A missing node (deleted by hand: ZooKeeper does not lose acknowledged writes) is created again for an owner
     * that still holds validly; the create fails if anyone else created it meanwhile.
     */
    @Override
    public boolean renew(
            long workerId, String owner, Duration ttl, Duration reuseDelay, long lastTimestamp, boolean heldValidly) {
        checkOwner(owner);
        long ttlMillis = checkDuration("ttl", ttl);
        long reuseDelayMillis = checkDuration("reuseDelay", reuseDelay);
        if (!heldValidly) {
            return false;
        }
        String what = "renew worker id " + workerId + " for '" + owner + "' under " + basePath;
        long deadline = calls.deadline();
        while (true) {
            Node node = read(what, deadline, workerId);
            if (node == null) {
                WorkerLease lease = new WorkerLease(
                        State.HELD,
                        ttlMillis,
                        reuseDelayMillis,
                        lastTimestamp,
                        nonce(),
                        Acquisition.UNKNOWN_TTL,
                        owner);
                if (take(what, deadline, workerId, lease, -1)) {
                    return true;
                }
                calls.checkDeadline(what, deadline);
                continue;
            }
            if (!node.heldBy(owner)) {
                return false;
            }
            Boolean renewed =
                    renewNode(what, deadline, workerId, owner, node, ttlMillis, reuseDelayMillis, lastTimestamp);
            if (renewed != null) {
                return renewed;
            }
            // The node changed under us (only this owner's own writes can change a lease it holds): read again.
            calls.checkDeadline(what, deadline);
        }
    }

    /**
     * Renews the lease {@code node} if it has not expired by the store's clock.
     *
     * @return true when renewed, false when refused (expired, or the write landed after the expiry), null when the
     *         node changed since it was read
     */
    private Boolean renewNode(
            String what,
            long deadline,
            long workerId,
            String owner,
            Node node,
            long ttlMillis,
            long reuseDelayMillis,
            long lastTimestamp) {
        if (node.version() >= ROTATE_AT) {
            return false; // acquired afresh, which rotates the node; see ROTATE_AT
        }
        long now = now(what, deadline);
        if (now >= node.expiresAt()) {
            return false; // expired: never revived, the owner acquires afresh
        }
        String path = workersPath + "/" + workerId;
        WorkerLease lease = new WorkerLease(
                State.HELD,
                ttlMillis,
                Math.max(reuseDelayMillis, node.lease().reuseDelayMillis()),
                Math.max(lastTimestamp, node.lease().lastTimestamp()),
                nonce(),
                node.lease().grantedPreviousTtlMillis(),
                owner);
        CuratorEvent written = calls.writeIfVersion(what, deadline, path, node.version(), lease.encode(), ROTATE_AT);
        Code code = Code.get(written.getResultCode());
        long writtenAt;
        if (code == Code.OK) {
            writtenAt = written.getStat().getMtime();
        } else if (code == Code.BADVERSION
                || code == Code.NONODE
                || ZooKeeperCalls.isTransient(written.getResultCode())) {
            Node now2 = read(what, deadline, workerId);
            if (now2 == null || !now2.lease().nonce().equals(lease.nonce())) {
                return null;
            }
            writtenAt = now2.mtime(); // this write happened after all
        } else {
            throw calls.failed(what, written);
        }
        // The write's own time, by the leader's clock: a renewal that landed after the lease expired does not count
        // (the node stays held in this owner's name until the new expiry, so nobody else takes it early).
        if (writtenAt >= node.expiresAt()) {
            return false;
        }
        holders.show(what, deadline, workerId, owner);
        return true;
    }

    @Override
    public void release(long workerId, String owner, long lastTimestamp) {
        checkOwner(owner);
        String what = "release worker id " + workerId + " for '" + owner + "' under " + basePath;
        long deadline = calls.deadline();
        String path = workersPath + "/" + workerId;
        while (true) {
            Node node = read(what, deadline, workerId);
            if (node == null || !node.heldBy(owner)) {
                return;
            }
            WorkerLease lease = new WorkerLease(
                    State.RELEASED,
                    node.lease().ttlMillis(),
                    node.lease().reuseDelayMillis(),
                    Math.max(lastTimestamp, node.lease().lastTimestamp()),
                    nonce(),
                    node.lease().grantedPreviousTtlMillis(),
                    owner);
            CuratorEvent written =
                    calls.writeIfVersion(what, deadline, path, node.version(), lease.encode(), ROTATE_AT);
            Code code = Code.get(written.getResultCode());
            if (code != Code.OK
                    && code != Code.BADVERSION
                    && code != Code.NONODE
                    && !ZooKeeperCalls.isTransient(written.getResultCode())) {
                throw calls.failed(what, written);
            }
            if (code == Code.OK || isMine(what, deadline, path, lease.nonce())) {
                holders.hide(what, deadline, workerId, owner);
                return;
            }
            calls.checkDeadline(what, deadline);
        }
    }

    /**
     * Checks that a quorum answers: a {@code sync} through the leader, then a read of the base path, both within the
     * timeout. Writes nothing.
     *
     * @throws ZooKeeperUnavailableException when no quorum answers in time
     */
    public void checkAvailable() {
        calls.checkAvailable(basePath);
    }

    /**
     * @return the worker ids whose holder's session is alive now (their ephemeral holder node exists)
     * @throws ZooKeeperUnavailableException when ZooKeeper does not answer in time
     */
    public Set<Long> liveHolders() {
        return children("list the live holders under " + basePath, calls.deadline(), holdersPath);
    }

    /** @return the store's "now": the leader's time stamped on a write to the clock node */
    private long now(String what, long deadline) {
        while (true) {
            CuratorEvent written = calls.call(
                    what,
                    deadline,
                    callback -> calls.client().setData().inBackground(callback).forPath(clockPath, EMPTY));
            Code code = Code.get(written.getResultCode());
            if (code == Code.OK) {
                return written.getStat().getMtime();
            }
            if (code == Code.NONODE) {
                CuratorEvent created = calls.call(
                        what,
                        deadline,
                        callback -> calls.client()
                                .create()
                                .creatingParentsIfNeeded()
                                .withMode(CreateMode.PERSISTENT)
                                .inBackground(callback)
                                .forPath(clockPath, EMPTY));
                int createdCode = created.getResultCode();
                if (createdCode != Code.OK.intValue()
                        && createdCode != Code.NODEEXISTS.intValue()
                        && !ZooKeeperCalls.isTransient(createdCode)) {
                    throw calls.failed(what, created);
                }
                continue;
            }
            if (!ZooKeeperCalls.isTransient(written.getResultCode())) {
                throw calls.failed(what, written);
            }
            calls.backOff(what, deadline, written);
        }
    }

    /** @return the worker nodes from 0 to {@code maxWorkerId}, read in parallel */
    private Map<Long, Node> readWorkers(String what, long deadline, long maxWorkerId) {
        Set<Long> ids = children(what, deadline, workersPath);
        Map<Long, CompletableFuture<CuratorEvent>> reads = new HashMap<>();
        for (long id : ids) {
            if (id <= maxWorkerId) {
                String path = workersPath + "/" + id;
                reads.put(
                        id,
                        calls.start(
                                what,
                                deadline,
                                callback -> calls.client()
                                        .getData()
                                        .inBackground(callback)
                                        .forPath(path)));
            }
        }
        Map<Long, Node> nodes = new HashMap<>();
        for (Map.Entry<Long, CompletableFuture<CuratorEvent>> read : reads.entrySet()) {
            CuratorEvent event = calls.await(what, deadline, read.getValue());
            Node node;
            if (event.getResultCode() == Code.OK.intValue()) {
                node = node(event);
            } else if (event.getResultCode() == Code.NONODE.intValue()) {
                node = null;
            } else if (ZooKeeperCalls.isTransient(event.getResultCode())) {
                node = read(what, deadline, read.getKey());
            } else {
                throw calls.failed(what, event);
            }
            if (node != null) {
                nodes.put(read.getKey(), node);
            }
        }
        return nodes;
    }

    /** @return the ids named by the children of {@code path} (none when it does not exist) */
    private Set<Long> children(String what, long deadline, String path) {
        while (true) {
            CuratorEvent listed = calls.call(
                    what,
                    deadline,
                    callback ->
                            calls.client().getChildren().inBackground(callback).forPath(path));
            Code code = Code.get(listed.getResultCode());
            if (code == Code.NONODE) {
                return Set.of();
            }
            if (code == Code.OK) {
                Set<Long> ids = new HashSet<>();
                List<String> children = listed.getChildren();
                for (String child : children == null ? List.<String>of() : children) {
                    try {
                        ids.add(Long.parseLong(child));
                    } catch (NumberFormatException e) {
                        // not one of ours
                    }
                }
                return ids;
            }
            if (!ZooKeeperCalls.isTransient(listed.getResultCode())) {
                throw calls.failed(what, listed);
            }
            calls.backOff(what, deadline, listed);
        }
    }

    /** @return the worker's node, or null when it has none; transient failures are retried until the deadline */
    private Node read(String what, long deadline, long workerId) {
        String path = workersPath + "/" + workerId;
        while (true) {
            CuratorEvent read = calls.call(
                    what,
                    deadline,
                    callback -> calls.client().getData().inBackground(callback).forPath(path));
            Code code = Code.get(read.getResultCode());
            if (code == Code.OK) {
                return node(read);
            }
            if (code == Code.NONODE) {
                return null;
            }
            if (!ZooKeeperCalls.isTransient(read.getResultCode())) {
                throw calls.failed(what, read);
            }
            calls.backOff(what, deadline, read);
        }
    }

    /** @return whether the node at {@code path} carries the write with {@code nonce} */
    private boolean isMine(String what, long deadline, String path, String nonce) {
        Node node = read(what, deadline, Long.parseLong(path.substring(path.lastIndexOf('/') + 1)));
        return node != null && node.lease().nonce().equals(nonce);
    }

    private Node node(CuratorEvent read) {
        WorkerLease lease = WorkerLease.decode(read.getData());
        if (lease == null) {
            throw new ZooKeeperUnavailableException("The node " + read.getPath() + " on ZooKeeper "
                    + calls.connectString() + " holds data this store did not write: a worker id lease node holds"
                    + " 'STATE ttl reuseDelay lastTimestamp nonce/grant', a newline and the owner");
        }
        Stat stat = read.getStat();
        return new Node(lease, stat.getVersion(), stat.getMtime());
    }

    private static String nonce() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    private static void checkOwner(String owner) {
        if (owner == null || owner.isEmpty() || owner.length() > MAX_OWNER_LENGTH) {
            throw new InvalidArgumentException(
                    "owner", owner, "owner must be 1 to " + MAX_OWNER_LENGTH + " characters, but was '" + owner + "'");
        }
    }

    private static long checkDuration(String argument, Duration duration) {
        if (duration == null || duration.toMillis() < 1 || duration.compareTo(Duration.ofDays(1)) > 0) {
            throw new InvalidArgumentException(
                    argument, duration, argument + " must be between 1 ms and 1 day, but was " + duration);
        }
        return duration.toMillis();
    }

    /**
     * @return the node the store's nodes live under
     */
    public String basePath() {
        return basePath;
    }

    /**
     * @return {@code ZooKeeper worker id leases under <basePath> on <connect string>}; never a call to ZooKeeper
     */
    @Override
    public String toString() {
        return "ZooKeeper worker id leases under " + basePath + " on " + calls.connectString();
    }
}
