package dev.idgen.test.services;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A ZooKeeper ensemble of the test's own: {@code servers} {@code QuorumPeerMain} processes of Debian's
 * {@code zookeeper} package (the jars in {@code /usr/share/java}) on free loopback ports, each with a data directory of
 * its own, with {@code tickTime=500} (sessions negotiate 1 to 10 s), {@code initLimit=10} and {@code syncLimit=5}
 * (a follower that hears nothing from its leader for 2.5 s drops it). The test may kill a server (SIGKILL), start it
 * again on its data directory, or pause and resume it (SIGSTOP/SIGCONT). Servers are numbered from 0; server {@code i}
 * has {@code myid} {@code i + 1}.
 *
 * <p>The {@code srvr} four-letter word is enabled (with {@code ruok}, {@code mntr} and {@code conf}), so that
 * {@link #leader()} and health checks can ask each server for its mode.
 */
public final class OwnZooKeeperCluster implements AutoCloseable {

    private static final Path JARS = Path.of("/usr/share/java");

    /** The server's classpath: ZooKeeper, its logging (slf4j-simple into the server's log file) and its Netty. */
    private static final List<String> CLASSPATH = List.of(
            "zookeeper.jar",
            "zookeeper-jute.jar",
            "slf4j-api.jar",
            "slf4j-simple.jar",
            "netty-handler.jar",
            "netty-transport.jar",
            "netty-common.jar",
            "netty-buffer.jar",
            "netty-codec.jar",
            "netty-resolver.jar",
            "netty-transport-native-epoll.jar",
            "netty-transport-native-unix-common.jar",
            "commons-io.jar",
            "commons-cli.jar");

    private final Path root;
    private final int[] clientPorts;
    private final Path[] dataDirs;
    private final Path[] configs;
    private final Process[] processes;
    private final ShiftedClock[] clocks;

    private OwnZooKeeperCluster(Path root, int servers) throws IOException {
        this.root = root;
        this.clientPorts = new int[servers];
        this.dataDirs = new Path[servers];
        this.configs = new Path[servers];
        this.processes = new Process[servers];
        this.clocks = new ShiftedClock[servers];
        int[] quorumPorts = new int[servers];
        int[] electionPorts = new int[servers];
        for (int i = 0; i < servers; i++) {
            clientPorts[i] = OwnProcesses.freePort(false);
            quorumPorts[i] = OwnProcesses.freePort(false);
            electionPorts[i] = OwnProcesses.freePort(false);
        }
        for (int i = 0; i < servers; i++) {
            dataDirs[i] = Files.createDirectories(root.resolve("server-" + i + "/data"));
            Files.writeString(dataDirs[i].resolve("myid"), Integer.toString(i + 1) + "\n");
            StringBuilder config = new StringBuilder()
                    .append("tickTime=500\n")
                    .append("initLimit=10\n")
                    .append("syncLimit=5\n")
                    .append("dataDir=")
                    .append(dataDirs[i])
                    .append('\n')
                    .append("clientPort=")
                    .append(clientPorts[i])
                    .append('\n')
                    .append("clientPortAddress=127.0.0.1\n")
                    .append("admin.enableServer=false\n")
                    .append("4lw.commands.whitelist=srvr,ruok,mntr,conf\n")
                    .append("autopurge.purgeInterval=0\n");
            if (servers > 1) {
                for (int j = 0; j < servers; j++) {
                    config.append("server.")
                            .append(j + 1)
                            .append("=127.0.0.1:")
                            .append(quorumPorts[j])
                            .append(':')
                            .append(electionPorts[j])
                            .append('\n');
                }
            }
            configs[i] = root.resolve("server-" + i + "/zoo.cfg");
            Files.writeString(configs[i], config.toString());
        }
    }

    /**
     * Starts {@code servers} servers (1 for a standalone server, 3 or 5 for an ensemble) and waits until they serve
     * with a leader.
     *
     * @throws IllegalStateException when the {@code zookeeper} package is not installed, or no quorum forms within
     *         60 s
     */
    public static OwnZooKeeperCluster start(int servers) throws Exception {
        if (servers < 1) {
            throw new IllegalArgumentException("servers must be at least 1, but was " + servers);
        }
        for (String jar : CLASSPATH) {
            if (!Files.isReadable(JARS.resolve(jar))) {
                throw new IllegalStateException("This test starts ZooKeeper servers of its own and needs the jars of"
                        + " Debian's zookeeper package in " + JARS + " (" + JARS.resolve(jar) + " is missing):"
                        + " install them with 'apt-get install zookeeper'");
            }
        }
        OwnZooKeeperCluster cluster = new OwnZooKeeperCluster(OwnProcesses.createTempDir("idgen-zookeeper-"), servers);
        try {
            for (int i = 0; i < servers; i++) {
                cluster.startServer(i);
            }
            cluster.awaitQuorum(Duration.ofSeconds(60));
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * @return every server's client address, {@code 127.0.0.1:a,127.0.0.1:b,...}
     */
    public String connectString() {
        StringJoiner joiner = new StringJoiner(",");
        for (int port : clientPorts) {
            joiner.add("127.0.0.1:" + port);
        }
        return joiner.toString();
    }

    /**
     * @return the client address of server {@code server}, {@code 127.0.0.1:port}
     */
    public String address(int server) {
        return "127.0.0.1:" + clientPorts[server];
    }

    /**
     * @return how many servers the ensemble has (running or not)
     */
    public int size() {
        return clientPorts.length;
    }

    /**
     * @return the index of the server that reports itself leader (or standalone), waiting up to 30 s for one
     * @throws IllegalStateException when none does within 30 s
     */
    public int leader() throws Exception {
        int[] found = {-1};
        OwnProcesses.await(Duration.ofSeconds(30), "a ZooKeeper leader among " + connectString(), () -> {
            for (int i = 0; i < clientPorts.length; i++) {
                String mode = mode(i);
                if ("leader".equals(mode) || "standalone".equals(mode)) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    /**
     * @return the mode server {@code server} reports to {@code srvr} ({@code leader}, {@code follower},
     *         {@code standalone}), {@code not serving} when it answers without serving, or null when it does not
     *         answer within a second (down or paused)
     */
    public String mode(int server) {
        String answer = srvr(clientPorts[server]);
        if (answer == null) {
            return null;
        }
        for (String line : answer.split("\n")) {
            if (line.startsWith("Mode: ")) {
                return line.substring("Mode: ".length()).trim();
            }
        }
        return "not serving";
    }

    /**
     * Makes server {@code server} the leader: kills the leader and starts it again until {@code server} wins an
     * election (one that compares equal logs picks the highest {@code myid}, so it may take more than one).
     *
     * @throws IllegalStateException when {@code server} does not lead within {@code deadline}
     */
    public void makeLeader(int server, Duration deadline) throws Exception {
        long until = System.nanoTime() + deadline.toNanos();
        for (int leader = leader(); leader != server; leader = leader()) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException(
                        "ZooKeeper server " + server + " did not become leader within " + deadline.toSeconds() + " s");
            }
            // A clean stop: the followers see the leader go at once, not after syncLimit ticks.
            OwnProcesses.stop(processes[leader], "ZooKeeper server " + leader, Duration.ofSeconds(30));
            processes[leader] = null;
            awaitQuorum(deadline);
            startServer(leader);
        }
    }

    /**
     * Waits until a leader and a majority of the servers (counting the leader) serve.
     *
     * @throws IllegalStateException when they do not within {@code deadline}
     */
    public void awaitQuorum(Duration deadline) throws Exception {
        int majority = clientPorts.length / 2 + 1;
        OwnProcesses.await(deadline, "a ZooKeeper quorum among " + connectString(), () -> {
            int serving = 0;
            boolean leader = false;
            for (int i = 0; i < clientPorts.length; i++) {
                String mode = mode(i);
                if ("leader".equals(mode) || "standalone".equals(mode)) {
                    leader = true;
                    serving++;
                } else if ("follower".equals(mode) || "observer".equals(mode)) {
                    serving++;
                }
            }
            return leader && serving >= majority;
        });
    }

    /** Kills server {@code server} (SIGKILL) and waits until it is gone; its data directory stays. */
    public void kill(int server) throws InterruptedException {
        OwnProcesses.kill(processes[server], "ZooKeeper server " + server);
        processes[server] = null;
    }

    /**
     * Starts server {@code server} (again) on its data directory, without waiting for it to join (see
     * {@link #awaitQuorum}). Named so because {@code start(int)} is the static factory.
     */
    public void startServer(int server) throws IOException {
        if (processes[server] != null && processes[server].isAlive()) {
            return;
        }
        List<String> classpath = new ArrayList<>();
        List<String> clockOption = new ArrayList<>();
        if (clocks[server] != null) {
            // Ahead of zookeeper.jar: the class whose wall time stamps every transaction, on the shifted clock.
            classpath.add(shiftedTimeClasses().toString());
            clockOption.add("-D" + SHIFTED_TIME_OFFSET_FILE + "=" + clocks[server].offsetFile());
        }
        for (String jar : CLASSPATH) {
            classpath.add(JARS.resolve(jar).toString());
        }
        List<String> command = new ArrayList<>(List.of(
                "java",
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true",
                // An election message to a paused server waits at most a second, not 5.
                "-Dzookeeper.cnxTimeout=1000",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-cp",
                String.join(":", classpath)));
        command.addAll(clockOption);
        command.addAll(List.of("org.apache.zookeeper.server.quorum.QuorumPeerMain", configs[server].toString()));
        Path dir = configs[server].getParent();
        processes[server] = OwnProcesses.startServer(command, dir, dir.resolve("server.log"));
    }

    /**
     * ZooKeeper's {@code org.apache.zookeeper.common.Time} (3.8's three methods), its wall time read from a
     * {@link ShiftedClock}'s offset file: the leader stamps every transaction ({@code mtime}) with
     * {@code currentWallTime()}, while sessions and elections count on {@code currentElapsedTime()}, left alone as a
     * host's clock step leaves them. Compiled here once per ensemble. Not libfaketime: a ZooKeeper JVM under it burned
     * 1.6 cores, and the other servers' elections and the other tests starved (a CI run lost a 10 s lease so).
     */
    private Path shiftedTimeClasses() throws IOException {
        Path classes = root.resolve("shifted-time-classes");
        if (Files.isRegularFile(classes.resolve("org/apache/zookeeper/common/Time.class"))) {
            return classes;
        }
        Path source = Files.createDirectories(root.resolve("shifted-time-source/org/apache/zookeeper/common"))
                .resolve("Time.java");
        Files.writeString(source, SHIFTED_TIME_SOURCE);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("Shifting a ZooKeeper server's clock compiles a class and needs a JDK's"
                    + " compiler, but this test runs on a JRE: run it on a JDK");
        }
        Files.createDirectories(classes);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, "--release", "11", "-d", classes.toString(), source.toString());
        if (status != 0) {
            throw new IllegalStateException("Could not compile ZooKeeper's shifted Time: " + errors);
        }
        return classes;
    }

    private static final String SHIFTED_TIME_OFFSET_FILE = "idgen.test.shifted-time.offset-file";

    private static final String SHIFTED_TIME_SOURCE = """
            package org.apache.zookeeper.common;

            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.util.Date;

            public class Time {

                private static final Path OFFSET = Path.of(System.getProperty("%s"));
                private static volatile long offsetMillis;
                private static volatile long readAt = System.nanoTime() - 1_000_000_000L;

                public static long currentElapsedTime() {
                    return System.nanoTime() / 1_000_000;
                }

                public static long currentWallTime() {
                    return System.currentTimeMillis() + offsetMillis();
                }

                public static Date elapsedTimeToDate(long elapsedTime) {
                    return new Date(currentWallTime() + elapsedTime - currentElapsedTime());
                }

                private static long offsetMillis() {
                    long now = System.nanoTime();
                    if (now - readAt > 100_000_000L) {
                        try {
                            String offset = Files.readString(OFFSET).trim();
                            offsetMillis = Long.parseLong(offset.substring(0, offset.length() - 1).replace("+", ""))
                                    * 1000;
                        } catch (Exception unreadable) {
                            // the last offset read stays
                        }
                        readAt = now;
                    }
                    return offsetMillis;
                }
            }
            """.formatted(SHIFTED_TIME_OFFSET_FILE);

    /**
     * Kills server {@code server} and starts it again on {@code clock} (for this and every later start), without
     * waiting for it to join: as leader, it stamps every change ({@code mtime}) by that clock.
     */
    public void restartOn(int server, ShiftedClock clock) throws Exception {
        shiftedTimeClasses();
        kill(server);
        clocks[server] = clock;
        startServer(server);
    }

    /** Pauses server {@code server} (SIGSTOP): it keeps its sockets but answers nothing until resumed. */
    public void pause(int server) throws Exception {
        OwnProcesses.signal(processes[server], "STOP");
    }

    /** Resumes server {@code server} after {@link #pause} (SIGCONT). */
    public void resume(int server) throws Exception {
        OwnProcesses.signal(processes[server], "CONT");
    }

    /**
     * @return the end of server {@code server}'s log, for a failure message
     */
    public String logTail(int server) {
        return OwnProcesses.logTail(configs[server].getParent().resolve("server.log"));
    }

    /** Kills every server this ensemble started and deletes their directories. */
    @Override
    public void close() {
        try {
            for (int i = 0; i < processes.length; i++) {
                kill(i);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            for (Process process : processes) {
                if (process != null) {
                    process.destroyForcibly();
                }
            }
        } finally {
            OwnProcesses.deleteTempDir(root);
        }
    }

    @Override
    public String toString() {
        return "own ZooKeeper ensemble " + connectString();
    }

    /** @return the answer to {@code srvr}, or null when the server does not answer within about a second */
    private static String srvr(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return null;
        }
    }
}
