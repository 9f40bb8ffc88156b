package dev.idgen.benchmarks;

import cn.hutool.core.lang.Snowflake;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * idgen's Snowflake beside its peers in one run, all with the 41/10/12 millisecond layout, whose limit is 4,096,000
 * IDs per second per worker. Each benchmark gets its own generator and worker id. Subclasses fix the thread count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class SnowflakeBenchmarks {

    private SnowflakeGenerator raw;
    private SnowflakeIdService idService;
    private SimpleMeterRegistry registry;
    private MillisecondSnowflakeId cosid;
    private Snowflake hutool;
    private AtomicLong atomicLong;

    @Setup
    public void setUp() {
        raw = SnowflakeGenerator.builder().workerId(1).build();
        idService =
                SnowflakeIdService.of(SnowflakeGenerator.builder().workerId(2).build());
        // Metrics on, as the starter wires them: Micrometer reads the counters lazily, on publish.
        registry = new SimpleMeterRegistry();
        new IdgenMeterBinder(idService).bindTo(registry);
        cosid = new MillisecondSnowflakeId(3);
        hutool = new Snowflake(4, 0);
        atomicLong = new AtomicLong();
    }

    @TearDown
    public void tearDown() {
        double counted = registry.get("idgen.ids.generated").functionCounter().count();
        if (idService.generatedCount() > 0 && counted <= 0) {
            throw new IllegalStateException("idgen.ids.generated did not count the IDs issued");
        }
        raw.close();
        idService.close();
        registry.close();
    }

    /** idgen's generator, called directly. */
    @Benchmark
    public long idgenRaw() {
        return raw.nextId();
    }

    /** idgen through {@code IdService}: name check, LongAdder count, meters bound to a registry. */
    @Benchmark
    public long idgenIdService() {
        return idService.nextId();
    }

    /** CosId 2.13.3 {@code MillisecondSnowflakeId}. */
    @Benchmark
    public long cosid() {
        return cosid.generate();
    }

    /** Hutool 5.8.44 {@code Snowflake}. */
    @Benchmark
    public long hutool() {
        return hutool.nextId();
    }

    /** The ceiling: one shared {@code AtomicLong}, no clock, no layout. */
    @Benchmark
    public long atomicLongBaseline() {
        return atomicLong.incrementAndGet();
    }
}
