package dev.idgen.test.services;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * A MariaDB server of the test's own on a free loopback port, which the test may stop and start again to simulate an
 * outage. Its data lives in a temporary directory, kept across stop and start, deleted on {@link #close()}.
 */
public final class OwnMariaDb implements AutoCloseable {

    private final Path dir;
    private final MariaDbProcess server;

    private OwnMariaDb(Path dir, MariaDbProcess server) {
        this.dir = dir;
        this.server = server;
    }

    /**
     * Initialises a data directory and starts the server.
     *
     * @throws IllegalStateException when MariaDB's server binaries are not installed
     */
    public static OwnMariaDb start() throws Exception {
        return start(Map.of());
    }

    /**
     * As {@link #start()}, the server on {@code clock}: the test steps the server's wall clock (its {@code NOW()}).
     */
    public static OwnMariaDb startOn(ShiftedClock clock) throws Exception {
        return start(clock.environment());
    }

    private static OwnMariaDb start(Map<String, String> environment) throws Exception {
        Path dir = OwnProcesses.createTempDir("idgen-mariadb-");
        OwnMariaDb own = null;
        try {
            own = new OwnMariaDb(dir, MariaDbProcess.install("MariaDB", dir, List.of("--skip-log-bin"), environment));
            own.startServer();
            try (Connection connection = own.connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS test");
            }
            return own;
        } catch (Exception | Error e) {
            if (own != null) {
                own.close();
            } else {
                OwnProcesses.deleteTempDir(dir);
            }
            throw e;
        }
    }

    /** Starts the server again after {@link #stop()}, on the same port with the same data. */
    public void startServer() throws Exception {
        server.start();
    }

    /** Stops the server (SIGTERM) and waits until it is gone. */
    public void stop() throws InterruptedException {
        server.stop();
    }

    /** Freezes the server (SIGSTOP): connections stay open but nothing answers, as with a hung host. */
    public void pause() throws Exception {
        server.signal("STOP");
    }

    /** Lets a {@link #pause() paused} server run again (SIGCONT). */
    public void resume() throws Exception {
        server.signal("CONT");
    }

    public String url() {
        return "jdbc:mariadb://127.0.0.1:" + server.port() + "/test";
    }

    public TestServices.JdbcEndpoint endpoint() {
        return new TestServices.JdbcEndpoint(url(), "root", "");
    }

    public Connection connect() throws SQLException {
        return server.connect();
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
            OwnProcesses.deleteTempDir(dir);
        }
    }
}
