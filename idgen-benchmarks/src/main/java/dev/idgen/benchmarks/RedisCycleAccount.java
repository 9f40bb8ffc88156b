package dev.idgen.benchmarks;

import dev.idgen.redis.RedisIdService;
import dev.idgen.spring.reactive.DefaultReactiveIdService;
import dev.idgen.spring.reactive.ReactiveIdService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import reactor.core.publisher.Flux;

/**
 * Where the CPU of one reactive call of the redis strategy goes, beside one raw Lettuce {@code INCR} on as many
 * threads: the accounting behind issue 41's "measured account of the ceiling". Each phase runs one side alone for a
 * few seconds and reads, before and after: the calls and round trips; the CPU of every thread of this JVM
 * ({@link ThreadMXBean}, by thread name) and of the whole process ({@code /proc/self/stat}: the rest is the JVM's own
 * threads, GC and JIT); Redis's own CPU ({@code INFO cpu}) and its per-command time ({@code INFO commandstats}: what
 * the script or {@code INCR} costs inside Redis, without reading and writing the socket); and the machine's busy time
 * ({@code /proc/stat}, everything on both cores, other sessions included). Each figure is then divided by the calls:
 * CPU microseconds per call, and their sum against the wall time two cores offer per call.
 *
 * <pre>
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.RedisCycleAccount [requests=16] [seconds=8]
 * </pre>
 */
public final class RedisCycleAccount {

    private static final long TICK_NANOS = 10_000_000L; // USER_HZ 100

    private RedisCycleAccount() {}

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        RedisClient infoClient = Redis.client();
        try (Redis redis = Redis.counter("account", 100_000);
                Redis.Raw raw = Redis.raw();
                StatefulRedisConnection<String, String> info = infoClient.connect()) {
            RedisIdService idgen = new RedisIdService(redis.counter());
            idgen.nextId("bench");
            ReactiveIdService reactive = new DefaultReactiveIdService(idgen, task -> {
                throw new IllegalStateException("the redis strategy handed a call to the executor for blocking calls");
            });
            String rawKey = redis.prefix() + "raw";
            Contest.Side reactiveSide = n -> Flux.range(0, n)
                    .concatMap(i -> reactive.nextId("bench"))
                    .reduce(0L, Long::sum)
                    .block(Duration.ofMinutes(1));
            Contest.Side rawSide = n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += raw.strings().incr(rawKey);
                }
                return x;
            };
            LongSupplier scriptTrips = () -> redis.counter().coalescedRoundTrips();
            phase("warm-up reactive", requests, 3, reactiveSide, scriptTrips, info, false);
            phase("warm-up raw", requests, 3, rawSide, null, info, false);
            phase("idgen reactive", requests, seconds, reactiveSide, scriptTrips, info, true);
            phase("raw INCR", requests, seconds, rawSide, null, info, true);
            phase("idgen reactive", requests, seconds, reactiveSide, scriptTrips, info, true);
            String[] keys = redis.keysOf("bench");
            raw.keys().del(keys[0], keys[1], rawKey);
        } finally {
            infoClient.shutdown();
        }
        System.exit(0);
    }

    private record Snapshot(
            long nanos,
            long calls,
            long trips,
            Map<String, Long> threadNanos,
            long processNanos,
            long redisCpuMicros,
            Map<String, long[]> commands,
            long machineBusyTicks,
            long machineTotalTicks) {}

    private static void phase(
            String name,
            int threads,
            int seconds,
            Contest.Side side,
            LongSupplier roundTrips,
            StatefulRedisConnection<String, String> info,
            boolean report)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder calls = new LongAdder();
        List<Thread> drivers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread driver = new Thread(
                    () -> {
                        try {
                            while (!stop.get()) {
                                side.run(100);
                                calls.add(100);
                            }
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    "driver-" + t);
            driver.setDaemon(true);
            drivers.add(driver);
            driver.start();
        }
        Thread.sleep(500);
        Snapshot before = snapshot(calls, roundTrips, info);
        Thread.sleep(seconds * 1000L);
        Snapshot after = snapshot(calls, roundTrips, info);
        stop.set(true);
        for (Thread driver : drivers) {
            driver.join();
        }
        if (report) {
            print(name, threads, before, after);
        }
    }

    private static Snapshot snapshot(
            LongAdder calls, LongSupplier roundTrips, StatefulRedisConnection<String, String> info) throws IOException {
        String redisInfo = info.sync().info("cpu") + info.sync().info("commandstats");
        long now = System.nanoTime();
        long c = calls.sum();
        long trips = roundTrips == null ? c : roundTrips.getAsLong();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> byThread = new HashMap<>();
        for (ThreadInfo thread : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (thread == null) {
                continue;
            }
            long cpu = mx.getThreadCpuTime(thread.getThreadId());
            if (cpu > 0) {
                byThread.merge(group(thread.getThreadName()), cpu, Long::sum);
            }
        }
        String[] self = Files.readString(Path.of("/proc/self/stat"))
                .replaceFirst("^.*\\) ", "")
                .split(" ");
        long process = (Long.parseLong(self[11]) + Long.parseLong(self[12])) * TICK_NANOS;
        double redisSeconds = 0;
        Map<String, long[]> commands = new TreeMap<>();
        for (String line : redisInfo.split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                redisSeconds += Double.parseDouble(line.substring(line.indexOf(':') + 1));
            } else if (line.startsWith("cmdstat_")) {
                String command = line.substring(8, line.indexOf(':'));
                long callsOf = Long.parseLong(line.replaceFirst(".*:calls=(\\d+),usec=.*", "$1"));
                long usec = Long.parseLong(line.replaceFirst(".*,usec=(\\d+),.*", "$1"));
                commands.put(command, new long[] {callsOf, usec});
            }
        }
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < cpu.length; i++) {
            total += Long.parseLong(cpu[i]);
        }
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
        return new Snapshot(
                now, c, trips, byThread, process, Math.round(redisSeconds * 1e6), commands, total - idle, total);
    }

    /** Lettuce's and the drivers' threads by kind; the rest by name. */
    private static String group(String thread) {
        if (thread.startsWith("driver-")) {
            return "benchmark drivers (park per 100 calls)";
        }
        return thread.replaceAll("-\\d+$", "");
    }

    private static void print(String name, int threads, Snapshot before, Snapshot after) {
        double wallMicros = (after.nanos - before.nanos) / 1e3;
        long calls = after.calls - before.calls;
        long trips = after.trips - before.trips;
        System.out.printf(
                Locale.ROOT,
                "%n== %s, %d in flight: %,.0f calls/s, %,.0f round trips/s, %.2f calls per round trip;"
                        + " a call's cycle (in flight / rate) %.1f us%n",
                name,
                threads,
                calls / wallMicros * 1e6,
                trips / wallMicros * 1e6,
                (double) calls / trips,
                threads * wallMicros / calls);
        System.out.printf(Locale.ROOT, "   %-58s %14s %14s%n", "piece (CPU)", "us per call", "us per trip");
        Map<String, Long> threadDelta = new TreeMap<>();
        long javaThreads = 0;
        for (Map.Entry<String, Long> e : after.threadNanos.entrySet()) {
            long d = e.getValue() - before.threadNanos.getOrDefault(e.getKey(), 0L);
            if (d > 0) {
                threadDelta.put(e.getKey(), d);
                javaThreads += d;
            }
        }
        double jvm = (after.processNanos - before.processNanos) / 1e3;
        double redisCpu = after.redisCpuMicros - before.redisCpuMicros;
        for (Map.Entry<String, Long> e : threadDelta.entrySet()) {
            double us = e.getValue() / 1e3;
            if (us / calls >= 0.05) {
                line("JVM thread " + e.getKey(), us, calls, trips);
            }
        }
        line(
                "JVM, not in a Java thread (GC, JIT; /proc/self/stat)",
                Math.max(0, jvm - javaThreads / 1e3),
                calls,
                trips);
        line("JVM total (/proc/self/stat, 10 ms ticks)", jvm, calls, trips);
        for (Map.Entry<String, long[]> e : after.commands.entrySet()) {
            long[] b = before.commands.getOrDefault(e.getKey(), new long[2]);
            long n = e.getValue()[0] - b[0];
            long usec = e.getValue()[1] - b[1];
            if (n > 0 && usec > 0 && (double) usec / calls >= 0.05) {
                System.out.printf(
                        Locale.ROOT,
                        "   %-58s %14.2f %14.2f   (%,d calls, %.2f us each)%n",
                        "Redis commandstats " + e.getKey(),
                        (double) usec / calls,
                        (double) usec / trips,
                        n,
                        (double) usec / n);
            }
        }
        line("Redis process CPU (INFO cpu: scripts, commands, sockets)", redisCpu, calls, trips);
        double machine = (after.machineBusyTicks - before.machineBusyTicks) * (TICK_NANOS / 1e3);
        double machineTotal = (after.machineTotalTicks - before.machineTotalTicks) * (TICK_NANOS / 1e3);
        line(
                "everything else on the machine (other sessions, kernel)",
                Math.max(0, machine - jvm - redisCpu),
                calls,
                trips);
        line("machine busy, both cores (/proc/stat)", machine, calls, trips);
        line("machine idle", machineTotal - machine, calls, trips);
        line("two cores' wall time (2 x wall / calls)", 2 * wallMicros, calls, trips);
    }

    private static void line(String what, double micros, long calls, long trips) {
        System.out.printf(Locale.ROOT, "   %-58s %14.2f %14.2f%n", what, micros / calls, micros / trips);
    }
}
