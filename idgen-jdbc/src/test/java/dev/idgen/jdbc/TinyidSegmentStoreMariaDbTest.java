package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.test.SegmentStoreContract;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The segment store contract on Tinyid's {@code tiny_id_info}, spread over two MariaDB databases, plus the rows it
 * refuses to take over.
 */
class TinyidSegmentStoreMariaDbTest extends SegmentStoreContract {

    private final TinyidDatabases databases;

    TinyidSegmentStoreMariaDbTest() throws SQLException {
        databases = new TinyidDatabases(2, false);
    }

    @Override
    protected SegmentStore store(long initialValue) {
        return new TinyidSegmentStore(
                databases.pools(2), databases.table, initialValue, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
    }

    /** A block lost half-way (one database's row moved, another's taken first) is skipped. */
    @Override
    protected boolean contendedAllocationsLeaveNoGap() {
        return false;
    }

    @AfterEach
    void dropTables() throws SQLException {
        databases.close();
    }

    @Test
    void aNameNewToTinyidGetsARowOfItsResidueInEveryDatabase() throws Exception {
        assertThat(store(0).allocate("orders", 10)).isEqualTo(new Segment(1, 10));
        TinyidSegmentReplay tinyid = new TinyidSegmentReplay(databases.pools(1), databases.table);
        TinyidSegmentReplay.Taken taken = tinyid.nextSegment("orders");
        assertThat(taken.currentId())
                .as("a Tinyid server goes on above idgen's block")
                .isEqualTo(10);
        assertThat(taken.delta()).isEqualTo(2);
    }

    @Test
    void aNameLongerThanTinyidsColumnIsRefusedNamingIt() {
        String name = "n".repeat(64);
        assertThatThrownBy(() -> store(0).allocate(name, 10))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("63 characters");
    }

    @Test
    void rowsThatDoNotCoverEveryResidueOnceAreRefusedNamingWhatIsThere() throws Exception {
        // Tinyid's sample: odd IDs only, from a single database.
        try (TinyidDatabases single = new TinyidDatabases(1, true)) {
            single.execute(
                    0,
                    "INSERT INTO " + single.table + " (id, biz_type, begin_id, max_id, step, delta, remainder,"
                            + " create_time, update_time, version) VALUES (2, 'test_odd', 1, 1, 100000, 2, 1,"
                            + " '2018-07-21 23:52:58', '2018-07-23 00:39:24', 3)");
            TinyidSegmentStore store = new TinyidSegmentStore(
                    single.pools(1), single.table, 0, SchemaInitialization.NEVER, Duration.ofSeconds(5));
            assertThatThrownBy(() -> store.allocate("test_odd", 10))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("'test_odd'")
                    .hasMessageContaining("delta 2 remainder 1")
                    .hasMessageContaining("every database of the Tinyid deployment");
        }
    }

    @Test
    void aNameWithARowInOneDatabaseOnlyIsRefusedAndNoRowIsMadeUp() throws Exception {
        // Tinyid's rows of 'orders' are in database 1 and in another database idgen was not given; idgen lists
        // database 0 in its place, which has no such row.
        store(0).allocate("warmup", 1); // creates the tables
        databases.execute(
                1,
                "INSERT INTO " + databases.table + " (biz_type, begin_id, max_id, step, delta, remainder, version)"
                        + " VALUES ('orders', 1, 1000, 50, 2, 0, 7)");
        assertThatThrownBy(() -> store(0).allocate("orders", 10))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("'orders' has rows in")
                .hasMessageContaining("none on");
        try (var connection = databases.pool(0, 1).getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT COUNT(*) FROM " + databases.table + " WHERE biz_type = 'orders'")) {
            rows.next();
            assertThat(rows.getInt(1)).as("no row made up in database 0").isZero();
        }
    }

    @Test
    void aRowWithANegativeStepIsRefused() throws Exception {
        store(0).allocate("orders", 1);
        databases.execute(0, "UPDATE " + databases.table + " SET step = -5 WHERE biz_type = 'orders'");
        assertThatThrownBy(() -> store(0).allocate("orders", 10))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("step -5");
    }
}
