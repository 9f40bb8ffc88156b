package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.jdbc.MixedFleet.Member;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rolling replacement of Tinyid servers by idgen instances on Tinyid's {@code tiny_id_info}, spread over two MariaDB
 * databases (delta 2, remainders 0 and 1): Tinyid servers replayed statement for statement
 * ({@link TinyidSegmentReplay}, version check and random database included) and idgen instances with a
 * {@link TinyidSegmentStore}, each with pools of its own, side by side, then a Tinyid server coming back. No ID is
 * ever issued twice.
 */
class TinyidMixedFleetMariaDbTest {

    private static final List<String> TYPES = List.of("test", "orders");

    private TinyidDatabases databases;
    private final MixedFleet fleet = new MixedFleet();
    private final List<AutoCloseable> services = new ArrayList<>();
    private final IssuedRanges issued = new IssuedRanges();
    private final AtomicLong conflicts = new AtomicLong();

    @BeforeEach
    void createTinyidsTables() throws Exception {
        databases = new TinyidDatabases(2, true);
        for (int i = 0; i < 2; i++) {
            databases.execute(
                    i,
                    "INSERT INTO " + databases.table + " (biz_type, begin_id, max_id, step, delta, remainder,"
                            + " create_time, update_time, version) VALUES ('test', 1, 1, 9, 2, " + i + ","
                            + " '2018-07-21 23:52:58', '2018-07-22 23:19:27', 1)");
            databases.execute(
                    i,
                    "INSERT INTO " + databases.table + " (biz_type, begin_id, max_id, step, delta, remainder,"
                            + " create_time, update_time, version) VALUES ('orders', 1000, 1000, 4, 2, " + i + ","
                            + " '2018-07-21 23:52:58', '2018-07-22 23:19:27', 1)");
        }
    }

    @AfterEach
    void dropTables() throws Exception {
        fleet.close();
        for (AutoCloseable service : services) {
            service.close();
        }
        databases.close();
    }

    private Member tinyidServer(String issuer) {
        TinyidSegmentReplay tinyid = new TinyidSegmentReplay(databases.pools(2), databases.table);
        return fleet.start(issuer, n -> {
            String type = TYPES.get((int) (n % TYPES.size()));
            TinyidSegmentReplay.Taken taken = tinyid.nextSegment(type);
            if (taken == null) {
                conflicts.incrementAndGet();
                return;
            }
            issued.addResidues(type, taken.currentId() + 1, taken.maxId(), taken.delta(), taken.remainder(), issuer);
        });
    }

    private Member idgenInstance(String issuer) {
        TinyidSegmentStore store = new TinyidSegmentStore(
                databases.pools(2), databases.table, 0, SchemaInitialization.NEVER, Duration.ofSeconds(5));
        SegmentIdService ids = SegmentIdService.builder(store)
                .settings(SegmentSettings.builder().step(5).maxStep(200).build())
                .build();
        services.add(ids);
        return fleet.start(issuer, n -> {
            String type = TYPES.get((int) (n % TYPES.size()));
            long id = ids.nextId(type);
            issued.add(type, id, id, issuer);
        });
    }

    @Test
    void aRollingReplacementOfTinyidServersByIdgenInstancesAndBackIssuesNoIdTwice() throws Exception {
        Member tinyidA = tinyidServer("Tinyid server A");
        Member tinyidB = tinyidServer("Tinyid server B");
        MixedFleet.await(
                "both Tinyid servers to take segments",
                () -> tinyidA.loads.get() >= 30 && tinyidB.loads.get() >= 30,
                tinyidA,
                tinyidB);

        Member idgenX = idgenInstance("idgen instance X");
        MixedFleet.await(
                "idgen X to issue beside both Tinyid servers",
                () -> idgenX.loads.get() >= 3000,
                idgenX,
                tinyidA,
                tinyidB);
        tinyidA.stopAndJoin();

        Member idgenY = idgenInstance("idgen instance Y");
        long bLoads = tinyidB.loads.get();
        MixedFleet.await(
                "idgen Y to issue beside Tinyid server B",
                () -> idgenY.loads.get() >= 3000 && tinyidB.loads.get() >= bLoads + 30,
                idgenX,
                idgenY,
                tinyidB);
        tinyidB.stopAndJoin();

        Member tinyidC = tinyidServer("Tinyid server C (rolled back)");
        long xLoads = idgenX.loads.get();
        long yLoads = idgenY.loads.get();
        MixedFleet.await(
                "all three to go on side by side",
                () -> tinyidC.loads.get() >= 30
                        && idgenX.loads.get() >= xLoads + 3000
                        && idgenY.loads.get() >= yLoads + 3000,
                idgenX,
                idgenY,
                tinyidC);
        for (Member member : List.of(tinyidC, idgenX, idgenY)) {
            member.stopAndJoin();
        }

        assertThat(issued.firstOverlap()).as("an ID issued twice").isNull();
    }
}
