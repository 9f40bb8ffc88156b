package dev.idgen.test.services;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of the test's own on a free loopback port, which the test may stop and start again to simulate an
 * outage. Its data lives in a temporary directory, kept across stop and start, deleted on {@link #close()}.
 */
public final class OwnMariaDb implements AutoCloseable {

    private static final String MARIADBD = "/usr/sbin/mariadbd";
    private static final String INSTALL_DB = "/usr/bin/mariadb-install-db";

    private final Path dir;
    private final int port;
    private Process process;

    private OwnMariaDb(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /**
     * Initialises a data directory and starts the server.
     *
     * @throws IllegalStateException when MariaDB's server binaries are not installed
     */
    public static OwnMariaDb start() throws Exception {
        if (!new File(MARIADBD).canExecute() || !new File(INSTALL_DB).canExecute()) {
            throw new IllegalStateException("This fault test starts a MariaDB server of its own and needs " + MARIADBD
                    + " and " + INSTALL_DB + ": install them with 'apt-get install mariadb-server'");
        }
        Path dir = Files.createTempDirectory("idgen-mariadb-");
        Process install = new ProcessBuilder(INSTALL_DB, "--no-defaults", "--datadir=" + dir.resolve("data"),
                "--user=root", "--auth-root-authentication-method=normal", "--skip-test-db")
                .redirectErrorStream(true).redirectOutput(dir.resolve("install.log").toFile()).start();
        if (!install.waitFor(60, TimeUnit.SECONDS) || install.exitValue() != 0) {
            throw new IllegalStateException("mariadb-install-db failed; see " + dir.resolve("install.log"));
        }
        OwnMariaDb server = new OwnMariaDb(dir, freePort());
        server.startServer();
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS test");
        }
        return server;
    }

    /** Starts the server again after {@link #stop()}, on the same port with the same data. */
    public void startServer() throws Exception {
        if (process != null && process.isAlive()) {
            return;
        }
        process = new ProcessBuilder(List.of(MARIADBD, "--no-defaults", "--datadir=" + dir.resolve("data"),
                "--user=root", "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"), "--skip-log-bin", "--innodb-buffer-pool-size=16M",
                "--log-error=" + dir.resolve("error.log")))
                .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Connection connection = connect()) {
                if (connection.isValid(1)) {
                    return;
                }
            } catch (SQLException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("Own MariaDB did not start; see " + dir.resolve("error.log"), e);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Own MariaDB did not become valid; see " + dir.resolve("error.log"));
            }
            Thread.sleep(100);
        }
    }

    /** Stops the server (SIGTERM) and waits until it is gone. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Freezes the server (SIGSTOP): connections stay open but nothing answers, as with a hung host. */
    public void pause() throws Exception {
        signal("STOP");
    }

    /** Lets a {@link #pause() paused} server run again (SIGCONT). */
    public void resume() throws Exception {
        signal("CONT");
    }

    private void signal(String name) throws Exception {
        if (process == null || !process.isAlive()) {
            return;
        }
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    public String url() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/test";
    }

    public TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint(url(), "root", "");
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/?connectTimeout=1000", "root", "");
    }

    @Override
    public void close() throws IOException {
        try {
            // A paused server would ignore the SIGTERM of stop().
            resume();
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IOException(e);
        } finally {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
