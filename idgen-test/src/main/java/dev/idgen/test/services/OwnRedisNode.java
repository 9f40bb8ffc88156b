package dev.idgen.test.services;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One {@code redis-server} process (a data node or a sentinel) of a test's own replicated Redis, started as a child
 * process in the foreground ({@code --daemonize no}) so that the test can kill it, freeze it ({@code SIGSTOP}) and
 * thaw it ({@code SIGCONT}) by its pid, and start it again on the same port and in the same directory.
 *
 * <p>It speaks to its server over a raw socket with short timeouts rather than through Lettuce: the test asks a node
 * about its role and replication state while the client under test may be reconnecting, and such questions must
 * neither share that client's state nor wait on it.
 *
 * <p>Every node started in this JVM is killed by a shutdown hook if its owner's {@code close()} did not run (e.g. the
 * test JVM was asked to stop at a timeout), so no server outlives the tests.
 */
public final class OwnRedisNode {

    static final String REDIS_SERVER = "/usr/bin/redis-server";
    static final String REDIS_CLI = "/usr/bin/redis-cli";

    /** How long {@link #call} waits for a connection: loopback connects at once unless the port is closed. */
    private static final int CONNECT_TIMEOUT_MILLIS = 1_000;
    /** How long {@link #call} waits for an answer: generous, for a loaded machine. */
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    /** How long a server may take to start answering, on a loaded machine. */
    private static final Duration START_DEADLINE = Duration.ofSeconds(60);

    private static final Set<OwnRedisNode> STARTED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            for (OwnRedisNode node : STARTED) {
                                Process process = node.process;
                                if (process != null) {
                                    process.destroyForcibly();
                                }
                            }
                        },
                        "own-redis-cleanup"));
    }

    /** A Redis error reply (e.g. {@code -ERR ...}, {@code -LOADING ...}), as opposed to a failed connection. */
    public static final class ErrorReply extends IOException {
        private static final long serialVersionUID = 1L;

        ErrorReply(String message) {
            super(message);
        }
    }

    private final String name;
    private final Path dir;
    private final int port;
    private final List<String> command;
    private volatile Process process;
    private volatile boolean stopped;

    private OwnRedisNode(String name, Path dir, int port, List<String> command) {
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.command = List.copyOf(command);
    }

    /**
     * Starts a node in a new directory under {@code parent} on a free port, trying another port when the chosen one
     * was taken between choosing and binding (another test's server, an outgoing connection).
     *
     * @param commandForPort the full command line (redis-server first) for a port and the node's directory
     * @param clusterBus whether the port + 10000 (the cluster bus) must be free too
     */
    static OwnRedisNode start(
            String name, Path parent, boolean clusterBus, BiFunction<Integer, Path, List<String>> commandForPort)
            throws Exception {
        requireRedis();
        Path dir = Files.createDirectories(parent.resolve(name));
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort(clusterBus);
            Files.deleteIfExists(dir.resolve("redis.log"));
            OwnRedisNode node = new OwnRedisNode(name, dir, port, commandForPort.apply(port, dir));
            try {
                node.startProcess();
                return node;
            } catch (Exception | Error e) {
                node.destroy();
                if (!(e instanceof IllegalStateException started)
                        || !node.logTail().contains("Address already in use")) {
                    throw e;
                }
                last = started;
            }
        }
        throw last;
    }

    /**
     * Starts the same command again, on the same port in the same directory, empty (the RDB file a replica keeps from
     * its last full sync is deleted first); a sentinel keeps its rewritten configuration and a cluster node its
     * {@code nodes-<port>.conf}, as they would on a real server. Kills it first if it is still running.
     */
    public void restart() throws Exception {
        kill();
        startProcess();
    }

    private void startProcess() throws Exception {
        stopped = false;
        // A replica keeps the RDB file of its last full sync even without persistence, and would load it at start.
        Files.deleteIfExists(dir.resolve("dump.rdb"));
        process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
                .start();
        STARTED.add(this);
        long deadline = System.nanoTime() + START_DEADLINE.toNanos();
        while (true) {
            try {
                if ("PONG".equals(call("PING"))) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet, or still loading
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("Own " + name + " (" + String.join(" ", command) + ") exited with "
                        + process.exitValue() + "; its log ends:\n" + logTail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Own " + name + " on port " + port + " did not answer PING within "
                        + START_DEADLINE.toSeconds() + " s; its log ends:\n" + logTail());
            }
            Thread.sleep(20);
        }
    }

    /** Kills the server (SIGKILL) and waits for it to be gone: everything it held in memory is lost. */
    public void kill() throws InterruptedException {
        Process current = process;
        if (current != null && current.isAlive()) {
            current.destroyForcibly();
            if (!current.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Own " + name + " (pid " + current.pid() + ") survived SIGKILL");
            }
        }
        stopped = false;
    }

    /**
     * Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the server process. After {@code STOP} it waits until
     * the kernel shows the process stopped (state {@code T} in {@code /proc/<pid>/stat}), after {@code CONT} until it
     * no longer does, so the caller knows the server is frozen, or running, when this returns.
     */
    public void signal(String signal) throws Exception {
        long pid = pid();
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        if (!kill.waitFor(20, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
        boolean stop = "STOP".equalsIgnoreCase(signal) || "SIGSTOP".equalsIgnoreCase(signal);
        boolean cont = "CONT".equalsIgnoreCase(signal) || "SIGCONT".equalsIgnoreCase(signal);
        if (!stop && !cont) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((processState() == 'T') != stop) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Own " + name + " (pid " + pid + ") did not "
                        + (stop ? "stop" : "resume") + " within 30 s after kill -" + signal + "; /proc state "
                        + processState());
            }
            Thread.sleep(10);
        }
        stopped = stop;
    }

    /** @return the state letter in {@code /proc/<pid>/stat} ({@code R}, {@code S}, {@code T}, ...), or '?' if gone */
    public char processState() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
            int end = stat.lastIndexOf(')');
            return end < 0 || end + 2 >= stat.length() ? '?' : stat.charAt(end + 2);
        } catch (IOException e) {
            return '?';
        }
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public long pid() {
        Process current = process;
        if (current == null) {
            throw new IllegalStateException("Own " + name + " was never started");
        }
        return current.pid();
    }

    /** @return whether the process is running (a frozen one, after {@code SIGSTOP}, is alive too) */
    public boolean alive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    /** @return whether the process is alive and not frozen by {@link #signal(String) signal("STOP")} */
    public boolean answering() {
        return alive() && !stopped;
    }

    public Path dir() {
        return dir;
    }

    public Path log() {
        return dir.resolve("redis.log");
    }

    /** @return {@code INFO section} (e.g. {@code replication}, {@code cluster}) */
    public String info(String section) throws IOException {
        return (String) call("INFO", section);
    }

    /** @return one field of {@code INFO section}, or {@code null} when the server does not report it */
    public String infoField(String section, String field) throws IOException {
        return field(info(section), field);
    }

    /** @return the first element of {@code ROLE}: {@code master}, {@code slave} or {@code sentinel} */
    public String role() throws IOException {
        return (String) ((List<?>) call("ROLE")).get(0);
    }

    /** @return {@code master_repl_offset} from {@code INFO replication}: on a replica, how far it has processed */
    public long replOffset() throws IOException {
        return Long.parseLong(infoField("replication", "master_repl_offset"));
    }

    /** Waits until {@link #role()} is {@code role}, asking every 50 ms, for at most {@code deadline}. */
    public void awaitRole(String role, Duration deadline) throws Exception {
        await(deadline, "Own " + name + " on port " + port + " to answer ROLE " + role, () -> role.equals(role()));
    }

    /**
     * Waits until this replica has processed the replication stream up to {@code offset}, e.g. a master's
     * {@link #replOffset()} after the writes that must survive a failover.
     */
    public void awaitReplOffset(long offset, Duration deadline) throws Exception {
        await(
                deadline,
                "Own " + name + " on port " + port + " to reach replication offset " + offset,
                () -> replOffset() >= offset);
    }

    /**
     * Sends one command and reads its reply, over a connection of its own.
     *
     * @return a {@code String} for a simple or bulk string, a {@code Long} for an integer, a {@code List} for an
     *         array, {@code null} for a null reply
     * @throws ErrorReply for an error reply
     * @throws IOException when the server cannot be reached or does not answer within 10 s
     */
    public Object call(String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                request.writeBytes(bytes);
                request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toByteArray());
            out.flush();
            return readReply(new BufferedInputStream(socket.getInputStream()));
        }
    }

    /** @return {@link #call}'s reply, or {@code null} when the node is not answering or answers with an error */
    public Object tryCall(String... args) {
        if (!answering()) {
            return null;
        }
        try {
            return call(args);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        Process current = process;
        return name + "@127.0.0.1:" + port + (current == null ? "" : " (pid " + current.pid() + ")");
    }

    // ---- helpers shared with the groups ----

    /** Kills the process and forgets it; the directory is deleted with its group's. */
    void destroy() {
        try {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Process current = process;
            if (current != null) {
                current.destroyForcibly();
            }
        }
        STARTED.remove(this);
    }

    /** @return the last lines of this node's log, for an exception message (the log is deleted with the group) */
    String logTail() {
        return OwnProcesses.logTail(log());
    }

    /** @throws IllegalStateException naming what to install when redis-server or redis-cli is missing */
    static void requireRedis() {
        if (!new File(REDIS_SERVER).canExecute() || !new File(REDIS_CLI).canExecute()) {
            throw new IllegalStateException("This test starts Redis servers, sentinels and clusters of its own and"
                    + " needs " + REDIS_SERVER + " and " + REDIS_CLI + " (Redis 7 or later): install them with"
                    + " 'apt-get install redis-server redis-tools'");
        }
    }

    /** Registers a group's temporary directory, so that the shutdown hook deletes it if the group's close() did not. */
    static Path createGroupDir(String prefix) throws IOException {
        return OwnProcesses.createTempDir(prefix);
    }

    static void deleteGroupDir(Path dir) {
        OwnProcesses.deleteTempDir(dir);
    }

    /** @return the value of {@code field:value} in an INFO text, or {@code null} */
    static String field(String info, String field) {
        if (info == null) {
            return null;
        }
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        return null;
    }

    /** Polls {@code condition} every 50 ms until it holds, for at most {@code deadline}. */
    static void await(Duration deadline, String what, OwnProcesses.Condition condition) throws Exception {
        OwnProcesses.await(deadline, what, condition);
    }

    /** @see OwnProcesses#freePort(boolean) */
    static int freePort(boolean clusterBus) {
        return OwnProcesses.freePort(clusterBus);
    }

    private static Object readReply(InputStream in) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new IOException("Connection closed before a reply");
        }
        String line = readLine(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new ErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length);
                if (bytes.length < length) {
                    throw new IOException("Connection closed inside a bulk reply");
                }
                readLine(in);
                return new String(bytes, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    try {
                        items.add(readReply(in));
                    } catch (ErrorReply e) {
                        items.add(e);
                    }
                }
                return Collections.unmodifiableList(items);
            }
            default:
                throw new IOException("Unexpected RESP reply type '" + (char) type + "'");
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("Connection closed inside a reply");
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(next);
            previous = next;
        }
    }

    /** For the groups: the node whose port is {@code port} among {@code nodes}, or {@code null}. */
    static OwnRedisNode byPort(List<OwnRedisNode> nodes, int port) {
        for (OwnRedisNode node : nodes) {
            if (node.port == port) {
                return node;
            }
        }
        return null;
    }

    /**
     * Destroys {@code factories} (and clears the list), kills every node of {@code groups} (SIGKILL) and deletes
     * {@code dir}: how a group of the test's own closes.
     */
    @SafeVarargs
    static void closeGroup(List<LettuceConnectionFactory> factories, Path dir, List<OwnRedisNode>... groups) {
        for (LettuceConnectionFactory factory : factories) {
            try {
                factory.destroy();
            } catch (RuntimeException e) {
                // the servers go next anyway
            }
        }
        factories.clear();
        for (List<OwnRedisNode> group : groups) {
            for (OwnRedisNode node : group) {
                node.destroy();
            }
        }
        deleteGroupDir(dir);
    }
}
