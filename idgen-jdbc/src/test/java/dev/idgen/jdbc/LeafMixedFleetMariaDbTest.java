package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.MixedFleet.Member;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rolling replacement of Leaf servers by idgen instances on one {@code leaf_alloc} table, on MariaDB: Leaf servers
 * replayed statement for statement ({@link LeafSegmentReplay}, adaptive step included) and idgen instances with
 * {@link SegmentTableLayout#LEAF}, each with a pool of its own, running side by side, then one Leaf server coming back
 * (a roll-back). No ID is ever issued twice.
 */
class LeafMixedFleetMariaDbTest {

    private static final List<String> TAGS = List.of("orders", "payments");

    private final String table =
            "leaf_alloc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final List<HikariDataSource> pools = new ArrayList<>();
    private final List<AutoCloseable> services = new ArrayList<>();
    private final MixedFleet fleet = new MixedFleet();
    private final IssuedRanges issued = new IssuedRanges();
    private final AtomicLong customSteps = new AtomicLong();
    private final AtomicLong halvings = new AtomicLong();

    @BeforeEach
    void createLeafsTable() throws Exception {
        // Leaf's own DDL (scripts/leaf_alloc.sql) and README rows: no writer column, so idgen runs without failover
        // detection here (it says so in the log) and must still keep every block apart.
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE `" + table + "` (\n"
                    + "  `biz_tag` varchar(128)  NOT NULL DEFAULT '',\n"
                    + "  `max_id` bigint(20) NOT NULL DEFAULT '1',\n"
                    + "  `step` int(11) NOT NULL,\n"
                    + "  `description` varchar(256)  DEFAULT NULL,\n"
                    + "  `update_time` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
                    + "  PRIMARY KEY (`biz_tag`)\n"
                    + ") ENGINE=InnoDB");
            statement.execute("insert into " + table
                    + "(biz_tag, max_id, step, description) values('orders', 1, 7, 'Test leaf Segment Mode Get Id')");
            statement.execute("insert into " + table
                    + "(biz_tag, max_id, step, description) values('payments', 1, 3, 'Test leaf Segment Mode Get Id')");
        }
    }

    @AfterEach
    void dropTable() throws Exception {
        fleet.close();
        for (AutoCloseable service : services) {
            service.close();
        }
        pools.forEach(HikariDataSource::close);
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private HikariDataSource pool() {
        HikariDataSource pool = TestServices.mariadb().pool(2);
        pools.add(pool);
        return pool;
    }

    /** A Leaf server whose clock moves 1, 20 or 40 minutes between loads: its step doubles, holds and halves. */
    private Member leafServer(String issuer) {
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        LeafSegmentReplay leaf = new LeafSegmentReplay(pool(), table, clock::get);
        int[] lastStep = new int[TAGS.size()];
        return fleet.start(issuer, n -> {
            int tag = (int) (n % TAGS.size());
            LeafSegmentReplay.Loaded loaded = leaf.load(TAGS.get(tag));
            issued.add(TAGS.get(tag), loaded.first(), loaded.last(), issuer);
            if (loaded.customStep()) {
                customSteps.incrementAndGet();
            }
            if (loaded.step() < lastStep[tag]) {
                halvings.incrementAndGet();
            }
            lastStep[tag] = loaded.step();
            long minutes = new long[] {1, 1, 20, 40}[ThreadLocalRandom.current().nextInt(4)];
            clock.addAndGet(Duration.ofMinutes(minutes).toMillis());
        });
    }

    /** An idgen instance on Leaf's table, handing out single IDs the way an application takes them. */
    private Member idgenInstance(String issuer) {
        JdbcSegmentStore store = new JdbcSegmentStore(
                pool(),
                SegmentTableLayout.LEAF,
                table,
                0,
                SchemaInitialization.NEVER,
                Duration.ofSeconds(5),
                JdbcSegmentStore.DEFAULT_FAILOVER_JUMP);
        SegmentIdService ids = SegmentIdService.builder(store)
                .settings(SegmentSettings.builder().step(5).maxStep(200).build())
                .build();
        services.add(ids);
        return fleet.start(issuer, n -> {
            String tag = TAGS.get((int) (n % TAGS.size()));
            long id = ids.nextId(tag);
            issued.add(tag, id, id, issuer);
        });
    }

    @Test
    void aRollingReplacementOfLeafServersByIdgenInstancesAndBackIssuesNoIdTwice() throws Exception {
        Member leafA = leafServer("Leaf server A");
        Member leafB = leafServer("Leaf server B");
        MixedFleet.await(
                "both Leaf servers to load", () -> leafA.loads.get() >= 30 && leafB.loads.get() >= 30, leafA, leafB);

        Member idgenX = idgenInstance("idgen instance X");
        MixedFleet.await(
                "idgen X to issue beside both Leaf servers", () -> idgenX.loads.get() >= 3000, idgenX, leafA, leafB);
        leafA.stopAndJoin();

        Member idgenY = idgenInstance("idgen instance Y");
        long leafBLoads = leafB.loads.get();
        MixedFleet.await(
                "idgen Y to issue beside Leaf server B",
                () -> idgenY.loads.get() >= 3000 && leafB.loads.get() >= leafBLoads + 30,
                idgenX,
                idgenY,
                leafB);
        leafB.stopAndJoin();

        // A roll-back: a Leaf server starts again beside the idgen instances, from its own fresh buffers.
        Member leafC = leafServer("Leaf server C (rolled back)");
        long xLoads = idgenX.loads.get();
        long yLoads = idgenY.loads.get();
        MixedFleet.await(
                "all three to go on side by side",
                () -> leafC.loads.get() >= 30
                        && idgenX.loads.get() >= xLoads + 3000
                        && idgenY.loads.get() >= yLoads + 3000,
                idgenX,
                idgenY,
                leafC);
        for (Member member : List.of(leafC, idgenX, idgenY)) {
            member.stopAndJoin();
        }

        assertThat(customSteps.get())
                .as("Leaf's adaptive step (UPDATE ... max_id = max_id + ?) was replayed")
                .isPositive();
        assertThat(halvings.get()).as("and its step went down as well as up").isPositive();
        assertThat(issued.firstOverlap()).as("an ID issued twice").isNull();
    }
}
