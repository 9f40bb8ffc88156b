package dev.idgen.benchmarks;

import dev.idgen.core.IdSequence;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
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
 * Segments served from memory, beside CosId's {@code SegmentChainId}, over stores with the same simulated IO: CosId's
 * {@code IdSegmentDistributor.Mock} (step 10, about 4.5 us per fetch) and idgen's in-memory store with that latency,
 * idgen at its default settings. Kept for what plain JMH measures well here: allocation per ID ({@code -prof gc}) and
 * latency; the throughput comparison of docs/benchmarks.md comes from {@link PerformanceTable}. Subclasses fix the thread
 * count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class SegmentBenchmarks {

    /** CosId's mock: 1 s / 220,000 of simulated IO per fetch. */
    private static final Duration MOCK_IO = Duration.ofNanos(TimeUnit.SECONDS.toNanos(1) / 220_000);

    private SegmentIdService idService;
    private SegmentIdService stripedService;
    private IdSequence sequence;
    private SegmentChainId cosid;
    private AtomicLong atomicLong;

    @Setup
    public void setUp() {
        // idgen at its defaults (step 1,000 growing to 1,000,000); only the striped service names a setting.
        SegmentSettings settings = SegmentSettings.DEFAULTS;
        idService = SegmentIdService.builder(new InMemorySegmentStore(0, MOCK_IO))
                .settings(settings)
                .build();
        sequence = SegmentIdService.builder(new InMemorySegmentStore(0, MOCK_IO))
                .settings(settings)
                .build()
                .sequence("orders");
        stripedService = SegmentIdService.builder(new InMemorySegmentStore(0, MOCK_IO))
                .settings(SegmentSettings.builder().stripeSize(256).build())
                .build();
        cosid = new SegmentChainId(new IdSegmentDistributor.Mock());
        atomicLong = new AtomicLong();
    }

    @TearDown
    public void tearDown() {
        idService.close();
        stripedService.close();
    }

    /** idgen through {@code IdService.nextId(name)}: name lookup, then the segment's cursor. */
    @Benchmark
    public long idgenIdService() {
        return idService.nextId("orders");
    }

    /** idgen through a sequence handle bound once: the segment's cursor only. */
    @Benchmark
    public long idgenSequence() {
        return sequence.nextId();
    }

    /** idgen striped: each thread serves runs of 256 IDs it claimed; IDs increase per thread only. */
    @Benchmark
    public long idgenStriped() {
        return stripedService.nextId("orders");
    }

    /** CosId 2.13.3 {@code SegmentChainId} over {@code IdSegmentDistributor.Mock}. */
    @Benchmark
    public long cosidSegmentChain() {
        return cosid.generate();
    }

    /** The ceiling: one shared {@code AtomicLong}. */
    @Benchmark
    public long atomicLongBaseline() {
        return atomicLong.incrementAndGet();
    }
}
