package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A slow store: another transaction holds the name's row lock on real MariaDB while the next segment loads. Callers
 * keep drawing from the buffer without waiting; the load completes once the lock is released.
 */
class SegmentRowLockTest {

    @Test
    void callersDoNotWaitWhileTheBufferLastsEvenIfTheRowIsLocked() throws Exception {
        String table = "idgen_lock_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        try (HikariDataSource pool = mariadb.pool(2)) {
            JdbcSegmentStore store = new JdbcSegmentStore(pool, table, 0,
                    SchemaInitialization.ALWAYS, Duration.ofSeconds(30));
            try (SegmentIdService ids = SegmentIdService.builder(store).settings(SegmentSettings.builder().step(1000)
                    .maxStep(1000).awaitTimeout(Duration.ofSeconds(20)).build()).build();
                    Connection locker = mariadb.connect();
                    Statement lock = locker.createStatement()) {
                assertThat(ids.nextId("orders")).isEqualTo(1);
                locker.setAutoCommit(false);
                lock.executeQuery("SELECT max_id FROM " + table + " WHERE name = 'orders' FOR UPDATE").close();

                long[] whileLocked = ids.nextIds("orders", 900); // past the preload threshold: the load now blocks
                Thread.sleep(300);
                for (int i = 0; i < 99; i++) {
                    ids.nextId("orders");
                }
                SegmentBufferStats stats = ids.stats("orders").orElseThrow();
                assertThat(stats.loading()).as("the next segment's load is stuck on the row lock").isTrue();
                assertThat(stats.waits()).as("only the very first call waited").isEqualTo(1);
                assertThat(whileLocked[899]).isEqualTo(901);

                locker.commit();
                assertThat(ids.nextId("orders")).isEqualTo(1001);
            } finally {
                try (Connection connection = mariadb.connect(); Statement statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        }
    }
}
