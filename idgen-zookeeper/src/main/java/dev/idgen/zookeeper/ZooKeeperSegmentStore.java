package dev.idgen.zookeeper;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;

/**
 * A {@link SegmentStore} on ZooKeeper: one persistent node per name, {@code <basePath>/segments/<name>}, whose data is
 * the highest ID allocated so far as a decimal string (UTF-8).
 *
 * <p>An allocation reads the node's value and version, then writes {@code value + step} with {@code setData} on that
 * version: ZooKeeper applies it only if nobody wrote the node in between, so two allocations never get the same block;
 * the one that loses ({@code BadVersion}) reads again and retries. A new name is created holding the initial value
 * ({@code NodeExists}: another instance created it first, and its value is read). Every write is acknowledged by a
 * quorum of the ensemble before it returns, and ZooKeeper loses no acknowledged write when its leader changes (the
 * new leader is elected among servers that have every committed transaction), so unlike a database failing over to a
 * lagging replica no failover jump is needed: {@link #allocateAbove} raises the value to the caller's floor in the
 * same versioned write, and that is all. (That holds while the servers keep what they wrote to disk, ZooKeeper's
 * default {@code forceSync=yes}; an ensemble whose majority comes back with empty data directories has forgotten the
 * names, which start again from the initial value.)
 *
 * <p>The first read of an allocation goes to whichever server the client is connected to, without a {@code sync}: a
 * follower may lag a little behind the leader, but a stale value only costs a failed versioned write, never a repeated
 * block. After a failed write the next read is preceded by a {@code sync}, so that a lagging follower cannot make the
 * allocation fail again and again on the same stale version.
 *
 * <p>A node's version is a 32-bit number that wraps: after 2^30 allocations of one name its node is rotated, deleted
 * on the version read and created again with the new value in one transaction, so that its version starts again
 * from 0 and a conditional write never meets the version -1 (which ZooKeeper reads as "any version").
 *
 * <p>Every call returns or throws {@link ZooKeeperUnavailableException} within the timeout (plus a few milliseconds),
 * whatever the client's retry policy, also while the ensemble has no quorum or no server answers.
 */
public final class ZooKeeperSegmentStore implements SegmentStore {

    /**
     * The version from which a name's node is rotated (deleted on its version and created again with the new value,
     * in one transaction) instead of written with {@code setData}: 2^30 allocations of one name, well before its
     * 32-bit version would wrap.
     */
    static final int ROTATE_AT = 1 << 30;

    private final ZooKeeperCalls calls;
    private final String basePath;
    private final String segmentsPath;
    private final long initialValue;
    private final int rotateAt;

    /**
     * @param client a started Curator client; the store never closes it
     * @param basePath the node the store's nodes live under, such as {@code /idgen}: starts with '/', no trailing '/',
     *        at most 256 characters; the client's namespace, if any, applies
     * @param initialValue the value a new name starts from; its first ID is {@code initialValue + 1}
     * @param timeout the longest one call may take, including waiting for a connection and retries
     * @throws InvalidArgumentException (an {@link IllegalArgumentException}) naming the argument that breaks its rule
     */
    public ZooKeeperSegmentStore(CuratorFramework client, String basePath, long initialValue, Duration timeout) {
        this(client, basePath, initialValue, timeout, ROTATE_AT);
    }

    /** As the public constructor, with the version from which a node is rotated (for tests). */
    ZooKeeperSegmentStore(CuratorFramework client, String basePath, long initialValue, Duration timeout, int rotateAt) {
        this.rotateAt = rotateAt;
        this.calls = new ZooKeeperCalls(client, timeout);
        this.basePath = ZooKeeperCalls.checkBasePath(basePath);
        if (initialValue < 0) {
            throw new InvalidArgumentException(
                    "initialValue", initialValue, "initialValue must be at least 0, but was " + initialValue);
        }
        this.segmentsPath = basePath + "/segments";
        this.initialValue = initialValue;
    }

    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The node's value becomes {@code max(value, floor) + step} in one versioned write, so the block lies above
     * {@code floor} and holds exactly {@code step} IDs.
     *
     * @throws InvalidArgumentException naming {@code name} or {@code step} when it breaks its rule
     * @throws IdGenerationException when the block would pass {@link Long#MAX_VALUE}
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        ZooKeeperCalls.checkNodeName("name", name);
        if (step < 1) {
            throw new InvalidArgumentException("step", step, "step must be at least 1, but was " + step);
        }
        String path = segmentsPath + "/" + name;
        String what = "allocate " + step + " IDs for '" + name + "' at " + path;
        long deadline = calls.deadline();
        boolean sync = false;
        while (true) {
            if (sync) {
                // After a lost race (or a lost answer) the next read goes through the leader first: a follower that
                // lags would otherwise hand out the version that just failed again, and again.
                CuratorEvent synced = calls.call(
                        what,
                        deadline,
                        callback -> calls.client().sync().inBackground(callback).forPath(path));
                if (synced.getResultCode() != Code.OK.intValue()
                        && !ZooKeeperCalls.isTransient(synced.getResultCode())) {
                    throw calls.failed(what, synced);
                }
            }
            CuratorEvent read = calls.call(
                    what,
                    deadline,
                    callback -> calls.client().getData().inBackground(callback).forPath(path));
            Code readCode = Code.get(read.getResultCode());
            if (readCode == Code.NONODE) {
                create(what, path, deadline);
                continue;
            }
            if (readCode != Code.OK) {
                if (!ZooKeeperCalls.isTransient(read.getResultCode())) {
                    throw calls.failed(what, read);
                }
                calls.backOff(what, deadline, read);
                sync = true;
                continue;
            }
            long value = parse(path, read.getData());
            long start = Math.max(value, floor);
            if (start > Long.MAX_VALUE - step) {
                throw new IdGenerationException("The IDs of '" + name + "' at " + path + " on ZooKeeper "
                        + calls.connectString() + " are exhausted: " + step + " more after " + start
                        + " would pass " + Long.MAX_VALUE);
            }
            long last = start + step;
            int version = read.getStat().getVersion();
            CuratorEvent written = calls.writeIfVersion(what, deadline, path, version, bytes(last), rotateAt);
            Code writtenCode = Code.get(written.getResultCode());
            if (writtenCode == Code.OK) {
                return new Segment(start + 1, last);
            }
            if (writtenCode == Code.BADVERSION || writtenCode == Code.NONODE) {
                // Another instance allocated in between (or the node went): read again, the block is not ours.
                // This is also what a write that Curator resent after a reconnect meets when its first send had
                // already been applied: the version moved on, so it cannot allocate twice; that first block is lost
                // (a gap), and this call takes a fresh one after reading the new value.
                calls.checkDeadline(what, deadline);
                sync = true;
                continue;
            }
            if (!ZooKeeperCalls.isTransient(written.getResultCode())) {
                throw calls.failed(what, written);
            }
            // Connection loss during the write: it may or may not have been applied, and only reading tells. Either
            // way this call reads again and continues from the value it finds, so the block we may have written is
            // skipped (a gap), never handed out twice. Session expiry or a timeout answer mean the same.
            calls.backOff(what, deadline, written);
            sync = true;
        }
    }

    /** Creates the node of a new name holding the initial value, with its parents; another's creation is as good. */
    private void create(String what, String path, long deadline) {
        while (true) {
            CuratorEvent created = calls.call(
                    what,
                    deadline,
                    callback -> calls.client()
                            .create()
                            .creatingParentsIfNeeded()
                            .withMode(CreateMode.PERSISTENT)
                            .inBackground(callback)
                            .forPath(path, bytes(initialValue)));
            Code code = Code.get(created.getResultCode());
            if (code == Code.OK || code == Code.NODEEXISTS) {
                return;
            }
            if (!ZooKeeperCalls.isTransient(created.getResultCode())) {
                throw calls.failed(what, created);
            }
            // The create may have been applied; a second one finds NodeExists, and either way the value is read.
            calls.backOff(what, deadline, created);
        }
    }

    /**
     * Checks that a quorum answers: a {@code sync} through the leader, then a read of the base path, both within the
     * timeout. Allocates nothing and creates nothing.
     *
     * @throws ZooKeeperUnavailableException when no quorum answers in time
     */
    @Override
    public Optional<List<String>> names() {
        String what = "list the names under " + segmentsPath;
        CuratorEvent children = calls.call(
                what,
                calls.deadline(),
                callback -> calls.client().getChildren().inBackground(callback).forPath(segmentsPath));
        Code code = Code.get(children.getResultCode());
        if (code == Code.NONODE) {
            return Optional.of(List.of());
        }
        if (code != Code.OK) {
            throw calls.failed(what, children);
        }
        List<String> names = new ArrayList<>();
        for (String child : children.getChildren()) {
            if (IdArguments.isName(child)) {
                names.add(child);
            }
        }
        return Optional.of(names);
    }

    @Override
    public void checkAvailable() {
        calls.checkAvailable(basePath);
    }

    private long parse(String path, byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8).trim();
        try {
            long value = Long.parseLong(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ZooKeeperUnavailableException("The node " + path + " on ZooKeeper " + calls.connectString()
                + " holds '" + text + "', not the highest allocated ID as a decimal number: it was written by"
                + " something else than this store");
    }

    private static byte[] bytes(long value) {
        return Long.toString(value).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @return the node the store's nodes live under
     */
    public String basePath() {
        return basePath;
    }

    /**
     * @return {@code ZooKeeper segments under <basePath> on <connect string>}; never a call to ZooKeeper
     */
    @Override
    public String toString() {
        return "ZooKeeper segments under " + basePath + " on " + calls.connectString();
    }
}
