package dev.idgen.test.services;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A MariaDB primary and one replica of the test's own, each its own {@code mariadbd} with its own data directory on a
 * free loopback port: server ids 1 and 2, binary logs in ROW format with {@code --log-slave-updates} and
 * {@code --gtid-strict-mode=1}, the replica following the primary by GTID ({@code MASTER_USE_GTID=slave_pos}) and
 * {@code read_only=1} (which does not stop {@code root}: it has SUPER). Database {@code test} is replicated.
 *
 * <p>Asynchronous by default; {@link #startSemiSync(Duration)} makes it semi-synchronous ({@code AFTER_SYNC}). The
 * test may let the replica fall behind ({@link #stopReplication()}), lose the primary ({@link #killPrimary()}) and
 * promote the replica ({@link #promoteReplica()}). {@link #close()} kills both servers and deletes their data.
 */
public final class OwnMariaDbReplicaSet implements OwnReplicaSet {

    private static final Duration SET_UP_DEADLINE = Duration.ofSeconds(60);

    private final Path dir;
    private final boolean semiSync;
    private MariaDbProcess primary;
    private MariaDbProcess replica;

    private OwnMariaDbReplicaSet(Path dir, boolean semiSync) {
        this.dir = dir;
        this.semiSync = semiSync;
    }

    /**
     * Starts a primary and an asynchronous replica and waits until the replica has copied database {@code test}.
     *
     * @throws IllegalStateException naming what to install when MariaDB's server binaries are missing
     */
    public static OwnMariaDbReplicaSet start() throws Exception {
        return start(null);
    }

    /**
     * Starts a primary and a semi-synchronous replica: {@code rpl_semi_sync_master_enabled=ON} with
     * {@code rpl_semi_sync_master_wait_point=AFTER_SYNC} on the primary, {@code rpl_semi_sync_slave_enabled=ON} on the
     * replica; waits until the primary counts the replica as a semi-synchronous client and reports
     * {@code Rpl_semi_sync_master_status} ON.
     *
     * @param masterTimeout {@code rpl_semi_sync_master_timeout}: how long a commit waits for the replica's
     *        acknowledgement before the primary falls back to asynchronous replication
     */
    public static OwnMariaDbReplicaSet startSemiSync(Duration masterTimeout) throws Exception {
        return start(masterTimeout);
    }

    private static OwnMariaDbReplicaSet start(Duration semiSyncTimeout) throws Exception {
        OwnMariaDbReplicaSet set = new OwnMariaDbReplicaSet(
                OwnProcesses.createTempDir("idgen-mariadb-replicas-"), semiSyncTimeout != null);
        try {
            List<String> primaryOptions = binlogOptions(set.dir.resolve("primary"), 1);
            List<String> replicaOptions = binlogOptions(set.dir.resolve("replica"), 2);
            if (semiSyncTimeout != null) {
                primaryOptions.addAll(List.of(
                        "--rpl-semi-sync-master-enabled=ON",
                        "--rpl-semi-sync-master-wait-point=AFTER_SYNC",
                        "--rpl-semi-sync-master-timeout=" + semiSyncTimeout.toMillis()));
                replicaOptions.add("--rpl-semi-sync-slave-enabled=ON");
            }
            set.primary = MariaDbProcess.install("MariaDB primary", set.dir.resolve("primary"), primaryOptions);
            set.replica = MariaDbProcess.install("MariaDB replica", set.dir.resolve("replica"), replicaOptions);
            set.primary.start();
            set.replica.start();
            execute(
                    set.replica,
                    "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + set.primary.port()
                            + ", MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos",
                    "START SLAVE",
                    "SET GLOBAL read_only=1");
            if (set.semiSync) {
                OwnProcesses.await(
                        SET_UP_DEADLINE,
                        "the primary to count the replica as a semi-synchronous client",
                        () -> "1".equals(status(set.primary, "Rpl_semi_sync_master_clients"))
                                && "ON".equals(status(set.primary, "Rpl_semi_sync_master_status")));
            }
            // Only now: a semi-synchronous primary without its replica would wait out its timeout on this commit.
            execute(set.primary, "CREATE DATABASE IF NOT EXISTS test");
            set.awaitReplicaCaughtUp(SET_UP_DEADLINE);
            return set;
        } catch (Exception | Error e) {
            set.close();
            throw e;
        }
    }

    private static List<String> binlogOptions(Path dir, int serverId) {
        return new ArrayList<>(List.of(
                "--server-id=" + serverId,
                "--log-bin=" + dir.resolve("binlog"),
                "--binlog-format=ROW",
                "--log-slave-updates",
                "--gtid-strict-mode=1"));
    }

    /** @return {@code jdbc:mariadb://127.0.0.1:<primary>/test} */
    public String primaryUrl() {
        return "jdbc:mariadb://127.0.0.1:" + primary.port() + "/test";
    }

    /** @return {@code jdbc:mariadb://127.0.0.1:<replica>/test} */
    public String replicaUrl() {
        return "jdbc:mariadb://127.0.0.1:" + replica.port() + "/test";
    }

    /** @return a URL on which MariaDB Connector/J tries the primary first, then the replica */
    @Override
    public String failoverUrl() {
        return "jdbc:mariadb:sequential://127.0.0.1:" + primary.port() + ",127.0.0.1:" + replica.port() + "/test";
    }

    public int primaryPort() {
        return primary.port();
    }

    public int replicaPort() {
        return replica.port();
    }

    /** @return whether this set was started {@link #startSemiSync semi-synchronous} */
    public boolean semiSync() {
        return semiSync;
    }

    /**
     * Creates an application user on the primary (replicated to the replica) with every privilege on database
     * {@code test} and none global: unlike root, which has SUPER, it cannot write to the replica while
     * {@code read_only} is on, as an application could not before the replica is promoted.
     */
    public void createApplicationUser(String user, String password) throws SQLException {
        try (Connection connection = connectPrimary();
                Statement statement = connection.createStatement()) {
            for (String host : new String[] {"127.0.0.1", "localhost", "%"}) {
                statement.execute("CREATE USER '" + user + "'@'" + host + "' IDENTIFIED BY '" + password + "'");
                statement.execute("GRANT ALL ON test.* TO '" + user + "'@'" + host + "'");
            }
        }
    }

    /** @return a connection as root to database {@code test} on the primary */
    @Override
    public Connection connectPrimary() throws SQLException {
        return DriverManager.getConnection(primaryUrl() + "?connectTimeout=1000", "root", "");
    }

    /** @return a connection as root to database {@code test} on the replica */
    @Override
    public Connection connectReplica() throws SQLException {
        return DriverManager.getConnection(replicaUrl() + "?connectTimeout=1000", "root", "");
    }

    /**
     * Waits until the replica has applied everything the primary has logged: for every replication domain in the
     * primary's {@code @@gtid_binlog_pos}, the replica's {@code @@gtid_slave_pos} has reached its sequence number.
     */
    @Override
    public void awaitReplicaCaughtUp(Duration deadline) throws Exception {
        String target = variable(primary, "@@gtid_binlog_pos");
        OwnProcesses.await(
                deadline, "the replica " + replica + " to reach the primary's GTID position " + target, () -> {
                    Map<Long, Long> reached = sequenceByDomain(variable(replica, "@@gtid_slave_pos"));
                    for (Map.Entry<Long, Long> wanted : sequenceByDomain(target).entrySet()) {
                        if (reached.getOrDefault(wanted.getKey(), -1L) < wanted.getValue()) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** {@code STOP SLAVE} on the replica: the same as {@link #stopReplication()}. */
    @Override
    public void cutOffReplica() throws SQLException {
        stopReplication();
    }

    /** {@code STOP SLAVE} on the replica: from now on it lags behind everything the primary commits. */
    public void stopReplication() throws SQLException {
        execute(replica, "STOP SLAVE");
    }

    /** Kills the primary (SIGKILL) and waits until its process is gone. */
    @Override
    public void killPrimary() throws InterruptedException {
        primary.kill();
    }

    /**
     * Starts the old primary again, on its port with its data (after crash recovery when it was killed): it is a
     * standalone writable server then, following nobody, as after a split brain.
     */
    public void restartPrimary() throws Exception {
        primary.start();
    }

    /**
     * Waits until the replica's SQL thread has applied what its IO thread received: {@code @@gtid_slave_pos} reaches
     * {@code Gtid_IO_Pos} in every domain. With semi-synchronous replication a commit is acknowledged once the replica
     * received it, not once it applied it, so right after the primary's kill the replica's tables may still miss
     * acknowledged writes. Returns at once when the SQL thread is not running (a replica that was cut off).
     */
    @Override
    public void awaitReceivedWritesApplied(Duration deadline) throws Exception {
        OwnProcesses.await(deadline, "the replica " + replica + " to apply its relay log", () -> {
            try (Connection connection = replica.connect();
                    Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SHOW SLAVE STATUS")) {
                if (!row.next() || !"Yes".equalsIgnoreCase(row.getString("Slave_SQL_Running"))) {
                    return true;
                }
                Map<Long, Long> applied = sequenceByDomain(variable(replica, "@@gtid_slave_pos"));
                for (Map.Entry<Long, Long> received :
                        sequenceByDomain(row.getString("Gtid_IO_Pos")).entrySet()) {
                    if (applied.getOrDefault(received.getKey(), -1L) < received.getValue()) {
                        return false;
                    }
                }
                return true;
            }
        });
    }

    /**
     * Makes the replica a writable primary once it applied what it received: {@code STOP SLAVE; RESET SLAVE ALL;
     * SET GLOBAL read_only=0}.
     */
    @Override
    public void promoteReplica() throws Exception {
        awaitReceivedWritesApplied(SET_UP_DEADLINE);
        execute(replica, "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only=0");
    }

    /** @return a {@code SHOW GLOBAL STATUS} value of the primary, or {@code null} when it has none */
    public String primaryStatus(String name) throws SQLException {
        return status(primary, name);
    }

    /** @return a {@code SHOW GLOBAL STATUS} value of the replica, or {@code null} when it has none */
    public String replicaStatus(String name) throws SQLException {
        return status(replica, name);
    }

    @Override
    public void close() throws IOException {
        try {
            try {
                if (replica != null) {
                    replica.kill();
                }
            } finally {
                if (primary != null) {
                    primary.kill();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            OwnProcesses.deleteTempDir(dir);
        }
    }

    private static void execute(MariaDbProcess server, String... statements) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static String variable(MariaDbProcess server, String expression) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT " + expression)) {
            row.next();
            return row.getString(1);
        }
    }

    private static String status(MariaDbProcess server, String name) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + name + "'")) {
            return row.next() ? row.getString(2) : null;
        }
    }

    /** @return domain id to sequence number of a GTID position such as {@code 0-1-42,1-2-7} */
    static Map<Long, Long> sequenceByDomain(String position) {
        Map<Long, Long> sequences = new HashMap<>();
        if (position == null || position.isBlank()) {
            return sequences;
        }
        for (String gtid : position.split(",")) {
            String[] parts = gtid.trim().split("-");
            sequences.merge(Long.parseLong(parts[0]), Long.parseLong(parts[2]), Math::max);
        }
        return sequences;
    }
}
