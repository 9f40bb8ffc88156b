package dev.idgen.benchmarks;

import dev.idgen.redis.RedisIdService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * Two Redis calls compared by alternating them in one process, for a machine whose speed drifts from second to second
 * (two shared cores, other processes): the same threads run side A for one block, then side B, in the order A B B A,
 * round after round, and the ratio is taken over blocks that ran next to each other in time. JMH runs one benchmark
 * after the other, so on such a machine its error bars are wider than the differences sought here.
 *
 * <p>Sides: {@code idgen} ({@code RedisIdService.nextId}, as in {@link RedisIncrBenchmarks}), {@code raw} (Lettuce
 * {@code INCR}, sync API, one shared connection, as there), {@code rawScript} (the per-ID script idgen's first version ran, kept to show what a Lua call costs, by
 * {@code EVALSHA} through that raw connection), {@code rawTrivialScript} ({@code EVALSHA} of a script that only does
 * {@code INCRBY}), {@code springIncr} ({@code INCR} on Spring Data Redis's shared native connection, waited for as
 * idgen waits).
 *
 * <pre>
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.RedisIncrAlternating \
 *     [threads=1] [rounds=15] [sideA=idgen] [sideB=raw] [blockMillis=1000]
 * </pre>
 */
public final class RedisIncrAlternating {

    /** The per-ID increment script of idgen's first version (now one plain INCRBY), for comparison. */
    private static final String INCREMENT = """
            local limit = redis.call('GET', KEYS[2])
            if not limit or redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
            local value = redis.call('INCRBY', KEYS[1], ARGV[1])
            if value > tonumber(limit) then return -2 end
            return value
            """;

    /** The same with the replication id check of idgen's failover-safe script: what {@code INFO} costs per call. */
    private static final String INCREMENT_CHECKED = """
            local replid = string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)')
            local limit = redis.call('GET', KEYS[2])
            if not limit or not replid or redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
            local value = redis.call('INCRBY', KEYS[1], ARGV[1])
            if value > tonumber(limit) then return -2 end
            return value
            """;

    private static final int STOP = 2;

    private static volatile int mode;

    private RedisIncrAlternating() {}

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        String nameA = args.length > 2 ? args[2] : "idgen";
        String nameB = args.length > 3 ? args[3] : "raw";
        long blockMillis = args.length > 4 ? Long.parseLong(args[4]) : 1000;

        Redis redis = Redis.counter("alternating", 100_000);
        RedisIdService idgen = new RedisIdService(redis.counter());
        idgen.nextId("bench");
        RedisClient client = Redis.client();
        StatefulRedisConnection<String, String> connection = client.connect();
        RedisCommands<String, String> raw = connection.sync();
        String rawKey = redis.prefix() + "raw";
        String[] scriptKeys = redis.keysOf("script");
        // A window no run reaches, so the script takes its normal path on every call.
        raw.set(scriptKeys[0], "0");
        raw.set(scriptKeys[1], Long.toString(1L << 52));
        String script = raw.scriptLoad(INCREMENT);
        String checkedScript = raw.scriptLoad(INCREMENT_CHECKED);
        String trivialScript = raw.scriptLoad("return redis.call('INCRBY', KEYS[1], ARGV[1])");
        String[] rawKeys = {rawKey};
        RedisConnection springConnection = redis.connectionFactory().getConnection();
        RedisClusterAsyncCommands<byte[], byte[]> spring = ((LettuceConnection) springConnection).getNativeConnection();
        byte[] rawKeyBytes = rawKey.getBytes(StandardCharsets.UTF_8);

        Map<String, LongSupplier> sides = new LinkedHashMap<>();
        sides.put("idgen", () -> idgen.nextId("bench"));
        sides.put("raw", () -> raw.incr(rawKey));
        sides.put("rawScript", () -> raw.<Long>evalsha(script, ScriptOutputType.INTEGER, scriptKeys, "1"));
        sides.put(
                "rawCheckedScript", () -> raw.<Long>evalsha(checkedScript, ScriptOutputType.INTEGER, scriptKeys, "1"));
        sides.put("rawTrivialScript", () -> raw.<Long>evalsha(trivialScript, ScriptOutputType.INTEGER, rawKeys, "1"));
        sides.put("springIncr", () -> await(spring.incr(rawKeyBytes)));
        LongSupplier[] side = {sides.get(nameA), sides.get(nameB)};
        if (side[0] == null || side[1] == null) {
            throw new IllegalArgumentException("sides are " + sides.keySet());
        }

        LongAdder[] counts = {new LongAdder(), new LongAdder()};
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(
                    () -> {
                        for (int m = mode; m != STOP; m = mode) {
                            side[m].getAsLong();
                            counts[m].increment();
                        }
                    },
                    "alternating-" + t);
            worker.setDaemon(true);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        for (int i = 0; i < 4; i++) {
            mode = i % 2;
            Thread.sleep(blockMillis);
        }
        double sumA = 0;
        double sumB = 0;
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            double[] rate = new double[2];
            for (int s : new int[] {0, 1, 1, 0}) {
                long before = counts[s].sum();
                long started = System.nanoTime();
                mode = s;
                Thread.sleep(blockMillis);
                rate[s] += (counts[s].sum() - before) * 1e9 / (System.nanoTime() - started) / 2;
            }
            sumA += rate[0];
            sumB += rate[1];
            ratios[r] = rate[0] / rate[1];
            System.out.printf(
                    Locale.ROOT,
                    "round %2d: %s %,10.0f  %s %,10.0f  ratio %.3f%n",
                    r + 1,
                    nameA,
                    rate[0],
                    nameB,
                    rate[1],
                    ratios[r]);
        }
        mode = STOP;
        for (Thread worker : workers) {
            worker.join();
        }
        Arrays.sort(ratios);
        double median = rounds % 2 == 1 ? ratios[rounds / 2] : (ratios[rounds / 2 - 1] + ratios[rounds / 2]) / 2;
        System.out.printf(
                Locale.ROOT,
                "%d thread(s), %d rounds: %s %,.0f ops/s, %s %,.0f ops/s, %s/%s %.3f"
                        + " (median round %.3f, min %.3f, max %.3f)%n",
                threads,
                rounds,
                nameA,
                sumA / rounds,
                nameB,
                sumB / rounds,
                nameA,
                nameB,
                sumA / sumB,
                median,
                ratios[0],
                ratios[rounds - 1]);

        String[] benchKeys = redis.keysOf("bench");
        Redis.deleteKeys(connection, benchKeys[0], benchKeys[1], scriptKeys[0], scriptKeys[1], rawKey);
        springConnection.close();
        connection.close();
        client.shutdown();
        redis.close();
    }

    private static long await(RedisFuture<Long> future) {
        try {
            return future.get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
