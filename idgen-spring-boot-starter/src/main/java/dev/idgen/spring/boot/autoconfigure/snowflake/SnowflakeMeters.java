package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.IdService;
import dev.idgen.core.lease.RenewingWorkerIdLease;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGeneratorMeters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import java.util.concurrent.TimeUnit;

/**
 * Snowflake meters: {@code idgen.ids.generated}, {@code idgen.clock.backwards}, {@code idgen.sequence.overflow.waits},
 * {@code idgen.layout.remaining} and, with a leased worker id, {@code idgen.lease.*}.
 */
public final class SnowflakeMeters implements IdgenGeneratorMeters {

    @Override
    public String strategy() {
        return SnowflakeDecodedId.STRATEGY;
    }

    @Override
    public void bind(MeterRegistry registry, IdService idService, Tags tags) {
        if (!(idService instanceof SnowflakeIdService snowflake)) {
            return;
        }
        FunctionCounter.builder("idgen.ids.generated", snowflake, SnowflakeIdService::generatedCount)
                .description("IDs issued")
                .tags(tags)
                .register(registry);
        SnowflakeGenerator generator = snowflake.generator();
        FunctionCounter.builder("idgen.clock.backwards", generator, SnowflakeGenerator::clockBackwardsEvents)
                .description("Times a caller found the clock behind the newest timestamp in use")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder("idgen.sequence.overflow.waits", generator, SnowflakeGenerator::sequenceOverflowWaits)
                .description("Times a caller waited for the next tick because the sequence was used up")
                .tags(tags)
                .register(registry);
        if (generator.lease() instanceof RenewingWorkerIdLease lease) {
            // Read through the generator: a lost lease is replaced by a fresh one with another worker id.
            TimeGauge.builder(
                            "idgen.lease.remaining",
                            generator,
                            TimeUnit.MILLISECONDS,
                            g -> g.lease() instanceof RenewingWorkerIdLease l
                                    ? Math.max(0, l.remaining().toMillis())
                                    : 0)
                    .description("How long IDs may still be issued without another lease renewal")
                    .tags(tags)
                    .register(registry);
            Gauge.builder("idgen.lease.worker.id", generator, SnowflakeGenerator::workerId)
                    .description("The worker id IDs are issued under now")
                    .tags(tags)
                    .register(registry);
            FunctionCounter.builder("idgen.lease.renewals", lease, RenewingWorkerIdLease::renewals)
                    .description("Worker id lease renewals that succeeded")
                    .tags(tags)
                    .register(registry);
            FunctionCounter.builder("idgen.lease.renewal.failures", lease, RenewingWorkerIdLease::renewalFailures)
                    .description("Worker id lease renewals that failed or were refused")
                    .tags(tags)
                    .register(registry);
            FunctionCounter.builder("idgen.lease.reacquisitions", generator, SnowflakeGenerator::workerIdChanges)
                    .description("Lost worker id leases replaced by a freshly acquired worker id")
                    .tags(tags)
                    .register(registry);
        }
        TimeGauge.builder(
                        "idgen.layout.remaining",
                        generator,
                        TimeUnit.SECONDS,
                        g -> g.remainingLifetime().toSeconds())
                .description("Time left before the Snowflake layout's timestamp bits run out")
                .tags(tags)
                .register(registry);
    }
}
