package dev.idgen.test.services;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL 15 primary and one streaming replica of the test's own, each its own {@code postgres} with its own
 * data directory on a free loopback port, trust authentication for user {@code postgres}, database {@code test}. The
 * replica is a {@code pg_basebackup -R} of the primary in hot standby.
 *
 * <p>PostgreSQL refuses to run as root: when the tests run as root the servers and tools run as the OS user
 * {@code postgres} through {@code setpriv} (util-linux), which execs the program, so the process this class holds is
 * the postmaster itself and {@link #killPrimary()} kills exactly it. Its temporary directory belongs to that user.
 *
 * <p>Asynchronous by default; {@link #startSynchronous()} makes the primary wait for the replica on every commit. The
 * test may cut the replica off ({@link #cutOffReplica()}), kill the primary ({@link #killPrimary()}) and promote the
 * replica ({@link #promoteReplica()}). {@link #close()} kills both servers and deletes their data.
 */
public final class OwnPostgresReplicaSet implements OwnReplicaSet {

    static final String BIN = "/usr/lib/postgresql/15/bin/";
    private static final String SETPRIV = "/usr/bin/setpriv";
    /** The replica's {@code cluster_name}, which its WAL receiver sends as {@code application_name}. */
    public static final String REPLICA_NAME = "replica";

    private static final Duration START_DEADLINE = Duration.ofSeconds(60);

    private final Path dir;
    private final boolean asRoot;
    private final int primaryPort;
    private final int replicaPort;
    private Map<String, String> primaryEnvironment = Map.of();
    private Process primary;
    private Process replica;

    private OwnPostgresReplicaSet(Path dir, boolean asRoot) {
        this.dir = dir;
        this.asRoot = asRoot;
        this.primaryPort = OwnProcesses.freePort(false);
        this.replicaPort = OwnProcesses.freePort(false);
    }

    /**
     * Starts a primary and an asynchronous streaming replica and waits until the replica streams.
     *
     * @throws IllegalStateException naming what to install when PostgreSQL 15 (or setpriv, as root) is missing
     */
    public static OwnPostgresReplicaSet start() throws Exception {
        return start(false);
    }

    /**
     * Starts a primary and a synchronous streaming replica: once the replica streams, the primary gets
     * {@code synchronous_standby_names = 'replica'} and {@code synchronous_commit = on}, so that a commit returns only
     * after the replica has flushed it. The replica itself has no synchronous standby, so it takes writes once
     * promoted. A synchronous primary whose replica is gone (cut off, killed) blocks every commit.
     */
    public static OwnPostgresReplicaSet startSynchronous() throws Exception {
        return start(true);
    }

    /**
     * Starts a primary alone, on {@code clock}: the test steps the server's wall clock (its {@code clock_timestamp()})
     * for every backend. {@link #primaryUrl()} names it; it has no replica.
     */
    public static OwnPostgresReplicaSet startPrimaryOn(ShiftedClock clock) throws Exception {
        return start(false, false, clock.environment());
    }

    private static OwnPostgresReplicaSet start(boolean synchronous) throws Exception {
        return start(synchronous, true, Map.of());
    }

    private static OwnPostgresReplicaSet start(
            boolean synchronous, boolean withReplica, Map<String, String> primaryEnvironment) throws Exception {
        OwnProcesses.require("apt-get install postgresql-15", BIN + "initdb", BIN + "postgres", BIN + "pg_basebackup");
        boolean asRoot = "root".equals(System.getProperty("user.name"));
        if (asRoot) {
            OwnProcesses.require("apt-get install util-linux postgresql-15 (it creates the OS user postgres)", SETPRIV);
        }
        OwnPostgresReplicaSet set = new OwnPostgresReplicaSet(OwnProcesses.createTempDir("idgen-postgres-"), asRoot);
        try {
            if (asRoot) {
                UserPrincipalLookupService users = set.dir.getFileSystem().getUserPrincipalLookupService();
                Files.setOwner(set.dir, users.lookupPrincipalByName("postgres"));
            }
            set.run(
                    Duration.ofSeconds(120),
                    "initdb",
                    BIN + "initdb",
                    "-D",
                    set.primaryData().toString(),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C.UTF-8");
            set.configure(set.primaryData(), set.primaryPort, "cluster_name = 'primary'");
            set.primaryEnvironment = primaryEnvironment;
            set.primary = set.startServer(set.primaryData(), "primary", primaryEnvironment);
            execute(set.connectPrimary("postgres"), "CREATE DATABASE test");
            if (!withReplica) {
                return set;
            }
            set.run(
                    Duration.ofSeconds(120),
                    "basebackup",
                    BIN + "pg_basebackup",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(set.primaryPort),
                    "-U",
                    "postgres",
                    "-D",
                    set.replicaData().toString(),
                    "-R",
                    "-X",
                    "stream",
                    "-c",
                    "fast");
            set.configure(
                    set.replicaData(),
                    set.replicaPort,
                    "cluster_name = '" + REPLICA_NAME + "'",
                    "synchronous_standby_names = ''");
            set.replica = set.startServer(set.replicaData(), "replica", Map.of());
            OwnProcesses.await(
                    START_DEADLINE,
                    "the replica to stream from the primary",
                    () -> "streaming".equals(set.replicationState("state")));
            if (synchronous) {
                execute(
                        set.connectPrimary("postgres"),
                        "ALTER SYSTEM SET synchronous_standby_names = '" + REPLICA_NAME + "'",
                        "ALTER SYSTEM SET synchronous_commit = on",
                        "SELECT pg_reload_conf()");
                OwnProcesses.await(
                        START_DEADLINE,
                        "the primary to count the replica as synchronous",
                        () -> "sync".equals(set.replicationState("sync_state")));
            }
            return set;
        } catch (Exception | Error e) {
            set.close();
            throw e;
        }
    }

    private Path primaryData() {
        return dir.resolve("primary");
    }

    private Path replicaData() {
        return dir.resolve("replica");
    }

    private List<String> asPostgres(String... command) {
        List<String> full = new ArrayList<>();
        if (asRoot) {
            full.addAll(List.of(SETPRIV, "--reuid=postgres", "--regid=postgres", "--init-groups", "--"));
        }
        full.addAll(List.of(command));
        return full;
    }

    private void run(Duration deadline, String logName, String... command) throws Exception {
        OwnProcesses.run(asPostgres(command), dir, dir.resolve(logName + ".log"), deadline);
    }

    private void configure(Path data, int port, String... extra) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "",
                "# own test server",
                "listen_addresses = '127.0.0.1'",
                "port = " + port,
                "unix_socket_directories = '" + dir + "'",
                "wal_level = replica",
                "max_wal_senders = 5",
                "wal_keep_size = '256MB'",
                "hot_standby = on",
                "shared_buffers = '16MB'"));
        lines.addAll(List.of(extra));
        Files.write(data.resolve("postgresql.conf"), lines, StandardOpenOption.APPEND);
    }

    private Process startServer(Path data, String name, Map<String, String> environment) throws Exception {
        Path log = dir.resolve(name + ".log");
        // The environment is set by env(1) after setpriv has dropped root: libfaketime in a root process would create
        // its shared semaphore as root, which the server, running as postgres, then cannot open.
        List<String> server = new ArrayList<>();
        server.add("env");
        environment.forEach((variable, value) -> server.add(variable + "=" + value));
        server.addAll(List.of(BIN + "postgres", "-D", data.toString()));
        Process started = OwnProcesses.startServer(asPostgres(server.toArray(String[]::new)), dir, log);
        int port = data.equals(primaryData()) ? primaryPort : replicaPort;
        OwnProcesses.await(START_DEADLINE, "own PostgreSQL " + name + " on port " + port + " to answer", () -> {
            if (!started.isAlive()) {
                throw new IllegalStateException("Own PostgreSQL " + name + " exited with " + started.exitValue()
                        + "; its log ends:\n" + OwnProcesses.logTail(log));
            }
            try (Connection connection = connect(port, "postgres", "postgres")) {
                return connection.isValid(1);
            }
        });
        return started;
    }

    /** @return {@code jdbc:postgresql://127.0.0.1:<primary>/test} */
    public String primaryUrl() {
        return url(primaryPort, "test");
    }

    /** @return {@code jdbc:postgresql://127.0.0.1:<replica>/test} */
    public String replicaUrl() {
        return url(replicaPort, "test");
    }

    /** @return a URL on which pgjdbc connects to whichever of the two is a writable primary */
    @Override
    public String failoverUrl() {
        return "jdbc:postgresql://127.0.0.1:" + primaryPort + ",127.0.0.1:" + replicaPort
                + "/test?targetServerType=primary";
    }

    public int primaryPort() {
        return primaryPort;
    }

    public int replicaPort() {
        return replicaPort;
    }

    /** @return a connection as {@code postgres} (superuser) to database {@code test} on the primary */
    @Override
    public Connection connectPrimary() throws SQLException {
        return connectPrimary("test");
    }

    /** @return a connection as {@code postgres} (superuser) to database {@code test} on the replica */
    @Override
    public Connection connectReplica() throws SQLException {
        return connect(replicaPort, "test", "postgres");
    }

    private Connection connectPrimary(String database) throws SQLException {
        return connect(primaryPort, database, "postgres");
    }

    private static String url(int port, String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    private static Connection connect(int port, String database, String user) throws SQLException {
        return DriverManager.getConnection(url(port, database) + "?connectTimeout=2", user, "");
    }

    /**
     * Waits until the replica has replayed everything the primary has written so far: its
     * {@code pg_last_wal_replay_lsn()} has reached the primary's {@code pg_current_wal_lsn()}.
     */
    @Override
    public void awaitReplicaCaughtUp(Duration deadline) throws Exception {
        String target = query(connectPrimary(), "SELECT pg_current_wal_lsn()::text");
        OwnProcesses.await(
                deadline,
                "the replica on port " + replicaPort + " to replay up to " + target,
                () -> "t"
                        .equals(query(
                                connectReplica(), "SELECT pg_last_wal_replay_lsn() >= '" + target + "'::pg_lsn")));
    }

    /**
     * Waits until the replica has replayed all the WAL it received ({@code pg_last_wal_replay_lsn()} reaches
     * {@code pg_last_wal_receive_lsn()}); {@code pg_promote} replays it anyway before it promotes.
     */
    @Override
    public void awaitReceivedWritesApplied(Duration deadline) throws Exception {
        OwnProcesses.await(
                deadline,
                "the replica on port " + replicaPort + " to replay the WAL it received",
                () -> "t"
                        .equals(query(
                                connectReplica(),
                                "SELECT pg_last_wal_receive_lsn() IS NULL"
                                        + " OR pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn()")));
    }

    /**
     * Cuts the replica off the primary: on the replica {@code ALTER SYSTEM SET primary_conninfo = ''} and
     * {@code pg_reload_conf()}, then waits until its {@code pg_stat_wal_receiver} is empty. It lags from now on and
     * still replays only what it has received (pausing replay would not do: promotion replays all received WAL).
     */
    @Override
    public void cutOffReplica() throws Exception {
        execute(connectReplica(), "ALTER SYSTEM SET primary_conninfo = ''", "SELECT pg_reload_conf()");
        OwnProcesses.await(
                START_DEADLINE,
                "the replica's WAL receiver to stop",
                () -> "0".equals(query(connectReplica(), "SELECT count(*) FROM pg_stat_wal_receiver")));
    }

    /** Kills the primary's postmaster (SIGKILL) and waits until it and its backends are gone. */
    @Override
    public void killPrimary() throws InterruptedException {
        OwnProcesses.kill(primary, "PostgreSQL primary");
    }

    /**
     * Starts the old primary again on its port with its data (after crash recovery when it was killed): a writable
     * server on its old timeline that follows nobody, as after a split brain.
     */
    public void restartPrimary() throws Exception {
        if (primary == null || !primary.isAlive()) {
            primary = startServer(primaryData(), "primary", primaryEnvironment);
        }
    }

    /** Promotes the replica ({@code SELECT pg_promote(true, 60)}) and waits until it has left recovery. */
    @Override
    public void promoteReplica() throws Exception {
        String promoted = query(connectReplica(), "SELECT pg_promote(true, 60)");
        if (!"t".equals(promoted)) {
            throw new IllegalStateException("pg_promote(true, 60) on the replica answered " + promoted);
        }
        OwnProcesses.await(
                START_DEADLINE,
                "the promoted replica to leave recovery",
                () -> "f".equals(query(connectReplica(), "SELECT pg_is_in_recovery()")));
    }

    /** @return a column of the primary's {@code pg_stat_replication} row for the replica, or {@code null} */
    public String replicationState(String column) throws SQLException {
        return query(
                connectPrimary("postgres"),
                "SELECT " + column + "::text FROM pg_stat_replication" + " WHERE application_name = '" + REPLICA_NAME
                        + "'");
    }

    @Override
    public void close() throws IOException {
        try {
            try {
                OwnProcesses.kill(replica, "PostgreSQL replica");
            } finally {
                OwnProcesses.kill(primary, "PostgreSQL primary");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            OwnProcesses.deleteTempDir(dir);
        }
    }

    /** Runs {@code statements} on {@code connection} and closes it. */
    private static void execute(Connection connection, String... statements) throws SQLException {
        try (connection;
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** @return the first column of the first row of {@code sql} as text, or {@code null}; closes the connection */
    private static String query(Connection connection, String sql) throws SQLException {
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            return row.next() ? row.getString(1) : null;
        }
    }
}
