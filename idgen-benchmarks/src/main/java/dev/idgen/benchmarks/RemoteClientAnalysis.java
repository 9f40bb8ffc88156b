package dev.idgen.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.SchemaInitialization;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * Where the remote row's difference comes from: the row's two sides (or a side against itself), one worker thread
 * alternating A B B A in 200 ms blocks as {@link Contest} does, and per block the worker's own CPU time and the time it
 * waited for a core ({@code /proc/self/task/<tid>/schedstat}), the CPU of the JVM's other threads, of the idgen server
 * and of MariaDB ({@code /proc/<pid>/stat}), and the block requests made. Prints per side the totals over the measured
 * blocks.
 *
 * <pre>
 * java -Xms1g -Xmx1g -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.RemoteClientAnalysis \
 *     [client,in-process | in-process,client | in-process,in-process2 | client,client2] [rounds=10]
 * </pre>
 */
public final class RemoteClientAnalysis {

    private static final long TICK_NANOS = 10_000_000L; // USER_HZ 100

    private static volatile int mode = -1;
    private static volatile long sink;

    private RemoteClientAnalysis() {}

    public static void main(String[] args) throws Exception {
        String[] wanted = (args.length > 0 ? args[0] : "client,in-process").split(",");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        String remoteTable = "idgen_bench_segment_server";
        try (HikariDataSource pool = MariaDb.pool(10)) {
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS idgen_bench_segment");
                statement.execute("DROP TABLE IF EXISTS idgen_bench_segment2");
                statement.execute("DROP TABLE IF EXISTS " + remoteTable);
            }
            MariaDb.Endpoint database = MariaDb.endpoint();
            try (IdgenServerProcess server = IdgenServerProcess.start(List.of(
                            "--idgen.strategy=segment",
                            "--idgen.jdbc.table=" + remoteTable,
                            "--idgen.jdbc.initialize-schema=always",
                            "--spring.datasource.url=" + database.url(),
                            "--spring.datasource.username=" + database.user(),
                            "--spring.datasource.password=" + database.password()));
                    RemoteSegmentStore remote = RemoteSegmentStore.builder()
                            .servers(server.url())
                            .token(server.token())
                            .build();
                    RemoteSegmentStore remote2 = RemoteSegmentStore.builder()
                            .servers(server.url())
                            .token(server.token())
                            .build()) {
                SegmentIdService[] services = new SegmentIdService[wanted.length];
                for (int i = 0; i < wanted.length; i++) {
                    services[i] = switch (wanted[i]) {
                        case "client" ->
                            SegmentIdService.builder(recorded(remote, 0)).build();
                        case "client2" ->
                            SegmentIdService.builder(recorded(remote2, 1)).build();
                        case "in-process" ->
                            SegmentIdService.builder(recorded(
                                            new JdbcSegmentStore(
                                                    pool,
                                                    "idgen_bench_segment",
                                                    0,
                                                    SchemaInitialization.ALWAYS,
                                                    Duration.ofSeconds(3)),
                                            2))
                                    .build();
                        case "in-process2" ->
                            SegmentIdService.builder(new JdbcSegmentStore(
                                            pool,
                                            "idgen_bench_segment2",
                                            0,
                                            SchemaInitialization.ALWAYS,
                                            Duration.ofSeconds(3)))
                                    .build();
                        default -> throw new IllegalArgumentException(wanted[i]);
                    };
                }
                long[] counts = new long[wanted.length];
                Thread worker = new Thread(
                        () -> {
                            long x = 0;
                            for (int m = mode; m != -2; m = mode) {
                                if (m < 0) {
                                    Thread.onSpinWait();
                                    continue;
                                }
                                // One loop per side below, as the row's lambdas are.
                                x += m == 0 ? side0(services[0]) : side1(services[1]);
                                counts[m] += 1024;
                            }
                            sink = x;
                        },
                        "analysis-0");
                worker.setDaemon(true);
                worker.start();
                Thread.sleep(50);
                Path task = taskOf("analysis-0");
                long serverPid = server.pid();
                long mariadb = ProcessHandle.allProcesses()
                        .filter(p -> p.info().command().orElse("").endsWith("mariadbd"))
                        .mapToLong(ProcessHandle::pid)
                        .findFirst()
                        .orElse(-1);
                int[] order = {0, 1, 1, 0};
                int k = wanted.length;
                double[][] sums = new double[k][9];
                Map<String, Long> ownThreads = null;
                Map<String, Long> serverThreads = null;
                for (int r = -25; r < rounds; r++) {
                    if (r == 0) {
                        ownThreads = threadTicks(Path.of("/proc/self"));
                        serverThreads = threadTicks(Path.of("/proc/" + serverPid));
                    }
                    for (int s : order) {
                        long[] sched0 = schedstat(task);
                        long own0 = ticks(Path.of("/proc/self/stat"));
                        long srv0 = ticks(Path.of("/proc/" + serverPid + "/stat"));
                        long db0 = mariadb < 0 ? 0 : ticks(Path.of("/proc/" + mariadb + "/stat"));
                        long[] sys0 = systemTicks();
                        long fetch0 = fetches(services[s]);
                        long ids0 = counts[s];
                        long t0 = System.nanoTime();
                        mode = s;
                        Thread.sleep(200);
                        mode = -1;
                        long t1 = System.nanoTime();
                        Thread.sleep(5);
                        if (r < 0) {
                            continue; // warm-up, 5 s as the row's
                        }
                        long[] sched1 = schedstat(task);
                        if (r % 3 == 0) {
                            System.out.println(wanted[s] + " " + internals(services[s]));
                        }
                        double[] sum = sums[s];
                        sum[0] += (counts[s] - ids0);
                        sum[1] += t1 - t0;
                        sum[2] += sched1[0] - sched0[0];
                        sum[3] += sched1[1] - sched0[1];
                        sum[4] += (ticks(Path.of("/proc/self/stat")) - own0) * TICK_NANOS - (sched1[0] - sched0[0]);
                        sum[5] += (ticks(Path.of("/proc/" + serverPid + "/stat")) - srv0) * TICK_NANOS;
                        sum[6] += mariadb < 0 ? 0 : (ticks(Path.of("/proc/" + mariadb + "/stat")) - db0) * TICK_NANOS;
                        sum[7] += fetches(services[s]) - fetch0;
                        sum[8] += (busy(systemTicks()) - busy(sys0)) * TICK_NANOS;
                    }
                }
                mode = -2;
                worker.join(10_000);
                for (int i = 0; i < 3; i++) {
                    System.out.println("blocks per request, store " + i + ": " + SIZES.get(i));
                }
                printThreads("this JVM", ownThreads, threadTicks(Path.of("/proc/self")));
                printThreads("server", serverThreads, threadTicks(Path.of("/proc/" + serverPid)));
                System.out.println(
                        "side | M IDs/s | worker on CPU % | worker waiting for a core % | JVM's other"
                                + " threads, ms CPU/s | server ms CPU/s | MariaDB ms CPU/s | block requests/s | machine busy, cores");
                for (int s = 0; s < k; s++) {
                    double[] sum = sums[s];
                    double wall = sum[1];
                    System.out.println(String.format(
                            Locale.ROOT,
                            "%s | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.1f | %.2f",
                            wanted[s],
                            sum[0] * 1e3 / wall,
                            sum[2] * 100 / wall,
                            sum[3] * 100 / wall,
                            sum[4] * 1e3 / wall,
                            sum[5] * 1e3 / wall,
                            sum[6] * 1e3 / wall,
                            sum[7] * 1e9 / wall,
                            sum[8] / wall));
                }
                for (int s = 0; s < k; s++) {
                    SegmentBufferStats stats = services[s].stats("bench").orElseThrow();
                    System.out.println(wanted[s] + ": " + stats.fetches() + " block requests, step " + stats.step()
                            + ", " + stats.fetchNanos() / Math.max(1, stats.fetches()) / 1000 + " us per request");
                    services[s].close();
                }
            }
        }
    }

    private static Map<String, Long> threadTicks(Path process) throws IOException {
        Map<String, Long> byName = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(process.resolve("task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "#");
                    byName.merge(name, ticks(task.resolve("stat")), Long::sum);
                } catch (IOException gone) {
                    // ended meanwhile
                }
            }
        }
        return byName;
    }

    private static void printThreads(String what, Map<String, Long> before, Map<String, Long> after) {
        StringBuilder line = new StringBuilder(what + " threads, CPU ms over the measured blocks:");
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> line.append(' ').append(e.getKey()).append('=').append(e.getValue() * 10));
        System.out.println(line);
    }

    /** Per store (client, client2, in-process): how many requests asked for how many blocks of 1,000,000. */
    private static final List<Map<Long, Integer>> SIZES =
            List.of(new ConcurrentSkipListMap<>(), new ConcurrentSkipListMap<>(), new ConcurrentSkipListMap<>());

    private static SegmentStore recorded(SegmentStore store, int i) {
        return new SegmentStore() {
            @Override
            public Segment allocate(String name, long step) {
                SIZES.get(i).merge(step / 1_000_000, 1, Integer::sum);
                return store.allocate(name, step);
            }

            @Override
            public Segment allocateAbove(String name, long step, long floor) {
                SIZES.get(i).merge(step / 1_000_000, 1, Integer::sum);
                return store.allocateAbove(name, step, floor);
            }
        };
    }

    /** The buffer's prefetch depth and its two estimates, read by reflection (they are not in its stats). */
    private static String internals(SegmentIdService ids) {
        try {
            Field buffers = SegmentIdService.class.getDeclaredField("buffers");
            buffers.setAccessible(true);
            Object buffer = ((Map<?, ?>) buffers.get(ids)).get("bench");
            StringBuilder out = new StringBuilder();
            for (String field : new String[] {"prefetchDepth", "readyBlocks", "servingRate", "loadLatencyNanos"}) {
                Field f = buffer.getClass().getDeclaredField(field);
                f.setAccessible(true);
                out.append(field).append('=').append(f.get(buffer)).append(' ');
            }
            return out.toString();
        } catch (ReflectiveOperationException e) {
            return e.toString();
        }
    }

    private static long side0(SegmentIdService ids) {
        long x = 0;
        for (int i = 0; i < 1024; i++) {
            x += ids.nextId("bench");
        }
        return x;
    }

    private static long side1(SegmentIdService ids) {
        long x = 0;
        for (int i = 0; i < 1024; i++) {
            x += ids.nextId("bench");
        }
        return x;
    }

    private static long fetches(SegmentIdService ids) {
        return ids.stats("bench").map(SegmentBufferStats::fetches).orElse(0L);
    }

    private static Path taskOf(String name) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                    return task;
                }
            }
        }
        throw new IllegalStateException("no thread " + name);
    }

    /** @return on-CPU nanoseconds, runqueue-wait nanoseconds */
    private static long[] schedstat(Path task) throws IOException {
        String[] f = Files.readString(task.resolve("schedstat")).strip().split(" ");
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
    }

    /** @return utime + stime of a process, in clock ticks */
    private static long ticks(Path stat) throws IOException {
        String text = Files.readString(stat);
        String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** @return ticks of every core not idle (user, nice, system, irq, softirq, steal) */
    private static long busy(long[] ticks) {
        return ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7];
    }

    private static long[] systemTicks() throws IOException {
        String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
        List<Long> values = new ArrayList<>();
        Arrays.stream(line.substring(4).trim().split("\\s+")).forEach(v -> values.add(Long.parseLong(v)));
        return values.stream().mapToLong(Long::longValue).toArray();
    }
}
