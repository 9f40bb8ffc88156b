package dev.idgen.zookeeper;

import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;

/**
 * The ephemeral {@code holders/<id>} nodes of a {@link ZooKeeperWorkerIdLeaseStore}: shown by the holder's session
 * when it takes or renews a worker id, hidden when it releases it, so that operators and health checks see which
 * holders are alive. Kept apart from the lease protocol because they grant nothing and every call is best effort (a
 * failure leaves the lease as it is): the protocol reads them only to hint how long to wait, and these calls can be
 * checked on a server without any lease.
 */
final class HolderNodes {

    private final ZooKeeperCalls calls;
    private final String holdersPath;

    /**
     * @param calls the store's calls, whose client's session owns the nodes
     * @param holdersPath the node the holder nodes live under
     */
    HolderNodes(ZooKeeperCalls calls, String holdersPath) {
        this.calls = calls;
        this.holdersPath = holdersPath;
    }

    /**
     * Creates the ephemeral holder node of {@code workerId} in this client's session, replacing one another owner
     * left. Best effort: it only shows who holds what, so a failure leaves the lease as it is.
     */
    void show(String what, long deadline, long workerId, String owner) {
        String path = holdersPath + "/" + workerId;
        try {
            CuratorEvent read = readHolder(what, deadline, path);
            if (read.getResultCode() == Code.OK.intValue()) {
                long session =
                        calls.client().getZookeeperClient().getZooKeeper().getSessionId();
                if (owner.equals(new String(read.getData(), StandardCharsets.UTF_8))
                        && read.getStat().getEphemeralOwner() == session) {
                    return;
                }
                deleteHolder(what, deadline, path, read.getStat().getVersion());
            }
            byte[] data = owner.getBytes(StandardCharsets.UTF_8);
            calls.call(
                    what,
                    deadline,
                    callback -> calls.client()
                            .create()
                            .creatingParentsIfNeeded()
                            .withMode(CreateMode.EPHEMERAL)
                            .inBackground(callback)
                            .forPath(path, data));
        } catch (Exception e) {
            // Best effort: the lease itself is written.
        }
    }

    /** Deletes the holder node of {@code workerId} if it names {@code owner}. Best effort. */
    void hide(String what, long deadline, long workerId, String owner) {
        String path = holdersPath + "/" + workerId;
        try {
            CuratorEvent read = readHolder(what, deadline, path);
            if (read.getResultCode() == Code.OK.intValue()
                    && owner.equals(new String(read.getData(), StandardCharsets.UTF_8))) {
                deleteHolder(what, deadline, path, read.getStat().getVersion());
            }
        } catch (Exception e) {
            // Best effort: the lease itself is released; the node goes with the session at the latest.
        }
    }

    private CuratorEvent readHolder(String what, long deadline, String path) {
        return calls.call(
                what,
                deadline,
                callback -> calls.client().getData().inBackground(callback).forPath(path));
    }

    /** Deletes a holder node only as read: a holder that wrote it meanwhile keeps it. */
    private void deleteHolder(String what, long deadline, String path, int version) {
        calls.call(
                what,
                deadline,
                callback -> calls.client()
                        .delete()
                        .withVersion(version)
                        .inBackground(callback)
                        .forPath(path));
    }
}
