package dev.idgen.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Asks the sentinels every {@link #INTERVAL} which node is the master, and calls {@code onSwitch} when the answer
 * differs from the node the data connection actually reached ({@link #reached(String)}, the server's own address for
 * it), or, where that is not known, when the answer changes. Comparing with the node reached, not with the sentinels'
 * first answer, also catches a failover between the connection and the watch's first look: that first answer already
 * names the new master while the connection is still on the old one. A sentinel that has not learnt of the failover
 * yet can lead a reconnect back to the old master; the watch then reconnects until the sentinels agree. Where the
 * sentinels' address of a node cannot be matched with the server's own (NAT, announced hostnames), a mismatch that
 * {@link #NAT_EVIDENCE} reconnects in a row over {@link #NAT_SETTLE} do not change, while no sentinel names the node
 * reached, is ignored from then on, and only changes of the answer count.
 *
 * <p>Why: after a failover the old master stays writable until the sentinels turn it into a replica, about ten seconds
 * later (and a master that was paused takes writes again as soon as it resumes). A connection to it sees no error
 * meanwhile, so a process that stays on it while others moved to the new master has two masters: harmless for the
 * windowed counter (each master counts in windows the database reserved for it), but readable-ID buckets and worker
 * id leases would be issued on both. Following the sentinels' answer bounds that overlap to about one interval plus a
 * round trip, which the bucket fence ({@link BucketedRedisSequence#FAILOVER_FENCE}) and the lease warm-up after a
 * failover cover. Assumption: this process reaches a sentinel that knows; one cut off from every sentinel but not
 * from the old master is in a real network partition, which {@code min-replicas-to-write} on the masters handles.
 */
final class SentinelMasterWatch implements AutoCloseable {

    /** How often the sentinels are asked. */
    static final Duration INTERVAL = Duration.ofMillis(250);

    private static final System.Logger LOG = System.getLogger(SentinelMasterWatch.class.getName());

    private final RedisClient client;
    private final String masterName;
    private final List<RedisURI> sentinels;
    private final Duration timeout;
    private final Runnable onSwitch;
    private final Thread thread;
    private volatile boolean closed;
    private StatefulRedisSentinelConnection<String, String> connection;
    private int current;
    private SocketAddress master;
    /** Where the data connection is ({@code host:port}, the server's own address), or null when not known. */
    private final AtomicReference<String> reached = new AtomicReference<>();
    /** A mismatch that one reconnect did not change: the sentinels' answer and where the connection still went. */
    private SocketAddress unmatchedNamed;

    private String unmatchedReached;
    private boolean switchedForMismatch;
    /** Reconnects in a row that reached the same server, which no sentinel named: evidence of NAT. */
    private int natEvidence;
    /** Whether a mismatch was taken for NAT (the comparison with the node reached ended). */
    private volatile boolean takenAsOneNode;

    /**
     * How many reconnects in a row must reach a server that the sentinels name under another address, with no
     * sentinel naming it, before the two are taken as one node: a sentinel that named the old master to one reconnect
     * and learnt of the failover right after must not end the comparison.
     */
    static final int NAT_EVIDENCE = 3;

    /**
     * How long those reconnects must go on at least: longer than the sentinels take to tell each other of a failover
     * (their hello messages go every 2 s), so that a sentinel's stale answer has ended by then.
     */
    static final Duration NAT_SETTLE = Duration.ofSeconds(3);

    /** When the first of the reconnects counted in {@link #natEvidence} was made. */
    private long natSuspectSince;

    /**
     * @param client the Lettuce client to open sentinel connections with (the one the data connections come from)
     * @param masterName the name of the master the sentinels watch
     * @param sentinels the sentinels, each with the credentials to ask it
     * @param timeout how long to wait for a sentinel's answer
     * @param onSwitch what to do when the sentinels name another master
     */
    SentinelMasterWatch(
            RedisClient client, String masterName, List<RedisURI> sentinels, Duration timeout, Runnable onSwitch) {
        this.client = client;
        this.masterName = masterName;
        this.sentinels = List.copyOf(sentinels);
        this.timeout = timeout;
        this.onSwitch = onSwitch;
        this.thread = new Thread(this::run, "idgen-sentinel-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!closed) {
            SocketAddress named = askSentinels();
            if (named != null) {
                String at = reached.get();
                if (at != null && !sameNode(at, named)) {
                    if (switchedForMismatch && named.equals(unmatchedNamed) && at.equals(unmatchedReached)) {
                        // A reconnect led to the same server again. Either its own address and the sentinels' differ
                        // in name only (NAT, announced addresses), or a sentinel that has not learnt of a failover yet
                        // named the old master to the reconnect, which still takes writes (a paused master that
                        // resumed). Only the first may end the comparison: it must hold for a few reconnects over
                        // NAT_SETTLE, and then no sentinel may name the node reached. The sentinels are asked only
                        // then, so that no reconnect waits for their answers.
                        long now = System.nanoTime();
                        if (natEvidence == 0) {
                            natSuspectSince = now;
                        }
                        natEvidence++;
                        boolean settled = natEvidence >= NAT_EVIDENCE && now - natSuspectSince >= NAT_SETTLE.toNanos();
                        String stale = settled ? sentinelNaming(at) : null;
                        if (settled && stale == null) {
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "The sentinels name " + named + " as master '"
                                            + masterName + "', and the connection reached the server at " + at
                                            + " again after " + natEvidence + " reconnects, with no sentinel naming"
                                            + " it: taking them as one node (NAT or announced addresses)");
                            reached.compareAndSet(at, null);
                            takenAsOneNode = true;
                        } else {
                            if (stale != null) {
                                natEvidence = 0;
                                LOG.log(
                                        System.Logger.Level.WARNING,
                                        "The sentinels name " + named + " as master '" + masterName + "', but " + stale
                                                + " still names the node the connection reached again, " + at
                                                + ": reconnecting until they agree");
                            } else {
                                LOG.log(
                                        System.Logger.Level.WARNING,
                                        "The sentinels name " + named + " as master '" + masterName
                                                + "', and the connection reached the server at " + at + " again after"
                                                + " a reconnect (" + natEvidence + " of at least " + NAT_EVIDENCE
                                                + ", over " + NAT_SETTLE + "): reconnecting");
                            }
                            reached.compareAndSet(at, null);
                            onSwitch.run();
                        }
                    } else {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "The sentinels name " + named + " as master '" + masterName
                                        + "', but the connection is at " + at + ": reconnecting");
                        unmatchedNamed = named;
                        unmatchedReached = at;
                        switchedForMismatch = true;
                        // Another pair: evidence for an earlier one (a NAT taken, say) does not count for it.
                        natEvidence = 0;
                        reached.compareAndSet(at, null);
                        onSwitch.run();
                    }
                } else if (at == null && master != null && !master.equals(named)) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "The sentinels name " + named + " as master '" + masterName + "' instead of " + master
                                    + ": reconnecting");
                    onSwitch.run();
                } else if (at != null) {
                    switchedForMismatch = false;
                    natEvidence = 0;
                }
                master = named;
            }
            LockSupport.parkNanos(INTERVAL.toNanos());
        }
        closeConnection();
    }

    /**
     * Tells the watch where a new data connection is: the server's own address for it ({@code CLIENT INFO}'s
     * {@code laddr}), or null when it could not be asked.
     *
     * @param address {@code host:port}
     */
    void reached(String address) {
        reached.set(address);
    }

    /** Whether the server's own address {@code host:port} and the sentinels' answer name one node. */
    static boolean sameNode(String address, SocketAddress named) {
        if (!(named instanceof InetSocketAddress inet)) {
            return true;
        }
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            return true;
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            return true;
        }
        if (port != inet.getPort()) {
            return false;
        }
        if (host.equalsIgnoreCase(inet.getHostString())) {
            return true;
        }
        try {
            InetAddress[] mine = InetAddress.getAllByName(host);
            InetAddress[] theirs = InetAddress.getAllByName(inet.getHostString());
            for (InetAddress a : mine) {
                for (InetAddress b : theirs) {
                    if (a.equals(b)) {
                        return true;
                    }
                }
            }
            return false;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Whether a mismatch between the node reached and the sentinels' answer was taken for NAT. */
    boolean takenAsOneNode() {
        return takenAsOneNode;
    }

    /**
     * Asks every sentinel, each on a connection of its own, which node is the master.
     *
     * @return the first sentinel (as {@code host:port}) that names the node at {@code address}, or {@code null} when
     *         none does (or none answers)
     */
    private String sentinelNaming(String address) {
        for (RedisURI sentinel : sentinels) {
            if (closed) {
                return null;
            }
            CompletableFuture<StatefulRedisSentinelConnection<String, String>> connecting =
                    client.connectSentinelAsync(StringCodec.UTF8, sentinel);
            StatefulRedisSentinelConnection<String, String> one = null;
            try {
                // Bounded by the timeout, connecting too: a sentinel that does not answer must not hold the watch.
                one = connecting.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                SocketAddress named =
                        one.async().getMasterAddrByName(masterName).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                if (named != null && sameNode(address, named)) {
                    return sentinel.getHost() + ":" + sentinel.getPort();
                }
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                // Down or slow: it names nothing.
            } finally {
                if (one != null) {
                    one.close();
                } else {
                    // A connection that comes after the timeout is closed when it comes.
                    connecting.thenAccept(StatefulRedisSentinelConnection::close);
                }
            }
        }
        return null;
    }

    /**
     * @return the master the first sentinel that answers names, or {@code null} when none answers
     */
    private SocketAddress askSentinels() {
        for (int tried = 0; tried < sentinels.size() && !closed; tried++) {
            try {
                if (connection == null) {
                    connection = client.connectSentinel(sentinels.get(current));
                }
                return connection.async().getMasterAddrByName(masterName).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                // This sentinel is down or slow: the next one.
                closeConnection();
                current = (current + 1) % sentinels.size();
            }
        }
        return null;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException ignored) {
                // already unusable
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
