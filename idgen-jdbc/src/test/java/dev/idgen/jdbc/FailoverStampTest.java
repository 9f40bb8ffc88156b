package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.spi.WorkerIdLeaseStore.Acquisition;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the stores do with rows another database server wrote, on the machine's MariaDB and PostgreSQL: a promotion is
 * simulated by stamping every row with a writer that is not this server (what a promoted replica finds), so each
 * rule is checked row by row, without the cost of a replica set (the replica-set tests run the real failover).
 */
class FailoverStampTest {

    private static final long JUMP = 1_000_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private final String segments = "idgen_fs_seg_" + suffix;
    private final String tickets = "idgen_fs_tkt_" + suffix;
    private final String workers = "idgen_fs_wrk_" + suffix;
    private HikariDataSource pool;

    static Stream<Supplier<TestServices.JdbcEndpoint>> databases() {
        return Stream.of(TestServices::mariadb, TestServices::postgres);
    }

    @AfterEach
    void drop() throws Exception {
        if (pool == null) {
            return;
        }
        try (HikariDataSource closing = pool;
                Connection connection = closing.getConnection();
                Statement statement = connection.createStatement()) {
            for (String table : List.of(segments, tickets, workers)) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private HikariDataSource pool(Supplier<TestServices.JdbcEndpoint> database) {
        pool = database.get().pool(4);
        return pool;
    }

    /** What a promoted copy looks like to this server: every row written by another one. */
    private void promote(String table) throws SQLException {
        execute("UPDATE " + table + " SET writer = 'another-server'");
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private long value(String sql) throws SQLException {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            return result.next() ? result.getLong(1) : -1;
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aRowWrittenElsewhereJumpsOnceAndNewNamesStartOneJumpPerPromotionBeyond(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        JdbcSegmentStore first = new JdbcSegmentStore(pool, segments, 0, SchemaInitialization.ALWAYS, TIMEOUT, JUMP);
        JdbcSegmentStore second = new JdbcSegmentStore(pool, segments, 0, SchemaInitialization.ALWAYS, TIMEOUT, JUMP);
        assertThat(first.allocate("orders", 100).last()).isEqualTo(100);
        assertThat(first.failovers().detection()).isTrue();

        promote(segments);
        // One instance jumps the row, in the statement that stamps it; the other then finds it written here.
        assertThat(second.allocate("orders", 100).last()).isEqualTo(100 + JUMP + 100);
        assertThat(first.allocate("orders", 100).last()).isEqualTo(100 + JUMP + 200);
        assertThat(first.failovers().count() + second.failovers().count()).isEqualTo(1);
        assertThat(second.failovers().last()).contains("'orders'").contains("promoted copy");
        // A name the lost primary may have had starts one jump beyond its initial value.
        assertThat(first.allocate("payments", 10).first()).isEqualTo(JUMP + 1);

        promote(segments);
        // A second promotion: rows created after the first may be lost too, so new names start two jumps beyond.
        assertThat(first.allocate("orders", 100).last()).isEqualTo(100 + JUMP + 200 + JUMP + 100);
        assertThat(first.allocate("refunds", 10).first()).isEqualTo(2 * JUMP + 1);
        assertThat(first.failovers().count() + second.failovers().count()).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void leafsTableGetsTheWriterColumnAndItsRowsJumpTooWithLeafsBlockBounds(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        JdbcSegmentStore store = new JdbcSegmentStore(
                pool, SegmentTableLayout.LEAF, segments, 0, SchemaInitialization.ALWAYS, TIMEOUT, JUMP);
        // Leaf's max_id is the first ID not handed out: a new row starts at 1, its first block is [1, 100].
        assertThat(store.allocate("orders", 100)).isEqualTo(new Segment(1, 100));
        assertThat(value("SELECT max_id FROM " + segments + " WHERE biz_tag = 'orders'"))
                .isEqualTo(101);
        assertThat(store.failovers().detection()).isTrue();
        promote(segments);
        assertThat(store.allocate("orders", 100)).isEqualTo(new Segment(101 + JUMP, 200 + JUMP));
        assertThat(store.failovers().count()).isEqualTo(1);
        assertThat(store.allocate("payments", 10).first()).isEqualTo(JUMP + 1);
        // A floor inside the row's next block: the block starts above it.
        assertThat(store.allocateAbove("orders", 10, 250 + JUMP)).isEqualTo(new Segment(251 + JUMP, 260 + JUMP));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void leafRowsOnlyLeafServersWroteAreStampedSoThatAPromotionShowsOnThem(Supplier<TestServices.JdbcEndpoint> database)
            throws Exception {
        HikariDataSource pool = pool(database);
        JdbcSegmentStore store = new JdbcSegmentStore(
                pool, SegmentTableLayout.LEAF, segments, 0, SchemaInitialization.ALWAYS, TIMEOUT, JUMP);
        store.checkAvailable(); // creates the table
        // Tags only Leaf servers serve: rows Leaf's own UPDATEs move, which never set the writer.
        execute("INSERT INTO " + segments + " (biz_tag, max_id, step) VALUES ('payments', 21, 10)");
        store.checkAvailable();
        execute("INSERT INTO " + segments + " (biz_tag, max_id, step) VALUES ('refunds', 31, 10)");
        new JdbcSegmentStore(pool, SegmentTableLayout.LEAF, segments, 0, SchemaInitialization.ALWAYS, TIMEOUT, JUMP)
                .checkAvailable();
        // A Leaf server's last segments [21, 30] and [31, 40] are lost with the primary: the promoted copy has the
        // rows at 21 and 31, stamped by the old primary.
        promote(segments);
        assertThat(store.allocate("payments", 10).first()).isEqualTo(21 + JUMP);
        assertThat(store.allocate("refunds", 10).first()).isEqualTo(31 + JUMP);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aMarkerLostWithThePrimaryIsCreatedCountingThePromotionARowJumpedFor(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        JdbcSegmentStore store = new JdbcSegmentStore(pool, segments, 0, SchemaInitialization.ALWAYS, TIMEOUT, JUMP);
        store.allocate("orders", 10);
        // The marker row never reached the promoted copy; the one row it has was written elsewhere.
        execute("DELETE FROM " + segments + " WHERE name = '" + WriterColumn.MARKER + "'");
        promote(segments);
        assertThat(store.allocate("orders", 10).last()).isEqualTo(10 + JUMP + 10);
        // No row shows the promotion any more, but the marker counts it.
        assertThat(store.allocate("payments", 10).first()).isEqualTo(JUMP + 1);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void ticketsKeepTheirResidueThroughTheJumpAndAnInstanceNeverGoesBelowItsOwnHighest(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        TicketServer server = new TicketServer(
                "s1",
                pool,
                tickets,
                1,
                3,
                SchemaInitialization.ALWAYS,
                TIMEOUT,
                Duration.ofMillis(100),
                TimeSource.system(),
                1000);
        assertThat(server.failovers().jump())
                .as("rounded up to a multiple of the servers")
                .isEqualTo(1002);
        long last = 0;
        for (int i = 0; i < 5; i++) {
            last = server.nextId("invoice");
        }
        assertThat(last).isEqualTo(1 + 5 * 3);
        // The promoted copy lost the last three tickets, and another server wrote the row.
        execute("UPDATE " + tickets + " SET id = 7, writer = 'another-server' WHERE name = 'invoice'");
        long after = server.nextId("invoice");
        assertThat(after).as("above this instance's own highest, plus the jump").isEqualTo(last + 1002 + 3);
        assertThat(after % 3).isEqualTo(1);
        // Without a promotion, a row that went back is still raised to this instance's highest first.
        execute("UPDATE " + tickets + " SET id = 7 WHERE name = 'invoice'");
        assertThat(server.nextId("invoice")).isEqualTo(after + 3);
        server.close();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void leaseRowsWrittenElsewhereAreFencedAndTheMarkKeepsEveryLaterInstanceFromMissingRows(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        Duration ttl = Duration.ofSeconds(30);
        Duration reuse = Duration.ofSeconds(1);
        JdbcWorkerIdLeaseStore a = new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        assertThat(a.acquire("a", 7, ttl, reuse).workerId()).isZero();
        assertThat(a.acquire("b", 7, ttl, reuse).workerId()).isEqualTo(1);
        // The promoted copy never received b's lease; a's row was written by the old primary.
        execute("DELETE FROM " + workers + " WHERE worker_id = 1");
        promote(workers);

        JdbcWorkerIdLeaseStore c = new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        Acquisition none = c.acquire("c", 7, ttl, reuse);
        assertThat(none.isGranted()).isFalse();
        assertThat(none.retryAfterMillis())
                .isBetween(ttl.toMillis(), ttl.plus(reuse).toMillis());
        assertThat(c.failovers().count()).isEqualTo(1);
        // Every row is this server's now; only the mark tells a later instance, which must not insert b's id either.
        assertThat(value("SELECT COUNT(*) FROM " + workers + " WHERE writer = 'another-server'"))
                .isZero();
        JdbcWorkerIdLeaseStore d = new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        assertThat(d.acquire("d", 7, ttl, reuse).isGranted()).isFalse();
        assertThat(d.failovers().count()).as("nothing left to fence").isZero();
        // b, still valid by its own clock, renews its lost row back; a renews its fenced one.
        assertThat(a.renew(1, "b", ttl, reuse, 0, true)).isTrue();
        assertThat(a.renew(0, "a", ttl, reuse, 0, true)).isTrue();
        // The mark is a row of its own, outside every worker id range.
        assertThat(value("SELECT COUNT(*) FROM " + workers + " WHERE worker_id = "
                        + JdbcWorkerIdLeaseStore.FAILOVER_MARK))
                .isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aFailoverIsFencedForTheLongestTtlOfTheFleetWhicheverInstanceNoticesIt(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        Duration longTtl = Duration.ofSeconds(6);
        Duration shortTtl = Duration.ofSeconds(2);
        Duration reuse = Duration.ofMillis(500);
        JdbcWorkerIdLeaseStore longService =
                new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        JdbcWorkerIdLeaseStore shortService =
                new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        assertThat(longService.acquire("long", 1, longTtl, reuse).workerId()).isZero();
        assertThat(shortService.acquire("short-earlier", 1, shortTtl, reuse).workerId())
                .isEqualTo(1);
        // During the replica's lag the long-ttl service took worker id 0 and renewed it, and took worker id 1 from the
        // short-ttl instance that released it: the promoted copy has neither, so both rows look lapsed there, and the
        // copy's row 1 records the short ttl. The long service still issues under both until its own ttl has passed.
        promote(workers);
        execute("UPDATE " + workers + " SET expires_at = expires_at - 60000");

        JdbcWorkerIdLeaseStore noticing =
                new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        long noticed = System.nanoTime();
        Acquisition first = noticing.acquire("short", 1, shortTtl, reuse);
        assertThat(first.isGranted()).as("fenced").isFalse();
        assertThat(noticing.failovers().count()).isEqualTo(1);
        Acquisition granted = first;
        long deadline = noticed + Duration.ofSeconds(30).toNanos();
        while (!granted.isGranted() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            granted = noticing.acquire("short", 1, shortTtl, reuse);
        }
        long waitedMillis = Duration.ofNanos(System.nanoTime() - noticed).toMillis();
        assertThat(granted.isGranted()).as("granted once the fence passed").isTrue();
        // The database's clock is read in whole milliseconds: a millisecond or two either way.
        assertThat(waitedMillis)
                .as("not before the long ttl and the reuse delay have passed, by the acquirer's clock")
                .isGreaterThanOrEqualTo(longTtl.plus(reuse).toMillis() - 2);
        assertThat(granted.isTakenOver()).isTrue();
        assertThat(granted.previousTtlMillis())
                .as("the new owner waits the long ttl too")
                .isEqualTo(longTtl.toMillis());
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aLostTakeOverGivenBackAfterAFailoverWaitsTheLongerOfItsRecordedGrantAndTheFence(
            Supplier<TestServices.JdbcEndpoint> database) throws Exception {
        HikariDataSource pool = pool(database);
        Duration longTtl = Duration.ofSeconds(6);
        Duration shortTtl = Duration.ofSeconds(2);
        Duration reuse = Duration.ofMillis(500);
        JdbcWorkerIdLeaseStore store = new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        assertThat(store.acquire("long", 0, longTtl, reuse).workerId()).isZero();
        execute("UPDATE " + workers + " SET expires_at = expires_at - 60000");
        Acquisition lost = store.acquire("short", 0, shortTtl, reuse);
        assertThat(lost.previousTtlMillis())
                .as("taken over from the long holder")
                .isEqualTo(longTtl.toMillis());
        // The row now records only the short ttl, so the fence of a failover is as short.
        promote(workers);
        JdbcWorkerIdLeaseStore noticing =
                new JdbcWorkerIdLeaseStore(pool, workers, SchemaInitialization.ALWAYS, TIMEOUT);
        assertThat(noticing.acquire("other", 0, shortTtl, reuse).isGranted()).isFalse();
        assertThat(noticing.failovers().count()).isEqualTo(1);

        Acquisition retried = store.acquire("short", 0, shortTtl, reuse);
        assertThat(retried.workerId()).isZero();
        assertThat(retried.isTakenOver()).isTrue();
        assertThat(retried.previousTtlMillis())
                .as("the long holder it was taken from may still be issuing, whatever the fence's ttl")
                .isEqualTo(longTtl.toMillis());
    }
}
