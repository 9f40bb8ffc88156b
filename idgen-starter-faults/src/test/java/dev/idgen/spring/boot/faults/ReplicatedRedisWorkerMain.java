package dev.idgen.spring.boot.faults;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.core.TimeSource;
import dev.idgen.core.lease.LeasingWorkerIdAssigner;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.redis.RedisWorkerIdLeaseStore;
import dev.idgen.redis.SpringLettuceConnectionSource;
import dev.idgen.test.services.TestServices;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A separate JVM for the Sentinel and Cluster failover tests: every Redis feature of idgen at once, each on a thread
 * of its own, on one Lettuce connection factory as an application has it. Each ID is written to standard output as
 * one line, {@code <kind> <id>}: {@code I} the redis strategy, {@code G} segments from the Redis segment store,
 * {@code R} readable IDs from the buckets, {@code S} Snowflake with a worker id leased from Redis. Failures are ridden
 * out by retrying. Each thread draws at most one ID per {@value #PAUSE_MICROS} us, so the output stays countable. It
 * stops when its standard input ends or after {@code durationMillis}; its last lines then say how many IDs of each
 * kind it wrote, {@code N <kind> <count>}, so that the test can tell it read them all.
 *
 * <p>Arguments: {@code sentinel <master>@<port>,<port>,... | cluster <port>,<port>,...}, then {@code jdbcUrl jdbcUser
 * jdbcPassword table prefix durationMillis} (the credentials from the test's {@link TestServices}).
 */
public final class ReplicatedRedisWorkerMain {

    private static final long PAUSE_MICROS = 500;

    private ReplicatedRedisWorkerMain() {}

    public static void main(String[] args) throws Exception {
        java.io.OutputStream out = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        System.setOut(System.err);
        LettuceConnectionFactory factory = factory(args[0], args[1]);
        RedisScriptExecutor redis = new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofMillis(500), new RedisRoundTrips());
        if (!redis.awaitReady(Duration.ofSeconds(60))) {
            // Not fatal (calls fail until Redis is up, and are retried), but the test's output should say why IDs
            // were slow to come.
            System.err.println("worker: Redis did not answer within 60 s of starting; drawing anyway");
        }
        HikariDataSource pool = new TestServices.JdbcEndpoint(args[2], args[3], args[4]).pool(4);
        // Logged in once now: a database this worker cannot log in to (a wrong password) is a mistake in the
        // test's setup, to end on at once with its authentication error, not a fault to retry until a deadline.
        pool.getConnection().close();
        JdbcSegmentStore database =
                new JdbcSegmentStore(pool, args[5], 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        String prefix = args[6];
        long duration = Long.parseLong(args[7]);
        RedisWindowedCounter counter = new RedisWindowedCounter(redis, database, prefix, 1000);
        IdService incr = new RedisIdService(counter);
        IdService segments = SegmentIdService.builder(new RedisSegmentStore(counter))
                .settings(SegmentSettings.builder()
                        .step(50)
                        .minStep(50)
                        .maxStep(50)
                        .bufferDuration(Duration.ofSeconds(1))
                        .awaitTimeout(Duration.ofSeconds(2))
                        .build())
                .build();
        BucketedRedisSequence readable = new BucketedRedisSequence(
                redis, prefix, 16, 999, ZoneOffset.UTC, Duration.ofMillis(500), TimeSource.system());
        LeasingWorkerIdAssigner assigner = LeasingWorkerIdAssigner.builder(new RedisWorkerIdLeaseStore(redis, prefix))
                .ttl(Duration.ofSeconds(2))
                .renewInterval(Duration.ofMillis(300))
                .safetyMargin(Duration.ofMillis(300))
                .reuseDelay(Duration.ofSeconds(1))
                .build();
        IdService snowflake = SnowflakeIdService.of(
                SnowflakeGenerator.builder().workerIdAssigner(assigner).build());

        BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.US_ASCII), 1 << 16);
        AtomicLong deadline = RedisWorkerMain.deadline(duration);
        Thread flusher = new Thread(() -> {
            while (true) {
                LockSupport.parkNanos(20_000_000);
                synchronized (writer) {
                    try {
                        writer.flush();
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            }
        });
        flusher.setDaemon(true);
        flusher.start();

        Map<String, AtomicLong> written = new LinkedHashMap<>();
        for (String kind : List.of("I", "G", "R", "S")) {
            written.put(kind, new AtomicLong());
        }
        List<Thread> threads = new ArrayList<>();
        threads.add(drawer("I", () -> Long.toString(incr.nextId("orders")), writer, deadline, written.get("I")));
        threads.add(drawer("G", () -> Long.toString(segments.nextId("blocks")), writer, deadline, written.get("G")));
        threads.add(drawer("R", () -> readable.nextReadableId("T"), writer, deadline, written.get("R")));
        threads.add(drawer("S", () -> Long.toString(snowflake.nextId("events")), writer, deadline, written.get("S")));
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (writer) {
            for (Map.Entry<String, AtomicLong> count : written.entrySet()) {
                writer.write("N " + count.getKey() + " " + count.getValue().get() + "\n");
            }
            writer.flush();
        }
        System.exit(0);
    }

    private interface Draw {
        String next();
    }

    private static Thread drawer(
            String kind, Draw draw, BufferedWriter writer, AtomicLong deadline, AtomicLong written) {
        Thread thread = new Thread(
                () -> {
                    long failures = 0;
                    while (System.nanoTime() - deadline.get() < 0) {
                        try {
                            String id = draw.next();
                            synchronized (writer) {
                                writer.write(kind);
                                writer.write(' ');
                                writer.write(id);
                                writer.write('\n');
                                written.incrementAndGet();
                            }
                            LockSupport.parkNanos(PAUSE_MICROS * 1000);
                        } catch (IdGenerationException e) {
                            if (failures++ % 100 == 0) {
                                System.err.println("worker " + kind + ": " + e.getMessage());
                            }
                            LockSupport.parkNanos(10_000_000);
                        } catch (RuntimeException e) {
                            // Not a failure idgen reports as such (every refusal is an IdGenerationException): show it
                            // whole,
                            // and tell the test, whose reader fails on any line that is not an ID.
                            System.err.println("worker " + kind + ": unexpected " + e);
                            e.printStackTrace();
                            try {
                                synchronized (writer) {
                                    writer.write("unexpected " + kind + " " + e + "\n");
                                    writer.flush();
                                }
                            } catch (java.io.IOException closed) {
                                return;
                            }
                            LockSupport.parkNanos(10_000_000);
                        } catch (java.io.IOException e) {
                            return;
                        }
                    }
                },
                "draw-" + kind);
        thread.start();
        return thread;
    }

    /**
     * @param topology {@code sentinel} or {@code cluster}
     * @param nodes {@code master@port,port,...} (the sentinels) or {@code port,port,...} (the cluster's nodes)
     */
    static LettuceConnectionFactory factory(String topology, String nodes) {
        LettuceClientConfiguration.LettuceClientConfigurationBuilder client =
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2));
        LettuceConnectionFactory factory;
        if (topology.equals("sentinel")) {
            String[] parts = nodes.split("@");
            RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration().master(parts[0]);
            for (String port : parts[1].split(",")) {
                sentinel.sentinel("127.0.0.1", Integer.parseInt(port));
            }
            factory = new LettuceConnectionFactory(sentinel, client.build());
        } else {
            RedisClusterConfiguration cluster = new RedisClusterConfiguration();
            for (String port : nodes.split(",")) {
                cluster.clusterNode("127.0.0.1", Integer.parseInt(port));
            }
            // As an application sets spring.data.redis.lettuce.cluster.refresh.adaptive=true and .period=1s.
            client.clientOptions(ClusterClientOptions.builder()
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enableAllAdaptiveRefreshTriggers()
                            .enablePeriodicRefresh(Duration.ofSeconds(1))
                            .build())
                    .build());
            factory = new LettuceConnectionFactory(cluster, client.build());
        }
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
