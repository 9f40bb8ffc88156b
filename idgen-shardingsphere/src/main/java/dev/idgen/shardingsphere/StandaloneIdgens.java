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
 * exits; after that no new one is built, since nothing would close it and its lease would only lapse.
 *
 * <p>An idgen is built outside the map's lock (a holder per settings, built once under the holder's own lock), so the
 * lease or segment I/O of one configuration does not hold up another's in the same map bin.
 */
final class StandaloneIdgens {

    /** The JVM's idgens, closed by a shutdown hook. */
    private static final StandaloneIdgens JVM = new StandaloneIdgens();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(JVM::closeAll, "idgen-shardingsphere-close"));
    }

    private final Map<StandaloneSettings, Holder> idgens = new ConcurrentHashMap<>();

    /** Set before the idgens are closed; read by every holder before it builds. */
    private volatile boolean closed;

    /** Package-private so that a test can close a set of its own, not the JVM's. */
    StandaloneIdgens() {}

    /** @return the JVM's idgen for these settings, built on the first call */
    static IdService get(StandaloneSettings settings) {
        return JVM.idgen(settings);
    }

    /** @return how many standalone idgens the JVM holds (for tests of the sharing) */
    static int count() {
        return JVM.size();
    }

    /**
     * @return this set's idgen for these settings, built on the first call (outside the map's lock)
     * @throws IllegalStateException after {@link #closeAll()}
     */
    IdService idgen(StandaloneSettings settings) {
        checkOpen(settings);
        return idgens.computeIfAbsent(settings, Holder::new).get();
    }

    int size() {
        return idgens.size();
    }

    /** Closes every idgen (releasing its lease) and refuses to build new ones: the shutdown hook's work. */
    void closeAll() {
        closed = true;
        List<IdService> all = new ArrayList<>();
        for (Holder holder : idgens.values()) {
            // Waits for a build under way: the idgen it makes is closed here, not left holding a lease.
            IdService ids = holder.built();
            if (ids != null) {
                all.add(ids);
            }
        }
        idgens.clear();
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

    private void checkOpen(StandaloneSettings settings) {
        if (closed) {
            throw new IllegalStateException("The IDGEN key generator's own idgen (" + settings + ") is closed: the JVM"
                    + " is shutting down, and an idgen built now would lease a worker id that nobody would release");
        }
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

    /** One settings' idgen, built at most once under the holder's lock, never after its set is closed. */
    private final class Holder {

        private final StandaloneSettings settings;
        private IdService ids;

        Holder(StandaloneSettings settings) {
            this.settings = settings;
        }

        synchronized IdService get() {
            if (ids == null) {
                // Checked again under the holder's lock: closeAll either finds the idgen built here, or this sees
                // the closed flag it set before looking.
                checkOpen(settings);
                ids = build(settings);
            }
            return ids;
        }

        synchronized IdService built() {
            return ids;
        }
    }
}
