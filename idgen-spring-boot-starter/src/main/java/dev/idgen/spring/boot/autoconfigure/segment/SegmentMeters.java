package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.jdbc.JdbcFailovers;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Segment meters, tagged {@code name}: {@code idgen.segment.remaining} ({@code buffer} current or next),
 * {@code idgen.segment.step}, {@code idgen.segment.waits} and the timer {@code idgen.segment.fetches} ({@code outcome}
 * success or failure); for the first {@value #METERED_NAMES} names only, the waits and fetches of the rest summed
 * under the name {@value #OTHER_NAMES}. And {@code idgen.ids.generated}.
 */
public final class SegmentMeters implements IdgenGeneratorMeters {

    /** How many segment names get meters of their own. */
    static final int METERED_NAMES = 100;

    /** The {@code name} tag of the meters that sum every segment name past {@link #METERED_NAMES}. */
    static final String OTHER_NAMES = "(other)";

    @Override
    public String strategy() {
        return SegmentIdService.STRATEGY;
    }

    @Override
    public void bind(MeterRegistry registry, IdService idService, Tags tags) {
        if (!(idService instanceof SegmentIdService segments)) {
            return;
        }
        FunctionCounter.builder("idgen.ids.generated", segments, SegmentIdService::generatedCount)
                .description("IDs issued")
                .tags(tags)
                .register(registry);
        if (segments.store() instanceof JdbcSegmentStore jdbc) {
            FunctionCounter.builder("idgen.jdbc.failovers", jdbc.failovers(), JdbcFailovers::count)
                    .description("Rows moved past a failover to a promoted replica")
                    .tags(tags)
                    .register(registry);
        }
        // Per-name meters for the first names only, so that a service with many names (up to idgen.max-names)
        // does not publish thousands of series; the rest are summed under the name OTHER_NAMES.
        Set<String> metered = ConcurrentHashMap.newKeySet();
        // A name's own meters, so that a name forgotten (a passed period of a periodic generator) takes them along
        // and frees its place for a new name.
        Map<String, List<Meter>> meters = new HashMap<>();
        segments.onNewName(name -> {
            synchronized (metered) {
                if (segments.stats(name).isEmpty()) {
                    return; // forgotten already
                }
                if (metered.size() - (metered.contains(OTHER_NAMES) ? 1 : 0) < METERED_NAMES) {
                    if (metered.add(name)) {
                        meters.put(name, bindSegmentName(registry, segments, name, tags.and("name", name)));
                    }
                } else if (metered.add(OTHER_NAMES)) {
                    bindOtherNames(registry, segments, metered, tags.and("name", OTHER_NAMES));
                }
            }
        });
        segments.onForgottenName(name -> {
            synchronized (metered) {
                List<Meter> own = meters.remove(name);
                if (own != null) {
                    own.forEach(registry::remove);
                    metered.remove(name);
                }
            }
        });
    }

    private static void bindOtherNames(
            MeterRegistry registry, SegmentIdService segments, Set<String> metered, Tags tags) {
        Function<ToLongFunction<SegmentBufferStats>, ToDoubleFunction<SegmentIdService>> sum =
                field -> s -> s.stats().stream()
                        .filter(st -> !metered.contains(st.name()))
                        .mapToLong(field)
                        .sum();
        FunctionCounter.builder("idgen.segment.waits", segments, sum.apply(SegmentBufferStats::waits))
                .description("Callers that waited for a segment")
                .tags(tags)
                .register(registry);
        FunctionTimer.builder(
                        "idgen.segment.fetches",
                        segments,
                        s -> (long) sum.apply(st -> st.fetches() - st.fetchFailures())
                                .applyAsDouble(s),
                        sum.apply(st -> st.fetchNanos() - st.failedFetchNanos()),
                        TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store")
                .tags(tags)
                .tag("outcome", "success")
                .register(registry);
        FunctionTimer.builder(
                        "idgen.segment.fetches",
                        segments,
                        s -> (long) sum.apply(SegmentBufferStats::fetchFailures).applyAsDouble(s),
                        sum.apply(SegmentBufferStats::failedFetchNanos),
                        TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store")
                .tags(tags)
                .tag("outcome", "failure")
                .register(registry);
    }

    private static List<Meter> bindSegmentName(
            MeterRegistry registry, SegmentIdService segments, String name, Tags tags) {
        ToDoubleFunction<SegmentIdService> current =
                s -> s.stats(name).map(SegmentBufferStats::currentRemaining).orElse(0L);
        ToDoubleFunction<SegmentIdService> next =
                s -> s.stats(name).map(SegmentBufferStats::nextRemaining).orElse(0L);
        List<Meter> own = new ArrayList<>();
        own.add(Gauge.builder("idgen.segment.remaining", segments, current)
                .description("IDs left in a buffer")
                .tags(tags)
                .tag("buffer", "current")
                .register(registry));
        own.add(Gauge.builder("idgen.segment.remaining", segments, next)
                .description("IDs left in a buffer")
                .tags(tags)
                .tag("buffer", "next")
                .register(registry));
        own.add(Gauge.builder(
                        "idgen.segment.step",
                        segments,
                        s -> s.stats(name).map(SegmentBufferStats::step).orElse(0L))
                .description("The size of the latest segment fetch")
                .tags(tags)
                .register(registry));
        own.add(FunctionCounter.builder(
                        "idgen.segment.waits",
                        segments,
                        s -> s.stats(name).map(SegmentBufferStats::waits).orElse(0L))
                .description("Callers that waited for a segment")
                .tags(tags)
                .register(registry));
        own.add(FunctionTimer.builder(
                        "idgen.segment.fetches",
                        segments,
                        s -> s.stats(name)
                                .map(st -> st.fetches() - st.fetchFailures())
                                .orElse(0L),
                        s -> s.stats(name)
                                .map(st -> st.fetchNanos() - st.failedFetchNanos())
                                .orElse(0L),
                        TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store")
                .tags(tags)
                .tag("outcome", "success")
                .register(registry));
        own.add(FunctionTimer.builder(
                        "idgen.segment.fetches",
                        segments,
                        s -> s.stats(name)
                                .map(SegmentBufferStats::fetchFailures)
                                .orElse(0L),
                        s -> s.stats(name)
                                .map(SegmentBufferStats::failedFetchNanos)
                                .orElse(0L),
                        TimeUnit.NANOSECONDS)
                .description("Segment fetches from the store")
                .tags(tags)
                .tag("outcome", "failure")
                .register(registry));
        return own;
    }
}
