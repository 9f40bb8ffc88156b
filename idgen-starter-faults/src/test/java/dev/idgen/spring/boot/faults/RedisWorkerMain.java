package dev.idgen.spring.boot.faults;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.spi.WorkerIdAssigner;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.redis.DualSegmentStore;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.redis.RedisWorkerIdLeaseStore;
import dev.idgen.redis.SpringLettuceConnectionSource;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A separate JVM for the Redis fault tests: draws IDs and writes each one to standard output (flushed at once), and
 * rides out failures (an unavailable store, a lost lease) by retrying. Its first line is {@code W <workerId>} in lease
 * mode. It stops when its standard input ends (the test closes it) or after {@code durationMillis}, whichever comes
 * first, so a test waits on what the workers did rather than on how long they run.
 *
 * <p>Arguments: {@code incr|dual redisPort jdbcUrl jdbcUser jdbcPassword table prefix durationMillis} or
 * {@code lease redisPort prefix workerBits durationMillis [maxWorkerId]}. The database's credentials come from the
 * test, which has them from {@link TestServices}, so a database with a password fails here with its authentication
 * error. {@code maxWorkerId}, when given, caps the worker ids the lease store may offer below what the layout holds,
 * for a worker-id space that is not a power of two.
 */
public final class RedisWorkerMain {

    private RedisWorkerMain() {}

    public static void main(String[] args) throws Exception {
        java.io.OutputStream ids = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        System.setOut(System.err);
        String mode = args[0];
        LettuceConnectionFactory factory = OwnRedis.connectionFactory("127.0.0.1", Integer.parseInt(args[1]));
        RedisScriptExecutor redis = new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofMillis(300), new RedisRoundTrips());
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(ids, StandardCharsets.US_ASCII), 1 << 12);
        IdService service;
        long duration;
        if (mode.equals("lease")) {
            LeasingWorkerIdAssigner assigner = LeasingWorkerIdAssigner.builder(
                            new RedisWorkerIdLeaseStore(redis, args[2]))
                    .ttl(Duration.ofSeconds(2))
                    .renewInterval(Duration.ofMillis(300))
                    .safetyMargin(Duration.ofMillis(300))
                    .reuseDelay(Duration.ofSeconds(1))
                    .build();
            long maxWorkerIdCap = args.length > 5 ? Long.parseLong(args[5]) : Long.MAX_VALUE;
            WorkerIdAssigner capped = maxWorkerId -> assigner.acquire(Math.min(maxWorkerId, maxWorkerIdCap));
            SnowflakeGenerator generator = SnowflakeGenerator.builder()
                    .layout(SnowflakeLayout.standard().toBuilder()
                            .workerBits(Integer.parseInt(args[3]))
                            .build())
                    .workerIdAssigner(capped)
                    .build();
            out.write("W " + generator.workerId() + "\n");
            out.flush();
            service = SnowflakeIdService.of(generator);
            duration = Long.parseLong(args[4]);
        } else {
            HikariDataSource pool = new TestServices.JdbcEndpoint(args[2], args[3], args[4]).pool(4);
            // Logged in once now: a database this worker cannot log in to (a wrong password) is a mistake in the
            // test's setup, to end on at once with its authentication error, not a fault to retry until a deadline.
            pool.getConnection().close();
            JdbcSegmentStore database =
                    new JdbcSegmentStore(pool, args[5], 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
            RedisWindowedCounter counter = new RedisWindowedCounter(redis, database, args[6], 1000);
            service = mode.equals("incr")
                    ? new RedisIdService(counter)
                    : SegmentIdService.builder(new DualSegmentStore(new RedisSegmentStore(counter), database))
                            .settings(SegmentSettings.builder()
                                    .step(50)
                                    .minStep(50)
                                    .maxStep(50)
                                    .bufferDuration(Duration.ofSeconds(1))
                                    .awaitTimeout(Duration.ofSeconds(2))
                                    .build())
                            .build();
            duration = Long.parseLong(args[7]);
        }
        java.util.concurrent.atomic.AtomicLong deadline = deadline(duration);
        long failures = 0;
        while (System.nanoTime() - deadline.get() < 0) {
            try {
                out.write(Long.toString(service.nextId("orders")));
                out.write('\n');
                out.flush();
            } catch (IdGenerationException e) {
                if (failures++ % 50 == 0) {
                    System.err.println("worker: " + e.getMessage());
                }
                Thread.sleep(10);
            }
        }
        out.flush();
        System.exit(0);
    }

    /**
     * @return the time (nanoTime) to stop at: {@code durationMillis} from now, or when standard input ends (the test
     *         closes it), whichever comes first
     */
    static java.util.concurrent.atomic.AtomicLong deadline(long durationMillis) {
        java.util.concurrent.atomic.AtomicLong deadline =
                new java.util.concurrent.atomic.AtomicLong(System.nanoTime() + durationMillis * 1_000_000L);
        Thread stopper = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing to read but the end
                }
            } catch (java.io.IOException e) {
                // treated as the end
            }
            deadline.set(System.nanoTime());
        });
        stopper.setDaemon(true);
        stopper.start();
        return deadline;
    }
}
