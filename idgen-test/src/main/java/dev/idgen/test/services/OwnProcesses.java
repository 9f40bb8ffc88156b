package dev.idgen.test.services;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the servers of a test's own share: free loopback ports, temporary directories, one-shot commands (install-db,
 * initdb, pg_basebackup), bounded waits on conditions, and a shutdown hook that kills every server process this JVM
 * started and deletes every directory it made if their owner's {@code close()} did not run (e.g. the test JVM was
 * stopped at a timeout). It kills only processes it started itself, by their {@link Process} handle.
 */
final class OwnProcesses {

    private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();
    private static final Set<Path> DIRS = ConcurrentHashMap.newKeySet();
    private static final Set<Integer> PORTS_GIVEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            for (Process process : STARTED) {
                                process.destroyForcibly();
                            }
                            for (Path dir : DIRS) {
                                deleteTree(dir);
                            }
                        },
                        "own-servers-cleanup"));
    }

    private OwnProcesses() {}

    /** A condition that may fail while a server is down or busy: an exception counts as "not yet". */
    interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code condition} every 50 ms until it holds, for at most {@code deadline}. */
    static void await(Duration deadline, String what, Condition condition) throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        Exception lastFailure = null;
        while (true) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (IOException | SQLException | RuntimeException e) {
                lastFailure = e;
            }
            if (System.nanoTime() > end) {
                IllegalStateException timeout =
                        new IllegalStateException("Timed out after " + deadline.toSeconds() + " s waiting for " + what);
                if (lastFailure != null) {
                    timeout.addSuppressed(lastFailure);
                }
                throw timeout;
            }
            Thread.sleep(50);
        }
    }

    /** @throws IllegalStateException naming {@code install} when one of {@code binaries} is not executable */
    static void require(String install, String... binaries) {
        for (String binary : binaries) {
            if (!new File(binary).canExecute()) {
                throw new IllegalStateException(
                        "This test starts servers of its own and needs " + String.join(", ", binaries) + " (" + binary
                                + " is missing): install them with '" + install + "'");
            }
        }
    }

    /** Starts a server process in the foreground, its output appended to {@code log}; the shutdown hook knows it. */
    static Process startServer(List<String> command, Path workDir, Path log) throws IOException {
        return startServer(command, Map.of(), workDir, log);
    }

    /** As {@link #startServer(List, Path, Path)}, with {@code environment} added to this JVM's. */
    static Process startServer(List<String> command, Map<String, String> environment, Path workDir, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        STARTED.add(process);
        return process;
    }

    /**
     * Kills {@code process} (SIGKILL) and every process it had started, and waits until all of them are gone: what
     * they held in memory is lost. Only the given process and its own descendants are signalled.
     */
    static void kill(Process process, String name) throws InterruptedException {
        if (process == null) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroyForcibly();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Own " + name + " (pid " + process.pid() + ") survived SIGKILL");
        }
        awaitGone(children, name);
        STARTED.remove(process);
    }

    /** Stops {@code process} (SIGTERM), waits for it and its descendants, and kills them after {@code grace}. */
    static void stop(Process process, String name, Duration grace) throws InterruptedException {
        if (process == null) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            kill(process, name);
        }
        awaitGone(children, name);
        STARTED.remove(process);
    }

    private static void awaitGone(List<ProcessHandle> processes, String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (ProcessHandle handle : processes) {
            while (handle.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "A child (pid " + handle.pid() + ") of own " + name + " outlived it by 60 s");
                }
                Thread.sleep(10);
            }
        }
    }

    /** Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to {@code process} with {@code kill}. */
    static void signal(Process process, String signal) throws Exception {
        if (process == null || !process.isAlive()) {
            return;
        }
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .inheritIO()
                .start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /**
     * Runs a one-shot command (e.g. an install or a backup) to its end, its output in {@code log}.
     *
     * @throws IllegalStateException with the end of {@code log} when it fails or takes longer than {@code deadline}
     */
    static void run(List<String> command, Path workDir, Path log, Duration deadline) throws Exception {
        run(
                new ProcessBuilder(command)
                        .directory(workDir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())),
                log,
                deadline);
    }

    /**
     * Runs a one-shot command set up by the caller (e.g. with its own environment) to its end; its output must go to
     * {@code log}.
     *
     * @throws IllegalStateException with the end of {@code log} when it fails or takes longer than {@code deadline}
     */
    static void run(ProcessBuilder builder, Path log, Duration deadline) throws Exception {
        List<String> command = builder.command();
        Process process = builder.start();
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            kill(process, command.get(0));
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + deadline.toSeconds()
                    + " s; its log ends:\n" + logTail(log));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue()
                    + "; its log ends:\n" + logTail(log));
        }
    }

    /**
     * @return the lines of {@code log} that report an error, then its last 25 lines, for an exception message (logs are
     *     deleted with their directory, and a tool's help text can fill its last lines)
     */
    static String logTail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> errors = lines.stream()
                    .filter(line -> line.contains("ERROR") || line.contains("FATAL"))
                    .limit(10)
                    .toList();
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
            return errors.isEmpty() ? tail : String.join("\n", errors) + "\n...\n" + tail;
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** A new temporary directory, deleted by the shutdown hook if its owner's close() did not delete it. */
    static Path createTempDir(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        DIRS.add(dir);
        return dir;
    }

    static void deleteTempDir(Path dir) {
        deleteTree(dir);
        DIRS.remove(dir);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }

    /**
     * A free loopback port below the kernel's ephemeral range (32768 and up on Linux), so that no outgoing connection
     * takes it while its server is down between a kill and a restart; with {@code clusterBus} the cluster bus port
     * (port + 10000) is checked free too and stays below that range.
     *
     * <p>The port is also reserved against the other test JVMs on the machine (the suite runs test classes in several
     * JVMs at once): a server that a test killed and will restart leaves its port bindable, and another JVM must not
     * take it meanwhile. The reservation is an exclusive lock on a file named after the port, held until this JVM
     * exits; the operating system releases it then, also after a kill -9, so nothing stale is left behind.
     */
    static int freePort(boolean clusterBus) {
        for (int attempt = 0; attempt < 1_000; attempt++) {
            // From 12000: a cluster bus port (port + 10000) never falls in the range another server's port is taken
            // from.
            int port = ThreadLocalRandom.current().nextInt(12_000, 22_000);
            if (PORTS_GIVEN.contains(port) || !bindable(port) || (clusterBus && !bindable(port + 10_000))) {
                continue;
            }
            synchronized (PORT_LOCKS_HELD) {
                if (PORT_LOCKS_HELD.containsKey(port)
                        || (clusterBus && PORT_LOCKS_HELD.containsKey(port + 10_000))
                        || !reserveAcrossJvms(port)) {
                    continue;
                }
                if (clusterBus && !reserveAcrossJvms(port + 10_000)) {
                    continue; // the port stays reserved, unused: harmless
                }
            }
            if (PORTS_GIVEN.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("No free loopback port between 12000 and 22000");
    }

    /** Per user: a directory another user made would refuse this one's lock files. */
    private static final Path PORT_LOCKS =
            Path.of(System.getProperty("java.io.tmpdir"), "idgen-test-ports-" + System.getProperty("user.name"));

    /**
     * The reservations this JVM holds, by port. Kept reachable (a lock is released when its channel is collected), and
     * checked before a file is opened: on Linux, closing any channel of a file this process has locked releases the
     * lock, so a file is never opened twice. Guarded by itself.
     */
    private static final Map<Integer, FileLock> PORT_LOCKS_HELD = new HashMap<>();

    /** @return whether this JVM now holds the machine-wide reservation of {@code port}. Holds PORT_LOCKS_HELD. */
    private static boolean reserveAcrossJvms(int port) {
        FileChannel channel = null;
        try {
            Files.createDirectories(PORT_LOCKS);
            channel = FileChannel.open(
                    PORT_LOCKS.resolve(Integer.toString(port)), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return false;
            }
            PORT_LOCKS_HELD.put(port, lock);
            return true;
        } catch (IOException e) {
            closeQuietly(channel);
            return false; // e.g. a file another user made: try another port
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was reserved through it
            }
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
