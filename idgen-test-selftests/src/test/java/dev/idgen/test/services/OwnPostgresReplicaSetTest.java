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
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Checks the test's own PostgreSQL primary and streaming replica: rows reach the replica, a replica cut off before
 * the primary dies lacks the later rows once promoted but takes writes, and pgjdbc's {@code targetServerType=primary}
 * URL reaches it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
// Each method starts servers of its own and mostly waits on them: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
class OwnPostgresReplicaSetTest {

    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    @Test
    void streamingReplicaCopiesRowsAndIsPromotedWithoutTheRowsItNeverReceived() throws Exception {
        long starting = System.nanoTime();
        try (OwnPostgresReplicaSet set = OwnPostgresReplicaSet.start()) {
            log(
                    "PostgreSQL primary %d + replica %d started in %d ms",
                    set.primaryPort(), set.replicaPort(), millisSince(starting));
            try (Connection primary = set.connectPrimary();
                    Statement sql = primary.createStatement()) {
                sql.execute("CREATE TABLE t (id INT PRIMARY KEY, note TEXT)");
                sql.execute("INSERT INTO t VALUES (1, 'before')");
                sql.execute("CREATE ROLE app LOGIN");
                log("facts on the primary: %s", facts(primary));
            }
            long writing = System.nanoTime();
            set.awaitReplicaCaughtUp(CATCH_UP);
            log("replica caught up in %d ms", millisSince(writing));
            try (Connection replica = set.connectReplica()) {
                assertThat(rows(replica)).containsExactly("1:before");
                log("facts on the replica: %s", facts(replica));
            }
            log("as the non-superuser app on the primary: %s", appFacts(set.primaryUrl()));
            log("as the non-superuser app on the replica: %s", appFacts(set.replicaUrl()));

            set.cutOffReplica();
            try (Connection primary = set.connectPrimary();
                    Statement sql = primary.createStatement()) {
                sql.execute("INSERT INTO t VALUES (2, 'lost')");
                assertThat(rows(primary)).containsExactly("1:before", "2:lost");
            }
            set.killPrimary();
            long promoting = System.nanoTime();
            set.promoteReplica();
            log("replica promoted in %d ms", millisSince(promoting));
            try (Connection promoted = set.connectReplica();
                    Statement sql = promoted.createStatement()) {
                log("facts on the promoted replica right after pg_promote: %s", facts(promoted));
                sql.execute("INSERT INTO t VALUES (3, 'after')");
                assertThat(rows(promoted))
                        .as("the promoted replica lacks the row it never received")
                        .containsExactly("1:before", "3:after");
            }
            log("as the non-superuser app on the promoted replica: %s", appFacts(set.replicaUrl()));

            long failingOver = System.nanoTime();
            try (Connection failover =
                            DriverManager.getConnection(set.failoverUrl() + "&connectTimeout=2", "postgres", "");
                    Statement sql = failover.createStatement();
                    ResultSet row = sql.executeQuery("SELECT inet_server_port(), pg_is_in_recovery()")) {
                row.next();
                assertThat(row.getInt(1))
                        .as("the failover URL reaches the promoted replica")
                        .isEqualTo(set.replicaPort());
                assertThat(row.getBoolean(2)).isFalse();
            }
            log("failover URL connected to the promoted replica in %d ms", millisSince(failingOver));

            set.restartPrimary();
            try (Connection old = set.connectPrimary()) {
                assertThat(rows(old))
                        .as("the restarted old primary kept its own later row")
                        .containsExactly("1:before", "2:lost");
                log("facts on the restarted old primary: %s", facts(old));
            }
        }
    }

    @Test
    void synchronousReplicaIsCountedAsSync() throws Exception {
        long starting = System.nanoTime();
        try (OwnPostgresReplicaSet set = OwnPostgresReplicaSet.startSynchronous()) {
            log("synchronous PostgreSQL primary + replica started in %d ms", millisSince(starting));
            assertThat(set.replicationState("sync_state")).isEqualTo("sync");
            try (Connection primary = set.connectPrimary();
                    Statement sql = primary.createStatement()) {
                assertThat(text(primary, "SHOW synchronous_standby_names"))
                        .isEqualTo(OwnPostgresReplicaSet.REPLICA_NAME);
                assertThat(text(primary, "SHOW synchronous_commit")).isEqualTo("on");
                sql.execute("CREATE TABLE t (id INT PRIMARY KEY, note TEXT)");
                long committing = System.nanoTime();
                sql.execute("INSERT INTO t VALUES (1, 'synchronous')");
                log("synchronous commit took %d ms", millisSince(committing));
            }
            try (Connection replica = set.connectReplica()) {
                assertThat(text(replica, "SHOW synchronous_standby_names")).isEmpty();
            }
            set.awaitReplicaCaughtUp(CATCH_UP);
            try (Connection replica = set.connectReplica()) {
                assertThat(rows(replica)).containsExactly("1:synchronous");
            }
        }
    }

    private static List<String> rows(Connection connection) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement sql = connection.createStatement();
                ResultSet row = sql.executeQuery("SELECT id, note FROM t ORDER BY id")) {
            while (row.next()) {
                rows.add(row.getInt(1) + ":" + row.getString(2));
            }
        }
        return rows;
    }

    private static String text(Connection connection, String query) throws SQLException {
        try (Statement sql = connection.createStatement();
                ResultSet row = sql.executeQuery(query)) {
            row.next();
            return row.getString(1);
        }
    }

    private static String facts(Connection connection) {
        StringBuilder facts = new StringBuilder();
        for (String query : List.of(
                "SELECT system_identifier FROM pg_control_system()",
                "SELECT pg_is_in_recovery()",
                "SELECT CASE WHEN pg_is_in_recovery() THEN 'replay ' || pg_walfile_name(pg_last_wal_replay_lsn())"
                        + " ELSE pg_walfile_name(pg_current_wal_lsn()) END",
                "SELECT timeline_id FROM pg_control_checkpoint()")) {
            facts.append(query).append(" = ").append(tryText(connection, query)).append("; ");
        }
        return facts.toString();
    }

    private static String appFacts(String url) {
        try (Connection app = DriverManager.getConnection(url + "?connectTimeout=2", "app", "")) {
            return "pg_control_system(): " + tryText(app, "SELECT system_identifier FROM pg_control_system()")
                    + "; pg_current_wal_lsn(): " + tryText(app, "SELECT pg_current_wal_lsn()")
                    + "; pg_control_checkpoint(): " + tryText(app, "SELECT timeline_id FROM pg_control_checkpoint()");
        } catch (SQLException e) {
            return "cannot connect: " + e.getMessage();
        }
    }

    private static String tryText(Connection connection, String query) {
        try {
            return text(connection, query);
        } catch (SQLException e) {
            return "ERROR " + e.getMessage().replace('\n', ' ');
        }
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static void log(String format, Object... args) {
        System.out.println("[OwnPostgresReplicaSetTest] " + String.format(format, args));
    }
}
