package dev.idgen.spring.boot.autoconfigure;

import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;

/**
 * Publishes idgen's counters as Micrometer meters, tagged with the strategy. The counters are {@code LongAdder}s that
 * the generators keep anyway; Micrometer reads them when it publishes, so metrics cost nothing per ID.
 *
 * <ul>
 * <li>{@code idgen.ids.generated}: IDs issued;</li>
 * <li>{@code idgen.clock.backwards}: times a caller found the clock behind the newest timestamp in use;</li>
 * <li>{@code idgen.sequence.overflow.waits}: times a caller waited because a tick's sequence was used up;</li>
 * <li>{@code idgen.layout.remaining}: time left before the Snowflake layout runs out.</li>
 * </ul>
 */
public final class IdgenMeterBinder implements MeterBinder {

    private final IdService idService;

    public IdgenMeterBinder(IdService idService) {
        this.idService = idService;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Tags tags = Tags.of("strategy", idService.strategy());
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
            TimeGauge.builder("idgen.layout.remaining", generator, TimeUnit.SECONDS,
                            g -> g.remainingLifetime().toSeconds())
                    .description("Time left before the Snowflake layout's timestamp bits run out")
                    .tags(tags).register(registry);
        }
    }
}
