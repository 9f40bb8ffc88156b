package dev.idgen.core.snowflake;

import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link IdService} over one {@link SnowflakeGenerator}. Snowflake IDs are unique across names, so every name draws
 * from the same generator; the name is checked but does not change the IDs.
 *
 * <pre>{@code
 * try (SnowflakeIdService ids = SnowflakeIdService.of(SnowflakeGenerator.builder().workerId(7).build())) {
 *     long id = ids.nextId("orders");
 * }
 * }</pre>
 */
public final class SnowflakeIdService implements IdService, AutoCloseable {

    private final SnowflakeGenerator generator;

    private final LongAdder generated = new LongAdder();

    private SnowflakeIdService(SnowflakeGenerator generator) {
        this.generator = generator;
    }

    /**
     * @param generator the generator to serve from; closing the service closes it
     * @return the service
     */
    public static SnowflakeIdService of(SnowflakeGenerator generator) {
        if (generator == null) {
            throw new IllegalArgumentException("generator must not be null");
        }
        return new SnowflakeIdService(generator);
    }

    @Override
    public String strategy() {
        return SnowflakeDecodedId.STRATEGY;
    }

    @Override
    public long nextId(String name) {
        IdArguments.checkName(name);
        long id = generator.nextId();
        generated.increment();
        return id;
    }

    @Override
    public long[] nextIds(String name, int count) {
        IdArguments.checkName(name);
        IdArguments.checkCount(count);
        long[] ids = new long[count];
        int issued = 0;
        try {
            for (; issued < count; issued++) {
                ids[issued] = generator.nextId();
            }
        } finally {
            // IDs issued before a failure are gaps, but they were issued: count them.
            generated.add(issued);
        }
        return ids;
    }

    @Override
    public SnowflakeDecodedId decode(long id) {
        return generator.decode(id);
    }

    /**
     * @return the generator behind this service
     */
    public SnowflakeGenerator generator() {
        return generator;
    }

    /**
     * @return how many IDs this service has issued
     */
    public long generatedCount() {
        return generated.sum();
    }

    @Override
    public void close() {
        generator.close();
    }

    @Override
    public String toString() {
        return "SnowflakeIdService[" + generator + "]";
    }
}
