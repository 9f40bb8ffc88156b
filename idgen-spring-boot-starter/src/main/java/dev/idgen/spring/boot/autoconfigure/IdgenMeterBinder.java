package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes idgen's counters as Micrometer meters, tagged with the generator ({@code default} or a named one's
 * name) and its strategy. The counters are {@code LongAdder}s that
 * the generators keep anyway; Micrometer reads them when it publishes, so metrics cost nothing per ID.
 *
 * <ul>
 * <li>{@code idgen.ids.generated}: IDs issued;</li>
 * <li>{@code idgen.clock.backwards}: times a caller found the clock behind the newest timestamp in use;</li>
 * <li>{@code idgen.sequence.overflow.waits}: times a caller waited because a tick's sequence was used up;</li>
 * <li>{@code idgen.layout.remaining}: time left before the Snowflake layout runs out;</li>
 * <li>segments, tagged {@code name}: {@code idgen.segment.remaining} ({@code buffer} current or next),
 * {@code idgen.segment.step}, {@code idgen.segment.waits} and the timer {@code idgen.segment.fetches}
 * ({@code outcome} success or failure); for the first {@value #METERED_NAMES} names only, the waits and fetches of
 * the rest summed under the name {@value #OTHER_NAMES};</li>
 * <li>ticket servers, tagged {@code server}: {@code idgen.ticket.calls}, {@code idgen.ticket.errors} and
 * {@code idgen.ticket.circuit.open} (1 while the server is skipped).</li>
 * </ul>
 */
public final class IdgenMeterBinder implements MeterBinder {

    /** How many segment names get meters of their own. */
    static final int METERED_NAMES = 100;

    /** The {@code name} tag of the meters that sum every segment name past {@link #METERED_NAMES}. */
    static final String OTHER_NAMES = "(other)";

    private final IdService idService;

    public IdgenMeterBinder(IdService idService) {
        this.idService = idService;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        java.util.Map<String, IdService> generators = idService instanceof dev.idgen.core.RoutingIdService routing
                ? routing.generators()
                : java.util.Map.of(dev.idgen.core.RoutingIdService.DEFAULT_GENERATOR, idService);
        generators.forEach((generator, service) -> bind(registry, service,
                Tags.of("generator", generator, "strategy", service.strategy())));
    }

    private void bind(MeterRegistry registry, IdService idService, Tags tags) {
        if (idService instanceof SnowflakeIdService snowflake) {
            FunctionCounter.builder("idgen.ids.generated", snowflake, SnowflakeIdService::generatedCount)
                    .description("IDs issued").tags(tags).register(registry);
            SnowflakeGenerator generator = snowflake.generator();
            FunctionCounter.builder("idgen.clock.backwards", generator, SnowflakeGenerator::clockBackwardsEvents)
                    .description("Times a caller found the clock behind the newest timestamp in use")
                    .tags(tags).register(registry);
            FunctionCounter.builder("idgen.sequence.overflow.waits", generator,
                            SnowflakeGenerator::sequenceOverflowWaits)
                    .description("Times a caller waited for the next tick because the sequence was used up")
                    .tags(tags).register(registry);
            if (generator.lease() instanceof RenewingWorkerIdLease lease) {
                // Read through the generator: a lost lease is replaced by a fresh one with another worker id.
                TimeGauge.builder("idgen.lease.remaining", generator, TimeUnit.MILLISECONDS,
                        g -> g.lease() instanceof RenewingWorkerIdLease l ? Math.max(0, l.remaining().toMillis()) : 0)
                        .description("How long IDs may still be issued without another lease renewal")
                        .tags(tags).register(registry);
                Gauge.builder("idgen.lease.worker.id", generator, SnowflakeGenerator::workerId)
                        .description("The worker id IDs are issued under now").tags(tags).register(registry);
                FunctionCounter.builder("idgen.lease.renewals", lease, RenewingWorkerIdLease::renewals)
                        .description("Worker id lease renewals that succeeded").tags(tags).register(registry);
                FunctionCounter.builder("idgen.lease.renewal.failures", lease, RenewingWorkerIdLease::renewalFailures)
                        .description("Worker id lease renewals that failed or were refused").tags(tags).register(registry);
                FunctionCounter.builder("idgen.lease.reacquisitions", generator, SnowflakeGenerator::workerIdChanges)
                        .description("Lost worker id leases replaced by a freshly acquired worker id")
                        .tags(tags).register(registry);
            }
            TimeGauge.builder("idgen.layout.remaining", generator, TimeUnit.SECONDS,
                            g -> g.remainingLifetime().toSeconds())
                    .description("Time left before the Snowflake layout's timestamp bits run out")
                    .tags(tags).register(registry);
        }
        if (idService instanceof SegmentIdService segments) {
            FunctionCounter.builder("idgen.ids.generated", segments, SegmentIdService::generatedCount)
                    .description("IDs issued").tags(tags).register(registry);
            // Per-name meters for the first names only, so that a service with many names (up to idgen.max-names)
            // does not publish thousands of series; the rest are summed under the name OTHER_NAMES.
            java.util.Set<String> metered = java.util.concurrent.ConcurrentHashMap.newKeySet();
            segments.onNewName(name -> {
                synchronized (metered) {
                    if (metered.size() < METERED_NAMES) {
                        metered.add(name);
                        bindSegmentName(registry, segments, name, tags.and("name", name));
                    } else if (metered.add(OTHER_NAMES)) {
                        bindOtherNames(registry, segments, metered, tags.and("name", OTHER_NAMES));
                    }
                }
            });
        }
        TicketMeters.bind(registry, idService, tags);
    }

    private static void bindOtherNames(MeterRegistry registry, SegmentIdService segments,
            java.util.Set<String> metered, Tags tags) {
        java.util.function.Function<java.util.function.ToLongFunction<SegmentBufferStats>, ToDoubleFunction<SegmentIdService>>
                sum = field -> s -> s.stats().stream().filter(st -> !metered.contains(st.name())).mapToLong(field)
                        .sum();
        FunctionCounter.builder("idgen.segment.waits", segments, sum.apply(SegmentBufferStats::waits))
                .description("Callers that waited for a segment").tags(tags).register(registry);
        FunctionTimer.builder("idgen.segment.fetches", segments,
                        s -> (long) sum.apply(st -> st.fetches() - st.fetchFailures()).applyAsDouble(s),
                        sum.apply(st -> st.fetchNanos() - st.failedFetchNanos()), TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store").tags(tags).tag("outcome", "success").register(registry);
        FunctionTimer.builder("idgen.segment.fetches", segments,
                        s -> (long) sum.apply(SegmentBufferStats::fetchFailures).applyAsDouble(s),
                        sum.apply(SegmentBufferStats::failedFetchNanos), TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store").tags(tags).tag("outcome", "failure").register(registry);
    }

    private static void bindSegmentName(MeterRegistry registry, SegmentIdService segments, String name, Tags tags) {
        ToDoubleFunction<SegmentIdService> current = s -> s.stats(name).map(SegmentBufferStats::currentRemaining)
                .orElse(0L);
        ToDoubleFunction<SegmentIdService> next = s -> s.stats(name).map(SegmentBufferStats::nextRemaining).orElse(0L);
        Gauge.builder("idgen.segment.remaining", segments, current).description("IDs left in a buffer")
                .tags(tags).tag("buffer", "current").register(registry);
        Gauge.builder("idgen.segment.remaining", segments, next).description("IDs left in a buffer")
                .tags(tags).tag("buffer", "next").register(registry);
        Gauge.builder("idgen.segment.step", segments, s -> s.stats(name).map(SegmentBufferStats::step).orElse(0L))
                .description("The size of the latest segment fetch").tags(tags).register(registry);
        FunctionCounter.builder("idgen.segment.waits", segments,
                        s -> s.stats(name).map(SegmentBufferStats::waits).orElse(0L))
                .description("Callers that waited for a segment").tags(tags).register(registry);
        FunctionTimer.builder("idgen.segment.fetches", segments,
                        s -> s.stats(name).map(st -> st.fetches() - st.fetchFailures()).orElse(0L),
                        s -> s.stats(name).map(st -> st.fetchNanos() - st.failedFetchNanos()).orElse(0L),
                        TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store").tags(tags).tag("outcome", "success").register(registry);
        FunctionTimer.builder("idgen.segment.fetches", segments,
                        s -> s.stats(name).map(SegmentBufferStats::fetchFailures).orElse(0L),
                        s -> s.stats(name).map(SegmentBufferStats::failedFetchNanos).orElse(0L),
                        TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store").tags(tags).tag("outcome", "failure").register(registry);
    }
}
