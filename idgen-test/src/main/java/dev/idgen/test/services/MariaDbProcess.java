package dev.idgen.test.services;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One {@code mariadbd} of a test's own: a data directory made by {@code mariadb-install-db}, a free loopback port, the
 * server in the foreground as a child process (so the test may stop, kill, freeze and start it again on the same port
 * with the same data). What {@link OwnMariaDb} and {@link OwnMariaDbReplicaSet} share.
 */
final class MariaDbProcess {

    static final String MARIADBD = "/usr/sbin/mariadbd";
    static final String INSTALL_DB = "/usr/bin/mariadb-install-db";

    /** How long a server may take to start answering, on a loaded machine. */
    private static final Duration START_DEADLINE = Duration.ofSeconds(60);

    private final String name;
    private final Path dir;
    private final int port;
    private final List<String> serverOptions;
    private final Map<String, String> environment;
    private volatile Process process;

    private MariaDbProcess(
            String name, Path dir, int port, List<String> serverOptions, Map<String, String> environment) {
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.serverOptions = List.copyOf(serverOptions);
        this.environment = Map.copyOf(environment);
    }

    /**
     * Initialises a data directory under {@code dir} ({@code dir/data}, logs beside it) for a server on a free port
     * with {@code serverOptions} added to the small-footprint defaults; does not start it.
     *
     * @throws IllegalStateException naming what to install when MariaDB's server binaries are missing
     */
    static MariaDbProcess install(String name, Path dir, List<String> serverOptions) throws Exception {
        return install(name, dir, serverOptions, Map.of());
    }

    /** As {@link #install(String, Path, List)}, the server started with {@code environment} (e.g. a shifted clock). */
    static MariaDbProcess install(String name, Path dir, List<String> serverOptions, Map<String, String> environment)
            throws Exception {
        OwnProcesses.require("apt-get install mariadb-server", MARIADBD, INSTALL_DB);
        // A temporary directory of its own: bootstraps that run at once in one /tmp (the suite runs test classes and
        // methods side by side) removed each other's temporary tables, and one failed ("Unknown table
        // 'mysql.tmp_user_sys'", 1 in 8 with 8 at once; none in 16 with a directory each).
        Files.createDirectories(dir.resolve("tmp"));
        OwnProcesses.run(
                List.of(
                        INSTALL_DB,
                        "--no-defaults",
                        "--datadir=" + dir.resolve("data"),
                        "--tmpdir=" + dir.resolve("tmp"),
                        "--user=root",
                        "--auth-root-authentication-method=normal",
                        "--skip-test-db"),
                dir,
                dir.resolve("install.log"),
                Duration.ofSeconds(120));
        return new MariaDbProcess(name, dir, OwnProcesses.freePort(false), serverOptions, environment);
    }

    /** Starts the server (again, after a stop or kill: same port, same data) and waits until it answers. */
    void start() throws Exception {
        if (process != null && process.isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(
                MARIADBD,
                "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--user=root",
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"),
                "--tmpdir=" + dir.resolve("tmp"),
                "--innodb-buffer-pool-size=16M",
                "--log-error=" + errorLog()));
        command.addAll(serverOptions);
        Process started = OwnProcesses.startServer(command, environment, dir, dir.resolve("stdout.log"));
        process = started;
        OwnProcesses.await(START_DEADLINE, "own " + name + " on port " + port + " to answer", () -> {
            if (!started.isAlive()) {
                throw new IllegalStateException("Own " + name + " exited with " + started.exitValue()
                        + "; its error log ends:\n" + OwnProcesses.logTail(errorLog()));
            }
            try (Connection connection = connect()) {
                return connection.isValid(1);
            }
        });
    }

    /** Stops the server (SIGTERM, a clean shutdown) and waits until it is gone. */
    void stop() throws InterruptedException {
        OwnProcesses.stop(process, name, Duration.ofSeconds(60));
    }

    /** Kills the server (SIGKILL) and waits until it is gone. */
    void kill() throws InterruptedException {
        OwnProcesses.kill(process, name);
    }

    /** Sends {@code signal} ({@code STOP}, {@code CONT}) to the server. */
    void signal(String signal) throws Exception {
        OwnProcesses.signal(process, signal);
    }

    boolean alive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    int port() {
        return port;
    }

    /** @return a connection as root without a default database, failing after 1 s when nothing listens */
    Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/?connectTimeout=1000", "root", "");
    }

    Path errorLog() {
        return dir.resolve("error.log");
    }

    @Override
    public String toString() {
        return name + "@127.0.0.1:" + port;
    }
}
