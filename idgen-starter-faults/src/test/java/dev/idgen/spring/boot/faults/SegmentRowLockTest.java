package dev.idgen.spring.boot.faults;

import static dev.idgen.spring.boot.faults.Conditions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A slow store: another transaction holds the name's row lock on real MariaDB while the next segment loads. Callers
 * keep drawing from the buffer without waiting; the load completes once the lock is released.
 */
class SegmentRowLockTest {

    /** @return how many transactions wait for a row lock, by InnoDB's account, in a statement on {@code table} */
    private static int transactionsWaitingForALockOn(TestServices.JdbcEndpoint endpoint, String table) {
        try (Connection connection = endpoint.connect();
                Statement statement = connection.createStatement();
                ResultSet waiting = statement.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX"
                        + " WHERE trx_state = 'LOCK WAIT' AND trx_query LIKE '%" + table + "%'")) {
            waiting.next();
            return waiting.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long committedMaxId(TestServices.JdbcEndpoint endpoint, String table) throws SQLException {
        try (Connection connection = endpoint.connect();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT max_id FROM " + table + " WHERE name = 'orders'")) {
            assertThat(row.next()).isTrue();
            return row.getLong(1);
        }
    }

    @Test
    void callersDoNotWaitWhileTheBufferLastsEvenIfTheRowIsLocked() throws Exception {
        String table =
                "idgen_lock_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        try (HikariDataSource pool = mariadb.pool(2)) {
            JdbcSegmentStore store =
                    new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(30));
            try (SegmentIdService ids = SegmentIdService.builder(store)
                            .settings(SegmentSettings.builder()
                                    .step(1000)
                                    .maxStep(1000)
                                    .awaitTimeout(Duration.ofSeconds(20))
                                    .build())
                            .build();
                    Connection locker = mariadb.connect();
                    Statement lock = locker.createStatement()) {
                assertThat(ids.nextId("orders")).isEqualTo(1);
                locker.setAutoCommit(false);
                lock.executeQuery("SELECT max_id FROM " + table + " WHERE name = 'orders' FOR UPDATE")
                        .close();

                long[] whileLocked = ids.nextIds("orders", 900); // past the preload threshold: the load now blocks
                // The load is stuck on the row lock: the database has a transaction waiting for a lock on the table.
                eventually(
                        "the next segment's load to wait for the row lock",
                        () -> transactionsWaitingForALockOn(mariadb, table) > 0);
                for (int i = 0; i < 99; i++) {
                    ids.nextId("orders");
                }
                SegmentBufferStats stats = ids.stats("orders").orElseThrow();
                assertThat(stats.loading())
                        .as("the next segment's load is under way")
                        .isTrue();
                assertThat(stats.nextRemaining())
                        .as("no next segment while the row is locked")
                        .isZero();
                assertThat(committedMaxId(mariadb, table))
                        .as("the row: no segment allocated past the first")
                        .isEqualTo(1000);
                assertThat(transactionsWaitingForALockOn(mariadb, table))
                        .as("the load still waits for the lock")
                        .isPositive();
                assertThat(stats.waits()).as("only the very first call waited").isEqualTo(1);
                assertThat(whileLocked[899]).isEqualTo(901);

                locker.commit();
                // Once the lock is released the load completes: the next segment is allocated and served.
                eventually(
                        "the next segment to load once the lock is released",
                        () -> ids.stats("orders").orElseThrow().nextRemaining() == 1000);
                assertThat(ids.nextId("orders")).isEqualTo(1001);
            } finally {
                try (Connection connection = mariadb.connect();
                        Statement statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        }
    }
}
