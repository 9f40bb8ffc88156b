package dev.idgen.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Segments from a real MariaDB at default settings, one thread: throughput, and the per-call latency distribution
 * (JMH sample time) whose tail shows whether callers ever wait for the database. The waits, warm-up included (the
 * step ramps up from 1,000 there), are printed at the end; {@link PerformanceTable} counts them after warm-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class SegmentMariaDbBenchmark {

    private HikariDataSource pool;
    private SegmentIdService ids;
    private AtomicLong atomicLong;

    @Setup
    public void setUp() {
        pool = MariaDb.pool(2);
        JdbcSegmentStore store = new JdbcSegmentStore(
                pool, "idgen_bench_segment", 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        ids = SegmentIdService.builder(store).build();
        atomicLong = new AtomicLong();
    }

    @TearDown
    public void tearDown() {
        long waits = ids.stats("bench").map(stats -> stats.waits()).orElse(0L);
        System.err.println("Callers waited for the database " + waits + " times, warm-up included");
        ids.close();
        pool.close();
    }

    @Benchmark
    public long segmentFromMariaDb() {
        return ids.nextId("bench");
    }

    /** The machine's floor in the same run: a bare AtomicLong, whose tail is scheduling and timer noise only. */
    @Benchmark
    public long atomicLongBaseline() {
        return atomicLong.incrementAndGet();
    }
}
