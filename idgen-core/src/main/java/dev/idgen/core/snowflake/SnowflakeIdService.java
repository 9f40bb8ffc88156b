package dev.idgen.core.snowflake;

import dev.idgen.core.AsyncCalls;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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

    /**
     * {@inheritDoc}
     *
     * <p>Completes at once on the calling thread, unless the generator would have to wait (the tick's sequence is used
     * up, or the clock is being waited out): only then does the call run on {@code blocking}.
     */
    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        IdArguments.checkName(name);
        Objects.requireNonNull(blocking, "blocking");
        long id;
        try {
            id = generator.tryNextId();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (id == SnowflakeGenerator.WOULD_WAIT) {
            return AsyncCalls.offload(() -> nextId(name), blocking, strategy());
        }
        generated.increment();
        return CompletableFuture.completedFuture(id);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Issues on the calling thread as many IDs as the generator has without waiting (a batch of up to
     * {@link #MAX_BATCH_SIZE} may need more than one tick's sequence); the rest, if any, on {@code blocking}, after
     * them in order.
     */
    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        IdArguments.checkName(name);
        IdArguments.checkCount(count);
        Objects.requireNonNull(blocking, "blocking");
        long[] ids = new long[count];
        int issued = 0;
        try {
            for (; issued < count; issued++) {
                long id = generator.tryNextId();
                if (id == SnowflakeGenerator.WOULD_WAIT) {
                    break;
                }
                ids[issued] = id;
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            generated.add(issued);
        }
        if (issued == count) {
            return CompletableFuture.completedFuture(ids);
        }
        int from = issued;
        return AsyncCalls.offload(() -> fill(ids, from), blocking, strategy());
    }

    private long[] fill(long[] ids, int from) {
        int issued = from;
        try {
            for (; issued < ids.length; issued++) {
                ids[issued] = generator.nextId();
            }
        } finally {
            generated.add(issued - from);
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
