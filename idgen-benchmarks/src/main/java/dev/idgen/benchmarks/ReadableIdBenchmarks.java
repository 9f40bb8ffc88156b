package dev.idgen.benchmarks;

import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.SpringLettuceConnectionSource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
 * Readable IDs ({@link BucketedRedisSequence#nextReadableId}, 256 buckets, one script round trip shared by the
 * concurrent callers of a business code) beside raw
 * Lettuce {@code INCR} on the same Redis, both over one shared connection. Subclasses fix the thread count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public abstract class ReadableIdBenchmarks {

    private Redis redis;
    private BucketedRedisSequence readable;
    private Redis.Raw raw;
    private String rawKey;

    @Setup
    public void setUp() {
        redis = Redis.counter("readable", 100_000);
        readable = new BucketedRedisSequence(
                new RedisScriptExecutor(
                        new SpringLettuceConnectionSource(redis.connectionFactory()),
                        Duration.ofSeconds(2),
                        new RedisRoundTrips()),
                redis.prefix());
        readable.nextReadableId("ORD");
        raw = Redis.raw();
        rawKey = redis.prefix() + "raw";
        raw.strings().incr(rawKey);
    }

    @TearDown
    public void tearDown() {
        for (int i = 0; i < readable.bucketCount(); i++) {
            raw.keys().del(redis.prefix() + "bucket:{" + i + "}");
        }
        raw.keys().del(rawKey);
        raw.close();
        redis.close();
    }

    /** A readable ID: time, business code, bucket and sequence, formatted. */
    @Benchmark
    public String readableId() {
        return readable.nextReadableId("ORD");
    }

    /** Lettuce's own {@code INCR}, sync API, one shared connection. */
    @Benchmark
    public long rawLettuce() {
        return raw.strings().incr(rawKey);
    }
}
