package dev.idgen.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.idgen.core.coalesce.RangeCoalescer;
import dev.idgen.redis.RedisIdService;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * Where the time of the redis strategy goes, beside the {@link PerformanceTable} rows (goal 4): not a benchmark of a
 * feature, but the measurements behind the analysis of why coalescing does not reach 3 x raw {@code INCR} on two
 * shared cores.
 *
 * <pre>
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.RedisCoalescingAnalysis script [rounds=10]
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.RedisCoalescingAnalysis ceiling [threads=16]
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.RedisCoalescingAnalysis event-loop [threads=16] [rounds=6]
 * </pre>
 *
 * <ul>
 * <li>{@code script}: one thread, alternating blocks: raw Lettuce {@code INCR}; {@code INCR} on Spring's shared native
 * connection (idgen's); a Lua script that only increments; one that reads {@code INFO replication} first; idgen's
 * {@code nextId}. Shows what a script per call and the failover check cost a lone caller, whom coalescing cannot
 * help.</li>
 * <li>{@code ceiling}: {@link RangeCoalescer} over a "store" that is another thread answering at once (the two thread
 * hops of a round trip, no work): the most calls per second coalescing with blocking callers can serve on this
 * machine, and the CPU one call costs (waking its parked thread).</li>
 * <li>{@code event-loop}: a prototype coalescer whose round trips are completed, and the next one sent, on Lettuce's
 * event loop (no caller thread in between), beside idgen's {@code nextId} (round trips on callers' threads) and raw
 * {@code INCR}: how much shorter round trips would make the cycle. It has no timeouts, no failover handling and no
 * windows: a measurement, not a design.</li>
 * </ul>
 */
public final class RedisCoalescingAnalysis {

    private RedisCoalescingAnalysis() {}

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "script";
        switch (what) {
            case "script" -> script(args.length > 1 ? Integer.parseInt(args[1]) : 10);
            case "ceiling" -> ceiling(args.length > 1 ? Integer.parseInt(args[1]) : 16);
            case "event-loop" ->
                eventLoop(
                        args.length > 1 ? Integer.parseInt(args[1]) : 16,
                        args.length > 2 ? Integer.parseInt(args[2]) : 6);
            default -> throw new IllegalArgumentException("script, ceiling or event-loop, not " + what);
        }
        System.exit(0);
    }

    private static void print(Contest.Result result, String baseline) {
        for (String side : result.sides()) {
            double[] ratios = result.ratios(side, baseline);
            System.out.printf(
                    Locale.ROOT,
                    "%-24s %,10.0f /s   / %s: median %.2f (%.2f-%.2f)%n",
                    side,
                    result.mean(side),
                    baseline,
                    ratios[ratios.length / 2],
                    ratios[0],
                    ratios[ratios.length - 1]);
        }
    }

    private static RedisClusterAsyncCommands<byte[], byte[]> nativeCommands(LettuceConnection connection) {
        return connection.getNativeConnection();
    }

    private static void script(int rounds) throws Exception {
        try (Redis redis = Redis.counter("analysis", 100_000);
                Redis.Raw raw = Redis.raw();
                LettuceConnection connection =
                        (LettuceConnection) redis.connectionFactory().getConnection()) {
            RedisIdService idgen = new RedisIdService(redis.counter());
            idgen.nextId("bench");
            RedisClusterAsyncCommands<byte[], byte[]> commands = nativeCommands(connection);
            String rawKey = redis.prefix() + "raw";
            byte[][] keys = {(redis.prefix() + "script").getBytes()};
            String incr = commands.scriptLoad("return redis.call('INCR', KEYS[1])".getBytes())
                    .get();
            String info = commands.scriptLoad(("local r = redis.call('INFO', 'replication')"
                                    + " local id = string.match(r, 'master_replid:(%w+)') return redis.call('INCR', KEYS[1])")
                            .getBytes())
                    .get();
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put("raw INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += raw.strings().incr(rawKey);
                }
                return x;
            });
            sides.put("INCR, Spring's connection", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += commands.incr(keys[0]).get();
                }
                return x;
            });
            sides.put("script: INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += commands.<Long>evalsha(incr, ScriptOutputType.INTEGER, keys)
                            .get();
                }
                return x;
            });
            sides.put("script: INFO + INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += commands.<Long>evalsha(info, ScriptOutputType.INTEGER, keys)
                            .get();
                }
                return x;
            });
            sides.put("idgen nextId", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += idgen.nextId("bench");
                }
                return x;
            });
            print(Contest.run("script", 1, 1, 2000, rounds, 200, sides), "raw INCR");
            String[] counterKeys = redis.keysOf("bench");
            raw.keys().del(counterKeys[0], counterKeys[1], rawKey, redis.prefix() + "script");
        }
    }

    private static void ceiling(int threads) throws Exception {
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicReference<Thread> request = new AtomicReference<>();
        Thread server = new Thread(
                () -> {
                    while (true) {
                        Thread client;
                        while ((client = request.get()) == null) {
                            LockSupport.park();
                        }
                        request.set(null);
                        LockSupport.unpark(client);
                    }
                },
                "instant-store");
        server.setDaemon(true);
        server.start();
        long[] counter = {0};
        RangeCoalescer coalescer = new RangeCoalescer(
                n -> {
                    Thread self = Thread.currentThread();
                    request.set(self);
                    LockSupport.unpark(server);
                    while (request.get() == self) {
                        LockSupport.park();
                    }
                    return counter[0] += n;
                },
                1024,
                1,
                Duration.ofSeconds(10),
                "the instant store");
        for (int run = 0; run < 4; run++) {
            AtomicBoolean stop = new AtomicBoolean();
            LongAdder calls = new LongAdder();
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                workers[t] = new Thread(() -> {
                    while (!stop.get()) {
                        coalescer.next();
                        calls.increment();
                    }
                });
            }
            long roundTrips = coalescer.roundTrips();
            long cpu = os.getProcessCpuTime();
            long started = System.nanoTime();
            for (Thread worker : workers) {
                worker.start();
            }
            Thread.sleep(2000);
            stop.set(true);
            for (Thread worker : workers) {
                worker.join();
            }
            long elapsed = System.nanoTime() - started;
            long n = calls.sum();
            if (run > 0) {
                System.out.printf(
                        Locale.ROOT,
                        "%d threads over an instant store: %,.0f calls/s, %.1f calls per round"
                                + " trip, %.1f us CPU per call%n",
                        threads,
                        n * 1e9 / elapsed,
                        (double) n / (coalescer.roundTrips() - roundTrips),
                        (os.getProcessCpuTime() - cpu) / 1e3 / n);
            }
        }
    }

    /** Round trips sent and completed on Lettuce's event loop; callers park until their value is set. */
    static final class EventLoopCoalescer {

        static final class Waiter {
            final Thread thread = Thread.currentThread();
            volatile boolean done;
            long value;
        }

        private final ReentrantLock lock = new ReentrantLock();
        private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
        private boolean inFlight;
        private final IntFunction<RedisFuture<Long>> send;

        EventLoopCoalescer(IntFunction<RedisFuture<Long>> send) {
            this.send = send;
        }

        long next() {
            Waiter self = new Waiter();
            Waiter[] batch = null;
            lock.lock();
            try {
                if (!inFlight) {
                    inFlight = true;
                    batch = new Waiter[] {self};
                } else {
                    queue.addLast(self);
                }
            } finally {
                lock.unlock();
            }
            if (batch != null) {
                start(batch);
            }
            while (!self.done) {
                LockSupport.park(this);
            }
            return self.value;
        }

        private void start(Waiter[] batch) {
            send.apply(batch.length).whenComplete((last, failure) -> complete(batch, last));
        }

        private void complete(Waiter[] batch, long last) {
            Waiter[] next = null;
            lock.lock();
            try {
                int size = Math.min(queue.size(), 1024);
                if (size == 0) {
                    inFlight = false;
                } else {
                    next = new Waiter[size];
                    for (int i = 0; i < size; i++) {
                        next[i] = queue.pollFirst();
                    }
                }
            } finally {
                lock.unlock();
            }
            if (next != null) {
                start(next);
            }
            long first = last - batch.length + 1;
            for (int i = 0; i < batch.length; i++) {
                batch[i].value = first + i;
                batch[i].done = true;
                LockSupport.unpark(batch[i].thread);
            }
        }
    }

    private static void eventLoop(int threads, int rounds) throws Exception {
        try (Redis redis = Redis.counter("analysis", 100_000);
                Redis.Raw raw = Redis.raw();
                LettuceConnection connection =
                        (LettuceConnection) redis.connectionFactory().getConnection()) {
            RedisIdService idgen = new RedisIdService(redis.counter());
            idgen.nextId("bench");
            RedisClusterAsyncCommands<byte[], byte[]> commands = nativeCommands(connection);
            byte[] plainKey = (redis.prefix() + "plain").getBytes();
            byte[][] scriptKeys = {(redis.prefix() + "script").getBytes(), (redis.prefix() + "window").getBytes()};
            // The window script's reads without its checks: INFO replication, the window and the counter, then INCRBY.
            String script = commands.scriptLoad(("local r = redis.call('INFO', 'replication')"
                                    + " local id = string.match(r, 'master_replid:(%w+)') local w = redis.call('GET', KEYS[2])"
                                    + " local c = tonumber(redis.call('GET', KEYS[1]) or '0')"
                                    + " return redis.call('INCRBY', KEYS[1], ARGV[1])")
                            .getBytes())
                    .get();
            EventLoopCoalescer plain = new EventLoopCoalescer(n -> commands.incrby(plainKey, n));
            EventLoopCoalescer scripted = new EventLoopCoalescer(n -> commands.<Long>evalsha(
                    script,
                    ScriptOutputType.INTEGER,
                    scriptKeys,
                    Integer.toString(n).getBytes()));
            String rawKey = redis.prefix() + "raw";
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put("raw INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += raw.strings().incr(rawKey);
                }
                return x;
            });
            sides.put("idgen nextId", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += idgen.nextId("bench");
                }
                return x;
            });
            sides.put("event loop: INCRBY n", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += plain.next();
                }
                return x;
            });
            sides.put("event loop: script", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += scripted.next();
                }
                return x;
            });
            print(Contest.run("event-loop", threads, 1, 2000, rounds, 200, sides), "raw INCR");
            String[] counterKeys = redis.keysOf("bench");
            raw.keys().del(counterKeys[0], counterKeys[1], rawKey, redis.prefix() + "plain", redis.prefix() + "script");
        }
    }
}
