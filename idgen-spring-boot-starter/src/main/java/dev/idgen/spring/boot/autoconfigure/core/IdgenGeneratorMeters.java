package dev.idgen.spring.boot.autoconfigure.core;

import dev.idgen.core.IdService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * One backend's meters for a generator. Each backend has one; the meter binder ({@code IdgenMeterBinder}, which sits above this package) asks the one of each
 * generator's strategy. Meters read counters the generators keep anyway, when Micrometer publishes.
 */
public interface IdgenGeneratorMeters {

    /**
     * @return the strategy whose generators this reads, for example {@code segment}
     */
    String strategy();

    /**
     * @param registry where the meters go
     * @param service the generator
     * @param tags {@code generator} and {@code strategy}, for every meter
     */
    void bind(MeterRegistry registry, IdService service, Tags tags);
}
