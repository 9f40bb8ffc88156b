package dev.idgen.zookeeper;

import dev.idgen.core.InvalidArgumentException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.common.PathUtils;

/**
 * ZooKeeper operations bounded by a deadline, whatever the client's retry policy and connection state.
 *
 * <p>Curator's foreground operations block in {@code blockUntilConnected} and retry as the client's retry policy says,
 * which can take far longer than a caller may wait. So every operation here runs {@code inBackground} and the caller
 * waits for its event on a future with the time left; before it is sent, the client must be connected (polled until
 * the deadline), so that operations do not pile up in Curator's queue while no server answers. An operation whose
 * answer did not come in time may still reach ZooKeeper later (Curator resends one lost with its connection): the
 * stores make every write conditional (a version, or a create) so that a late or repeated write can only waste an
 * allocation, never repeat one.
 */
final class ZooKeeperCalls {

    /** Starts one background operation that reports to {@code callback}. */
    @FunctionalInterface
    interface Operation {
        void start(BackgroundCallback callback) throws Exception;
    }

    /** The longest a base path may be, so that the nodes under it stay short. */
    static final int MAX_BASE_PATH_LENGTH = 256;

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long BACK_OFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final CuratorFramework client;
    private final Duration timeout;
    private final long timeoutNanos;

    ZooKeeperCalls(CuratorFramework client, Duration timeout) {
        if (client == null) {
            throw new InvalidArgumentException("client", null, "client must not be null");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new InvalidArgumentException(
                    "timeout", timeout, "timeout must be above 0 and at most 1 hour, but was " + timeout);
        }
        this.client = client;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
    }

    CuratorFramework client() {
        return client;
    }

    Duration timeout() {
        return timeout;
    }

    /** @return when an operation starting now must have returned or thrown, in {@link System#nanoTime()} terms */
    long deadline() {
        return System.nanoTime() + timeoutNanos;
    }

    /** @return the client's connect string, never a call to ZooKeeper */
    String connectString() {
        return connectString(client);
    }

    static String connectString(CuratorFramework client) {
        try {
            String current = client.getZookeeperClient().getCurrentConnectionString();
            return current != null ? current : "(no connect string)";
        } catch (RuntimeException e) {
            return "(no connect string: " + e + ")";
        }
    }

    /**
     * Runs {@code operation} once the client is connected and waits for its event until {@code deadline}.
     *
     * @return the event, with whatever result code ZooKeeper answered
     * @throws ZooKeeperUnavailableException when the client is not started, does not connect, or no answer comes in
     *         time
     */
    CuratorEvent call(String what, long deadline, Operation operation) {
        return await(what, deadline, start(what, deadline, operation));
    }

    /**
     * Sends {@code operation} once the client is connected, without waiting for its answer, so that several
     * operations can be in flight at once.
     *
     * @return the answer to come
     * @throws ZooKeeperUnavailableException when the client is not started or does not connect by {@code deadline}
     */
    CompletableFuture<CuratorEvent> start(String what, long deadline, Operation operation) {
        awaitConnected(what, deadline);
        CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
        try {
            operation.start((client, event) -> answer.complete(event));
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw unavailable(what, "the operation could not be sent (" + e + ")", e);
        }
        return answer;
    }

    /**
     * Waits for {@code answer} until {@code deadline}.
     *
     * @throws ZooKeeperUnavailableException when no answer comes in time
     */
    CuratorEvent await(String what, long deadline, CompletableFuture<CuratorEvent> answer) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw unavailable(what, "no answer within the timeout of " + timeout, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(what, "interrupted while waiting for the answer", e);
        } catch (ExecutionException e) {
            throw unavailable(what, "the operation failed (" + e.getCause() + ")", e.getCause());
        }
    }

    /**
     * Writes {@code data} to {@code path} only if the node is still at {@code version}. Below {@code rotateAt} that is
     * a {@code setData} on the version; from there on, one transaction deletes the node on that version and creates
     * it again with {@code data}, so that its version starts again from 0: a ZooKeeper version is a 32-bit number
     * that wraps to negative values, and a version that reached -1 would make a conditional write unconditional.
     *
     * @return the answer: {@code OK}, {@code BADVERSION} or {@code NONODE} when the node changed, or a transient
     *         code; after a rotation the answer's {@link CuratorEvent#getStat()} is null
     */
    CuratorEvent writeIfVersion(String what, long deadline, String path, int version, byte[] data, int rotateAt) {
        if (version < 0) {
            throw unavailable(
                    what,
                    "the node " + path + " has the version " + version + ": it was written more than 2^31 times"
                            + " by something else than this store, so a conditional write is not safe",
                    null);
        }
        if (version < rotateAt) {
            return call(
                    what,
                    deadline,
                    callback -> client.setData()
                            .withVersion(version)
                            .inBackground(callback)
                            .forPath(path, data));
        }
        return call(
                what,
                deadline,
                callback -> client.transaction()
                        .inBackground(callback)
                        .forOperations(
                                client.transactionOp()
                                        .delete()
                                        .withVersion(version)
                                        .forPath(path),
                                client.transactionOp()
                                        .create()
                                        .withMode(CreateMode.PERSISTENT)
                                        .forPath(path, data)));
    }

    /** Waits until the client is connected, polling, at most until {@code deadline}. */
    private void awaitConnected(String what, long deadline) {
        CuratorFrameworkState state = client.getState();
        if (state != CuratorFrameworkState.STARTED) {
            throw unavailable(
                    what,
                    "the Curator client is " + (state == CuratorFrameworkState.LATENT ? "not started" : "closed"),
                    null);
        }
        while (!client.getZookeeperClient().isConnected()) {
            try {
                // As Curator's own background loop does: lets the client reset a connection that timed out.
                client.getZookeeperClient().getZooKeeper();
            } catch (Exception e) {
                // not connected yet; a closed client shows in its state
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw unavailable(
                        what, "not connected to a server with a quorum within the timeout of " + timeout, null);
            }
            if (client.getState() != CuratorFrameworkState.STARTED) {
                throw unavailable(what, "the Curator client was closed", null);
            }
            LockSupport.parkNanos(Math.min(left, POLL_NANOS));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw unavailable(what, "interrupted while waiting for a connection", null);
            }
        }
    }

    /**
     * @return whether {@code code} says the answer was lost or the server could not serve now, so that the operation
     *         may have happened or not and trying again (after reading afresh) may succeed
     */
    static boolean isTransient(int code) {
        Code c = Code.get(code);
        return c == Code.CONNECTIONLOSS
                || c == Code.SESSIONEXPIRED
                || c == Code.OPERATIONTIMEOUT
                || c == Code.SESSIONMOVED
                || c == Code.NOTREADONLY
                || c == Code.RECONFIGINPROGRESS
                || c == Code.THROTTLEDOP
                || c == Code.REQUESTTIMEOUT;
    }

    /**
     * Pauses briefly after a transient failure before the caller tries again.
     *
     * @throws ZooKeeperUnavailableException when the deadline has passed
     */
    void backOff(String what, long deadline, CuratorEvent event) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw unavailable(
                    what, "kept failing until the timeout of " + timeout + ", last with " + codeOf(event), null);
        }
        LockSupport.parkNanos(Math.min(left, BACK_OFF_NANOS));
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw unavailable(what, "interrupted", null);
        }
    }

    /** @throws ZooKeeperUnavailableException when the deadline has passed */
    void checkDeadline(String what, long deadline) {
        if (deadline - System.nanoTime() <= 0) {
            throw unavailable(what, "did not finish within the timeout of " + timeout, null);
        }
    }

    /**
     * Checks that a quorum answers: a {@code sync} of {@code path} through the leader, then a read of whether it
     * exists, both within the timeout. Writes nothing; {@code path} need not exist.
     *
     * @throws ZooKeeperUnavailableException when no quorum answers in time
     */
    void checkAvailable(String path) {
        String what = "check availability of " + path;
        long deadline = deadline();
        while (true) {
            CuratorEvent answer = call(
                    what,
                    deadline,
                    callback -> client.sync().inBackground(callback).forPath(path));
            int code = answer.getResultCode();
            if (code == Code.OK.intValue() || code == Code.NONODE.intValue()) {
                answer = call(
                        what,
                        deadline,
                        callback -> client.checkExists().inBackground(callback).forPath(path));
                code = answer.getResultCode();
                if (code == Code.OK.intValue() || code == Code.NONODE.intValue()) {
                    return;
                }
            }
            if (!isTransient(code)) {
                throw failed(what, answer);
            }
            backOff(what, deadline, answer);
        }
    }

    ZooKeeperUnavailableException failed(String what, CuratorEvent event) {
        Code code = Code.get(event.getResultCode());
        KeeperException cause = code != null ? KeeperException.create(code, event.getPath()) : null;
        return unavailable(what, "ZooKeeper answered " + codeOf(event), cause);
    }

    ZooKeeperUnavailableException unavailable(String what, String problem, Throwable cause) {
        return new ZooKeeperUnavailableException(
                "ZooKeeper at " + connectString() + " could not " + what + ": " + problem, cause);
    }

    private static String codeOf(CuratorEvent event) {
        Code code = Code.get(event.getResultCode());
        return (code != null ? code.name() : Integer.toString(event.getResultCode()))
                + (event.getPath() != null ? " for " + event.getPath() : "");
    }

    /**
     * @return {@code basePath}, checked: starts with '/', does not end with '/' (unless it is '/'), a valid ZooKeeper
     *         path of at most {@value #MAX_BASE_PATH_LENGTH} characters
     * @throws InvalidArgumentException naming {@code basePath} otherwise
     */
    static String checkBasePath(String basePath) {
        String problem = null;
        if (basePath == null || basePath.isEmpty() || basePath.charAt(0) != '/') {
            problem = "must start with '/'";
        } else if (basePath.length() > MAX_BASE_PATH_LENGTH) {
            problem = "must be at most " + MAX_BASE_PATH_LENGTH + " characters";
        } else if (basePath.length() > 1 && basePath.endsWith("/")) {
            problem = "must not end with '/'";
        } else if (basePath.equals("/")) {
            problem = "must name a node below the root, such as /idgen";
        } else {
            try {
                PathUtils.validatePath(basePath);
            } catch (IllegalArgumentException e) {
                problem = "is not a valid ZooKeeper path (" + e.getMessage() + ")";
            }
        }
        if (problem != null) {
            throw new InvalidArgumentException(
                    "basePath", basePath, "basePath " + problem + ", but was '" + basePath + "'");
        }
        return basePath;
    }

    /**
     * @throws InvalidArgumentException naming {@code argument} unless {@code name} is valid as one znode's name
     */
    static String checkNodeName(String argument, String name) {
        String problem = null;
        if (name == null || name.isEmpty()) {
            problem = "must not be empty";
        } else if (name.indexOf('/') >= 0) {
            problem = "must not contain '/'";
        } else if (name.equals(".") || name.equals("..")) {
            problem = "must not be '.' or '..'";
        } else if (name.length() > 512) {
            problem = "must be at most 512 characters";
        } else {
            try {
                PathUtils.validatePath("/" + name);
            } catch (IllegalArgumentException e) {
                problem = "is not valid as a ZooKeeper node name (" + e.getMessage() + ")";
            }
        }
        if (problem != null) {
            throw new InvalidArgumentException(argument, name, argument + " " + problem + ", but was '" + name + "'");
        }
        return name;
    }
}
