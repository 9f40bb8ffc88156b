package dev.idgen.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.ZooKeeper;

/**
 * What a health indicator shows of a ZooKeeper ensemble: the client's view (connect string, connection state, session
 * and the server it is connected to) and each server's own answer to the {@code srvr} four-letter word.
 *
 * @param connectString the client's connect string
 * @param connectionState the state of the client's ZooKeeper handle ({@code CONNECTED}, {@code CONNECTING},
 *        {@code CLOSED}, ...), or {@code UNKNOWN}
 * @param sessionId the session id in hex ({@code 0x...}), {@code 0x0} before the first connection
 * @param sessionTimeoutMillis the session timeout the server negotiated (the one asked for before a connection)
 * @param connectedServer the server the client is connected to ({@code /127.0.0.1:2181}), or null when not connected
 *        or not known
 * @param servers each server of the connect string, in its order
 * @param leader the address of the server that reports itself leader (or standalone), or null when none does (4lw
 *        disabled, or no leader now)
 */
public record ZooKeeperEnsembleStatus(
        String connectString,
        String connectionState,
        String sessionId,
        int sessionTimeoutMillis,
        String connectedServer,
        List<Server> servers,
        String leader) {

    /** The longest one server's {@code srvr} may take. */
    private static final int SRVR_MILLIS = 1000;

    /**
     * One server of the connect string.
     *
     * @param address {@code host:port} as in the connect string
     * @param reachable whether it accepted a connection and answered
     * @param mode what it answered: {@code leader}, {@code follower}, {@code observer}, {@code standalone},
     *        {@code not serving} (up, without a quorum), {@code unknown} (the four-letter word is disabled, or the
     *        answer had no mode), or {@code unreachable}
     */
    public record Server(String address, boolean reachable, String mode) {}

    public ZooKeeperEnsembleStatus {
        servers = List.copyOf(servers);
    }

    /**
     * Reads the status within {@code timeout}: a {@code sync} through the client (which needs a quorum) and, at the
     * same time, {@code srvr} to every server over a plain socket (a second each at most).
     *
     * @param client a started Curator client
     * @param timeout the longest the whole read may take
     * @return the status, when a quorum answered
     * @throws ZooKeeperUnavailableException when no quorum answered within the timeout; its message holds what each
     *         server answered
     */
    public static ZooKeeperEnsembleStatus read(CuratorFramework client, Duration timeout) {
        ZooKeeperCalls calls = new ZooKeeperCalls(client, timeout);
        long deadline = calls.deadline();
        String connectString = calls.connectString();
        List<String> addresses = addresses(connectString);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, addresses.size()), runnable -> {
            Thread thread = new Thread(runnable, "idgen-zookeeper-srvr");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<CompletableFuture<Server>> asked = new ArrayList<>();
            for (String address : addresses) {
                asked.add(CompletableFuture.supplyAsync(() -> srvr(address, deadline), pool));
            }
            ZooKeeperUnavailableException problem = null;
            try {
                CuratorEvent synced = calls.call(
                        "read the ensemble status",
                        deadline,
                        callback -> client.sync().inBackground(callback).forPath("/"));
                if (synced.getResultCode() != Code.OK.intValue()) {
                    problem = calls.failed("read the ensemble status", synced);
                }
            } catch (ZooKeeperUnavailableException e) {
                problem = e;
            }
            List<Server> servers = new ArrayList<>();
            String leader = null;
            for (int i = 0; i < addresses.size(); i++) {
                Server server;
                try {
                    server = asked.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    server = new Server(addresses.get(i), false, "unreachable");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    server = new Server(addresses.get(i), false, "unreachable");
                }
                servers.add(server);
                if (leader == null && ("leader".equals(server.mode()) || "standalone".equals(server.mode()))) {
                    leader = server.address();
                }
            }
            String state = "UNKNOWN";
            String session = "0x0";
            int sessionTimeout = 0;
            String connected = null;
            try {
                ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
                ZooKeeper.States states = zooKeeper.getState();
                state = states.toString();
                session = "0x" + Long.toHexString(zooKeeper.getSessionId());
                sessionTimeout = zooKeeper.getSessionTimeout();
                connected = states.isConnected() ? remoteServer(zooKeeper.toString()) : null;
            } catch (Exception e) {
                // not known; the state says so
            }
            ZooKeeperEnsembleStatus status = new ZooKeeperEnsembleStatus(
                    connectString, state, session, sessionTimeout, connected, servers, leader);
            if (problem != null) {
                throw new ZooKeeperUnavailableException(
                        "No ZooKeeper quorum answered the client at " + connectString + " within " + timeout + " ("
                                + problem.getMessage() + "); the servers: " + status.describeServers(),
                        problem);
            }
            return status;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * @return the details for a health indicator: {@code connectString}, {@code connectionState}, {@code sessionId},
     *         {@code sessionTimeoutMillis}, {@code connectedServer} and {@code leader} (when known), and
     *         {@code servers}: per address a map of {@code reachable} and {@code mode}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("connectString", connectString);
        map.put("connectionState", connectionState);
        map.put("sessionId", sessionId);
        map.put("sessionTimeoutMillis", sessionTimeoutMillis);
        if (connectedServer != null) {
            map.put("connectedServer", connectedServer);
        }
        if (leader != null) {
            map.put("leader", leader);
        }
        Map<String, Object> byAddress = new LinkedHashMap<>();
        for (Server server : servers) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("reachable", server.reachable());
            details.put("mode", server.mode());
            byAddress.put(server.address(), details);
        }
        map.put("servers", byAddress);
        return map;
    }

    private String describeServers() {
        StringBuilder text = new StringBuilder();
        for (Server server : servers) {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(server.address()).append(' ').append(server.mode());
        }
        return text.toString();
    }

    /** @return the {@code host:port} entries of a connect string, without its chroot suffix */
    static List<String> addresses(String connectString) {
        String hosts = connectString;
        int chroot = hosts.indexOf('/');
        if (chroot >= 0) {
            hosts = hosts.substring(0, chroot);
        }
        List<String> addresses = new ArrayList<>();
        for (String address : hosts.split(",")) {
            if (!address.isBlank()) {
                addresses.add(address.trim());
            }
        }
        return addresses;
    }

    /** Asks one server {@code srvr}, within a second and the deadline. */
    private static Server srvr(String address, long deadline) {
        int colon = address.lastIndexOf(':');
        String host = colon > 0 ? address.substring(0, colon) : address;
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(address.substring(colon + 1)) : 2181;
        } catch (NumberFormatException e) {
            return new Server(address, false, "unreachable");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int millis =
                (int) Math.max(1, Math.min(SRVR_MILLIS, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        String answer;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return new Server(address, false, "unreachable");
        }
        if (answer.contains("not currently serving")) {
            return new Server(address, true, "not serving");
        }
        for (String line : answer.split("\n")) {
            if (line.startsWith("Mode: ")) {
                return new Server(
                        address, true, line.substring("Mode: ".length()).trim());
            }
        }
        return new Server(address, true, "unknown");
    }

    /** @return the {@code remoteserver:} part of a ZooKeeper handle's description, or null */
    private static String remoteServer(String description) {
        int at = description.indexOf("remoteserver:");
        if (at < 0) {
            return null;
        }
        int end = description.indexOf(' ', at);
        String server = description.substring(at + "remoteserver:".length(), end < 0 ? description.length() : end);
        return server.isEmpty() || server.equals("null") ? null : server;
    }
}
