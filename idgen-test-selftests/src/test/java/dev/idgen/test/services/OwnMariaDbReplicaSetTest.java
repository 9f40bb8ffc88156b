package dev.idgen.test.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Checks the test's own MariaDB primary and replica: rows reach the replica, a replica cut off before the primary dies
 * lacks the later rows once promoted but takes writes, and the driver's sequential failover URL reaches it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OwnMariaDbReplicaSetTest {

    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    @Test
    void asynchronousReplicaCopiesRowsAndIsPromotedWithoutTheRowsItNeverReceived() throws Exception {
        long starting = System.nanoTime();
        try (OwnMariaDbReplicaSet set = OwnMariaDbReplicaSet.start()) {
            log(
                    "MariaDB primary %d + replica %d started in %d ms",
                    set.primaryPort(), set.replicaPort(), millisSince(starting));
            try (Connection primary = set.connectPrimary();
                    Statement sql = primary.createStatement()) {
                sql.execute("CREATE TABLE t (id INT PRIMARY KEY, writer INT)");
                sql.execute("INSERT INTO t VALUES (1, 0)");
                sql.execute("UPDATE t SET writer = @@server_id WHERE id = 1");
            }
            long writing = System.nanoTime();
            set.awaitReplicaCaughtUp(CATCH_UP);
            log("replica caught up in %d ms", millisSince(writing));
            try (Connection replica = set.connectReplica()) {
                assertThat(rows(replica)).containsExactly("1:1");
                log("facts on the replica: %s", facts(replica));
            }
            try (Connection primary = set.connectPrimary()) {
                log("facts on the primary: %s", facts(primary));
            }

            set.stopReplication();
            try (Connection primary = set.connectPrimary();
                    Statement sql = primary.createStatement()) {
                sql.execute("INSERT INTO t VALUES (2, @@server_id)");
                assertThat(rows(primary)).containsExactly("1:1", "2:1");
            }
            set.killPrimary();
            set.promoteReplica();
            try (Connection promoted = set.connectReplica();
                    Statement sql = promoted.createStatement()) {
                sql.execute("INSERT INTO t VALUES (3, @@server_id)");
                assertThat(rows(promoted))
                        .as("the promoted replica lacks the row it never received")
                        .containsExactly("1:1", "3:2");
                log("facts on the promoted replica: %s", facts(promoted));
            }

            long failingOver = System.nanoTime();
            try (Connection failover =
                            DriverManager.getConnection(set.failoverUrl() + "?connectTimeout=1000", "root", "");
                    Statement sql = failover.createStatement();
                    ResultSet row = sql.executeQuery("SELECT @@server_id, @@read_only")) {
                row.next();
                assertThat(row.getInt(1))
                        .as("the failover URL reaches the promoted replica")
                        .isEqualTo(2);
                assertThat(row.getInt(2)).isZero();
            }
            log("failover URL connected to the promoted replica in %d ms", millisSince(failingOver));

            set.restartPrimary();
            try (Connection old = set.connectPrimary()) {
                assertThat(rows(old))
                        .as("the restarted old primary kept its own later row")
                        .containsExactly("1:1", "2:1");
            }
        }
    }

    @Test
    void semiSynchronousReplicaAcknowledgesCommits() throws Exception {
        long starting = System.nanoTime();
        try (OwnMariaDbReplicaSet set = OwnMariaDbReplicaSet.startSemiSync(Duration.ofSeconds(5))) {
            log("semi-synchronous MariaDB primary + replica started in %d ms", millisSince(starting));
            assertThat(set.semiSync()).isTrue();
            assertThat(set.primaryStatus("Rpl_semi_sync_master_status")).isEqualTo("ON");
            assertThat(set.replicaStatus("Rpl_semi_sync_slave_status")).isEqualTo("ON");
            try (Connection primary = set.connectPrimary();
                    Statement sql = primary.createStatement()) {
                assertThat(value(primary, "@@rpl_semi_sync_master_enabled")).isEqualTo("1");
                assertThat(value(primary, "@@rpl_semi_sync_master_wait_point")).isEqualTo("AFTER_SYNC");
                assertThat(value(primary, "@@rpl_semi_sync_master_timeout")).isEqualTo("5000");
                sql.execute("CREATE TABLE t (id INT PRIMARY KEY, writer INT)");
                long committing = System.nanoTime();
                sql.execute("INSERT INTO t VALUES (1, @@server_id)");
                log("semi-sync commit took %d ms", millisSince(committing));
                log("facts on the semi-sync primary: %s", facts(primary));
            }
            assertThat(Long.parseLong(set.primaryStatus("Rpl_semi_sync_master_yes_tx")))
                    .as("commits acknowledged by the replica")
                    .isGreaterThanOrEqualTo(2);
            assertThat(set.primaryStatus("Rpl_semi_sync_master_no_tx")).isEqualTo("0");
            try (Connection replica = set.connectReplica()) {
                assertThat(value(replica, "@@rpl_semi_sync_slave_enabled")).isEqualTo("1");
                log("facts on the semi-sync replica: %s", facts(replica));
            }
        }
    }

    private static List<String> rows(Connection connection) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement sql = connection.createStatement();
                ResultSet row = sql.executeQuery("SELECT id, writer FROM t ORDER BY id")) {
            while (row.next()) {
                rows.add(row.getInt(1) + ":" + row.getInt(2));
            }
        }
        return rows;
    }

    private static String value(Connection connection, String expression) throws SQLException {
        try (Statement sql = connection.createStatement();
                ResultSet row = sql.executeQuery("SELECT " + expression)) {
            row.next();
            return row.getString(1);
        }
    }

    private static String facts(Connection connection) {
        StringBuilder facts = new StringBuilder();
        for (String expression : List.of(
                "@@server_id",
                "@@binlog_format",
                "@@log_bin",
                "@@read_only",
                "@@gtid_binlog_pos",
                "@@gtid_slave_pos",
                "@@rpl_semi_sync_master_enabled",
                "@@rpl_semi_sync_slave_enabled",
                "@@rpl_semi_sync_master_wait_point",
                "@@wsrep_on")) {
            String value;
            try {
                value = value(connection, expression);
            } catch (SQLException e) {
                value = "ERROR " + e.getMessage();
            }
            facts.append(expression).append('=').append(value).append("; ");
        }
        try (Statement sql = connection.createStatement();
                ResultSet row = sql.executeQuery("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_%status'")) {
            while (row.next()) {
                facts.append(row.getString(1))
                        .append('=')
                        .append(row.getString(2))
                        .append("; ");
            }
        } catch (SQLException e) {
            facts.append("status ERROR ").append(e.getMessage());
        }
        return facts.toString();
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static void log(String format, Object... args) {
        System.out.println("[OwnMariaDbReplicaSetTest] " + String.format(format, args));
    }
}
