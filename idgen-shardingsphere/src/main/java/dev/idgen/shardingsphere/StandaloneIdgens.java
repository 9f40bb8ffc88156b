package dev.idgen.shardingsphere;

import dev.idgen.core.IdService;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The standalone idgens of the JVM, one per distinct {@link StandaloneSettings}. ShardingSphere may build and init an
 * algorithm several times (each DataSource, each rule change); an idgen per instance would lease a worker id each
 * time and never give it back. Shared here, each is built on first use and closed (its lease released) when the JVM
 * exits.
 */
final class StandaloneIdgens {

    private static final Map<StandaloneSettings, IdService> IDGENS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(StandaloneIdgens::closeAll, "idgen-shardingsphere-close"));
    }

    private StandaloneIdgens() {}

    /** @return the JVM's idgen for these settings, built on the first call */
    static IdService get(StandaloneSettings settings) {
        return IDGENS.computeIfAbsent(settings, StandaloneIdgens::build);
    }

    /** @return how many standalone idgens the JVM holds (for tests of the sharing) */
    static int count() {
        return IDGENS.size();
    }

    private static IdService build(StandaloneSettings settings) {
        UrlDataSource dataSource = new UrlDataSource(settings.url(), settings.username(), settings.password());
        Duration timeout = Duration.ofSeconds(settings.timeoutSeconds());
        if (settings.strategy() == StandaloneSettings.Strategy.SEGMENT) {
            JdbcSegmentStore store = new JdbcSegmentStore(dataSource, settings.table(), 0, settings.schema(), timeout);
            return SegmentIdService.builder(store)
                    .settings(SegmentSettings.builder()
                            .step(settings.segmentStep())
                            .maxStep(Math.max(settings.segmentStep(), 1_000_000L))
                            .build())
                    .build();
        }
        JdbcWorkerIdLeaseStore store =
                new JdbcWorkerIdLeaseStore(dataSource, settings.table(), settings.schema(), timeout);
        LeasingWorkerIdAssigner assigner = LeasingWorkerIdAssigner.builder(store)
                .instanceId(settings.instanceId())
                .build();
        return SnowflakeIdService.of(SnowflakeGenerator.builder()
                .layout(SnowflakeLayout.standard())
                .workerIdAssigner(assigner)
                .build());
    }

    private static void closeAll() {
        List<IdService> all = new ArrayList<>(IDGENS.values());
        IDGENS.clear();
        for (IdService ids : all) {
            try {
                if (ids instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            } catch (Exception e) {
                // At exit: a lease not released lapses after its ttl.
                System.getLogger(StandaloneIdgens.class.getName())
                        .log(System.Logger.Level.WARNING, "Closing " + ids + " failed", e);
            }
        }
    }
}
