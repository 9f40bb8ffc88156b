package dev.idgen.spring.boot.autoconfigure.metrics;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenStrategies;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import dev.idgen.spring.boot.autoconfigure.core.IdgenProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;

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
 * <li>leases: {@code idgen.lease.remaining}, {@code idgen.lease.worker.id}, {@code idgen.lease.renewals},
 * {@code idgen.lease.renewal.failures}, {@code idgen.lease.reacquisitions};</li>
 * <li>ticket servers, tagged {@code server}: {@code idgen.ticket.calls} (round trips: concurrent calls for one name
 * share one), {@code idgen.ticket.ids} (IDs handed out), {@code idgen.ticket.errors} (failed round trips) and
 * {@code idgen.ticket.circuit.open} (1 while the server is skipped).</li>
 * </ul>
 */
public final class IdgenMeterBinder implements MeterBinder {

    private final IdService idService;

    private final List<IdgenGeneratorMeters> meters;

    /**
     * With every backend's meters, for a service built by hand.
     *
     * @param idService the service: one generator, or a {@link RoutingIdService}
     */
    public IdgenMeterBinder(IdService idService) {
        this(idService, strategyMeters());
    }

    /**
     * @param idService the service: one generator, or a {@link RoutingIdService}
     * @param meters each backend's meters
     */
    public IdgenMeterBinder(IdService idService, List<IdgenGeneratorMeters> meters) {
        this.idService = idService;
        this.meters = List.copyOf(meters);
    }

    private static List<IdgenGeneratorMeters> strategyMeters() {
        List<IdgenGeneratorMeters> meters = new ArrayList<>();
        for (IdgenProperties.Strategy strategy : IdgenProperties.Strategy.values()) {
            IdgenGeneratorMeters strategyMeters = IdgenStrategies.of(strategy).meters();
            if (strategyMeters != null) {
                meters.add(strategyMeters);
            }
        }
        return meters;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        RoutingIdService.generatorsOf(idService).forEach((generator, service) -> {
            IdService innermost = ForwardingIdService.innermost(service);
            Tags tags = Tags.of("generator", generator, "strategy", innermost.strategy());
            for (IdgenGeneratorMeters backend : meters) {
                if (backend.strategy().equals(innermost.strategy())) {
                    backend.bind(registry, innermost, tags);
                }
            }
        });
    }
}
