package dev.idgen.benchmarks;

import cn.hutool.core.lang.Snowflake;
import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.client.RemoteSegmentStore;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentBufferStats;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.etcd.EtcdSegmentStore;
import dev.idgen.etcd.EtcdWorkerIdLeaseStore;
import dev.idgen.jdbc.JdbcSegmentStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.redis.BucketedRedisSequence;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisSegmentStore;
import dev.idgen.redis.RedisWorkerIdLeaseStore;
import dev.idgen.redis.SpringLettuceConnectionSource;
import dev.idgen.spring.reactive.DefaultReactiveIdService;
import dev.idgen.spring.reactive.ReactiveIdService;
import dev.idgen.zookeeper.ZooKeeperSegmentStore;
import dev.idgen.zookeeper.ZooKeeperWorkerIdLeaseStore;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import reactor.core.publisher.Flux;

/**
 * Every comparison of the performance table in docs/benchmarks.md, side by side in one JVM ({@link Contest}: contenders alternate
 * in short blocks, ratios taken per round), at default settings unless a row names a setting. Prints the table as
 * Markdown on standard output (progress on standard error). {@code idgen-benchmarks/run.sh} runs it.
 *
 * <pre>
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.PerformanceTable [rounds=10] [only=regex]
 * </pre>
 */
public final class PerformanceTable {

    private static final String TICKET_TABLE = "idgen_bench_ticket";
    private static final String SEGMENT_TABLE = "idgen_bench_segment";
    private static final String WORKER_TABLE = "idgen_bench_worker";

    private final int rounds;
    private final String only;
    private final List<String> rows = new ArrayList<>();
    private boolean failed;

    private PerformanceTable(int rounds, String only) {
        this.rounds = rounds;
        this.only = only;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        String only = args.length > 1 ? args[1] : ".*";
        PerformanceTable table = new PerformanceTable(rounds, only);
        table.snowflake(1);
        table.snowflake(2);
        table.segmentsOverMariaDb(1);
        table.segmentsOverMariaDb(2);
        table.manyNames();
        table.striped();
        table.redis(1);
        table.redis(16);
        table.redis(64);
        table.redisReactive(16);
        table.redisReactive(64);
        table.readable(16);
        table.tickets(1);
        table.tickets(16);
        table.consensusStores();
        table.remoteClient(1);
        table.remoteClient(2);
        System.out.println("| goal | comparison | threads | figures (mean over rounds, per second) | ratio: median"
                + " (min-max over " + rounds + " rounds) | target | holds |");
        System.out.println("|---|---|---:|---|---|---|---|");
        table.rows.forEach(System.out::println);
        System.exit(table.failed ? 1 : 0);
    }

    private boolean wanted(String key) {
        return key.matches(only);
    }

    private void row(
            String goal,
            String comparison,
            Contest.Result result,
            String figures,
            double[] ratios,
            String target,
            double at,
            boolean higherIsBetter,
            String note) {
        double median = ratios.length % 2 == 1
                ? ratios[ratios.length / 2]
                : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
        boolean holds = higherIsBetter ? median >= at : median <= at;
        failed |= !holds;
        rows.add(String.format(
                Locale.ROOT,
                "| %s | %s | %d | %s | **%.2f** (%.2f-%.2f) | %s | %s%s |",
                goal,
                comparison,
                result.threads(),
                figures,
                median,
                ratios[0],
                ratios[ratios.length - 1],
                target,
                holds ? "yes" : "NO",
                note.isEmpty() ? "" : "; " + note));
    }

    /** A row that states figures side by side, with no target to hold. */
    private void info(String goal, String comparison, Contest.Result result, String figures, String note) {
        rows.add(String.format(
                Locale.ROOT,
                "| %s | %s | %d | %s | - | - | -%s |",
                goal,
                comparison,
                result.threads(),
                figures,
                note.isEmpty() ? "" : "; " + note));
    }

    /** The mean time of one operation per side, from the mean rate over rounds at one thread. */
    private static String latencies(Contest.Result result) {
        StringBuilder out = new StringBuilder();
        for (String side : result.sides()) {
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(side)
                    .append(' ')
                    .append(String.format(
                            Locale.ROOT, "%,.0f/s (%.2f ms)", result.mean(side), 1000 / result.mean(side)));
        }
        return out.toString();
    }

    private static String figures(Contest.Result result) {
        StringBuilder out = new StringBuilder();
        for (String side : result.sides()) {
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(side).append(' ').append(String.format(Locale.ROOT, "%,.0f", result.mean(side)));
        }
        return out.toString();
    }

    // ---- Snowflake: idgen's IdService beside CosId and Hutool; everyone runs at the layout's limit.

    private void snowflake(int threads) throws Exception {
        if (!wanted("snowflake")) {
            return;
        }
        SnowflakeIdService idgen =
                SnowflakeIdService.of(SnowflakeGenerator.builder().workerId(1).build());
        MillisecondSnowflakeId cosid = new MillisecondSnowflakeId(2);
        Snowflake hutool = new Snowflake(3, 0);
        Map<String, Contest.Side> sides = Contest.sides();
        sides.put("idgen", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += idgen.nextId();
            }
            return x;
        });
        sides.put("CosId", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += cosid.generate();
            }
            return x;
        });
        sides.put("Hutool", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += hutool.nextId();
            }
            return x;
        });
        Contest.Result result = Contest.run("snowflake", threads, 256, 3000, rounds, 200, sides);
        row(
                "5",
                "Snowflake `IdService.nextId()` / best of CosId `MillisecondSnowflakeId`, Hutool `Snowflake`",
                result,
                figures(result),
                result.ratiosToBest("idgen", "CosId", "Hutool"),
                ">= 0.98",
                0.98,
                true,
                "limit 4,096,000/s");
        idgen.close();
    }

    // ---- Segments over the real MariaDB, idgen at defaults beside CosId SegmentChainId on cosid-jdbc's SQL.

    private void segmentsOverMariaDb(int threads) throws Exception {
        if (!wanted("segment-mariadb")) {
            return;
        }
        try (HikariDataSource pool = MariaDb.pool(10)) {
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + SEGMENT_TABLE);
            }
            JdbcSegmentStore store =
                    new JdbcSegmentStore(pool, SEGMENT_TABLE, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(3));
            SegmentIdService idgen = SegmentIdService.builder(store).build();
            SegmentChainId cosid = new SegmentChainId(new CosIdJdbcDistributor(pool, "bench", 1000));
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put("idgen", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += idgen.nextId("bench");
                }
                return x;
            });
            sides.put("CosId", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += cosid.generate();
                }
                return x;
            });
            // Warm-up lets both ramp up (idgen's step doubles from 1,000 per fetch; CosId grows its prefetch).
            long[] waitsAtStart = new long[1];
            Contest.Result result = Contest.run(
                    "segment-mariadb", threads, 1024, 5000, rounds, 200, sides, () -> waitsAtStart[0] = waits(idgen));
            long waits = waits(idgen) - waitsAtStart[0];
            SegmentBufferStats stats = idgen.stats("bench").orElseThrow();
            row(
                    "1",
                    "segments over MariaDB: idgen `nextId(name)` / CosId `SegmentChainId` (cosid-jdbc's SQL, step"
                            + " 1,000 as idgen's)",
                    result,
                    figures(result),
                    result.ratios("idgen", "CosId"),
                    ">= 1.2",
                    1.2,
                    true,
                    "idgen waits after warm-up: " + waits + " (target 0); " + stats.fetches() + " fetches, step "
                            + stats.step());
            if (waits > 0) {
                failed = true;
            }
            idgen.close();
        }
    }

    // ---- The server tier: a client's segments from an idgen server beside in-process segments on the same database.

    private void remoteClient(int threads) throws Exception {
        if (!wanted("remote")) {
            return;
        }
        String remoteTable = SEGMENT_TABLE + "_server";
        try (HikariDataSource pool = MariaDb.pool(10)) {
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + SEGMENT_TABLE);
                statement.execute("DROP TABLE IF EXISTS " + remoteTable);
            }
            JdbcSegmentStore store =
                    new JdbcSegmentStore(pool, SEGMENT_TABLE, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(3));
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
                            .build()) {
                SegmentIdService inProcess = SegmentIdService.builder(store).build();
                SegmentIdService client = SegmentIdService.builder(remote).build();
                Map<String, Contest.Side> sides = Contest.sides();
                sides.put("client", n -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += client.nextId("bench");
                    }
                    return x;
                });
                sides.put("in-process", n -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += inProcess.nextId("bench");
                    }
                    return x;
                });
                long[] waitsAtStart = new long[1];
                Contest.Result result = Contest.run(
                        "remote-client",
                        threads,
                        1024,
                        5000,
                        rounds,
                        200,
                        sides,
                        () -> waitsAtStart[0] = waits(client));
                long waits = waits(client) - waitsAtStart[0];
                SegmentBufferStats stats = client.stats("bench").orElseThrow();
                row(
                        "25",
                        "the server tier's client (`idgen.segment.store=remote`: blocks from an idgen server over"
                                + " HTTP) / in-process segments over the same MariaDB, `nextId(name)`, both at defaults",
                        result,
                        figures(result),
                        result.ratios("client", "in-process"),
                        threads == 1 ? ">= 0.95" : ">= 0.9",
                        threads == 1 ? 0.95 : 0.9,
                        true,
                        "client waits after warm-up: " + waits + " (target 0); " + stats.fetches()
                                + " block requests, step " + stats.step());
                if (waits > 0) {
                    failed = true;
                }
                client.close();
                inProcess.close();
            }
        }
    }

    private static long waits(SegmentIdService ids) {
        return waits(ids, "bench");
    }

    private static long waits(SegmentIdService ids, String name) {
        return ids.stats(name).map(SegmentBufferStats::waits).orElse(0L);
    }

    // ---- One name against 1,000 names: the per-call cost of the name lookup and of cache misses.

    private void manyNames() throws Exception {
        if (!wanted("names")) {
            return;
        }
        String[] thousand = new String[1024];
        String[] one = new String[1024];
        for (int i = 0; i < thousand.length; i++) {
            // Shuffled so consecutive calls do not walk memory in allocation order.
            thousand[i] = "name-" + Integer.toHexString((i * 617) % 1000);
            one[i] = "name-" + Integer.toHexString(0);
        }
        SegmentIdService idgen =
                SegmentIdService.builder(new InMemorySegmentStore()).build();
        ConcurrentHashMap<String, AtomicLong> map = new ConcurrentHashMap<>();
        Map<String, Contest.Side> sides = Contest.sides();
        sides.put("idgen 1 name", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += idgen.nextId(one[i & 1023]);
            }
            return x;
        });
        sides.put("idgen 1,000 names", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += idgen.nextId(thousand[i & 1023]);
            }
            return x;
        });
        sides.put("map 1 name", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += map.computeIfAbsent(one[i & 1023], k -> new AtomicLong()).incrementAndGet();
            }
            return x;
        });
        sides.put("map 1,000 names", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += map.computeIfAbsent(thousand[i & 1023], k -> new AtomicLong())
                        .incrementAndGet();
            }
            return x;
        });
        Contest.Result result = Contest.run("names", 1, 1024, 3000, rounds, 100, sides);
        row(
                "2",
                "segments from memory: cost per call of 1,000 names / of 1 name (`ConcurrentHashMap` of `AtomicLong`"
                        + " for scale: "
                        + String.format(Locale.ROOT, "%.2f", median(result.ratios("map 1 name", "map 1,000 names")))
                        + ")",
                result,
                figures(result),
                result.ratios("idgen 1 name", "idgen 1,000 names"),
                "<= 1.5",
                1.5,
                false,
                "");
        idgen.close();
    }

    private static double median(double[] sorted) {
        return sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    // ---- Striped against ordered, two threads on one name.

    private void striped() throws Exception {
        if (!wanted("striped")) {
            return;
        }
        SegmentIdService ordered =
                SegmentIdService.builder(new InMemorySegmentStore()).build();
        SegmentIdService striped = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(SegmentSettings.builder().stripeSize(256).build())
                .build();
        Map<String, Contest.Side> sides = Contest.sides();
        sides.put("striped", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += striped.nextId("orders");
            }
            return x;
        });
        sides.put("ordered", n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += ordered.nextId("orders");
            }
            return x;
        });
        Contest.Result result = Contest.run("striped", 2, 1024, 3000, rounds, 100, sides);
        row(
                "3",
                "segments from memory: striped (`stripe-size` 256) / ordered (default)",
                result,
                figures(result),
                result.ratios("striped", "ordered"),
                ">= 1.5",
                1.5,
                true,
                "");
        ordered.close();
        striped.close();
    }

    // ---- Redis: the redis strategy and readable IDs beside raw Lettuce INCR on one shared connection.

    private void redis(int threads) throws Exception {
        if (!wanted("redis")) {
            return;
        }
        try (Redis redis = Redis.counter("table", 100_000);
                Redis.Raw raw = Redis.raw()) {
            RedisIdService idgen = new RedisIdService(redis.counter());
            idgen.nextId("bench");
            String rawKey = redis.prefix() + "raw";
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put("idgen", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += idgen.nextId("bench");
                }
                return x;
            });
            sides.put("raw INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += raw.strings().incr(rawKey);
                }
                return x;
            });
            Contest.Result result = Contest.run("redis", threads, 1, 2000, rounds, 200, sides);
            boolean one = threads == 1;
            row(
                    "4",
                    "redis strategy `nextId(name)` / raw Lettuce `INCR`",
                    result,
                    figures(result),
                    result.ratios("idgen", "raw INCR"),
                    one ? ">= 0.95" : ">= 3",
                    one ? 0.95 : 3,
                    true,
                    "");
            String[] keys = redis.keysOf("bench");
            raw.keys().del(keys[0], keys[1], rawKey);
        }
    }

    /**
     * The redis strategy for reactive callers: {@code requests} calls in flight at once through the starter's
     * {@link ReactiveIdService}, as a reactive server's concurrent requests, none on a parked thread. Each of
     * {@code requests} workers drives one chain of calls ({@code concatMap}): a call's completion, on Lettuce's event
     * loop, subscribes the chain's next call, and the worker waits only for the end of its batch of 100. Raw
     * {@code INCR} as in the blocking rows: Lettuce's sync API on {@code requests} threads.
     */
    private void redisReactive(int requests) throws Exception {
        if (!wanted("redis")) {
            return;
        }
        try (Redis redis = Redis.counter("table", 100_000);
                Redis.Raw raw = Redis.raw()) {
            RedisIdService idgen = new RedisIdService(redis.counter());
            idgen.nextId("bench");
            ReactiveIdService reactive = new DefaultReactiveIdService(idgen, task -> {
                throw new IllegalStateException("the redis strategy handed a call to the executor for blocking calls");
            });
            String rawKey = redis.prefix() + "raw";
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put(
                    "idgen reactive",
                    n -> Flux.range(0, n)
                            .concatMap(i -> reactive.nextId("bench"))
                            .reduce(0L, Long::sum)
                            .block(Duration.ofMinutes(1)));
            sides.put("raw INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += raw.strings().incr(rawKey);
                }
                return x;
            });
            Contest.Result result = Contest.run("redis reactive", requests, 100, 2000, rounds, 200, sides);
            row(
                    "26",
                    "redis strategy `ReactiveIdService.nextId(name)`, " + requests
                            + " requests in flight / raw Lettuce `INCR` on as many threads",
                    result,
                    figures(result),
                    result.ratios("idgen reactive", "raw INCR"),
                    ">= 3",
                    3,
                    true,
                    "");
            String[] keys = redis.keysOf("bench");
            raw.keys().del(keys[0], keys[1], rawKey);
        }
    }

    // ---- The consensus stores beside MariaDB and Redis: one allocation and one lease renewal, and segments served.

    private void consensusStores() throws Exception {
        if (!wanted("stores")) {
            return;
        }
        try (ConsensusClusters clusters = ConsensusClusters.start();
                HikariDataSource pool = MariaDb.pool(4);
                Redis redis = Redis.counter("stores", 100_000)) {
            String namespace = "bench" + System.nanoTime();
            SegmentStore etcd = new EtcdSegmentStore(clusters.etcd(), namespace + "/", 0, ConsensusClusters.TIMEOUT);
            SegmentStore zookeeper =
                    new ZooKeeperSegmentStore(clusters.zookeeper(), "/" + namespace, 0, ConsensusClusters.TIMEOUT);
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + SEGMENT_TABLE);
                statement.execute("DROP TABLE IF EXISTS " + WORKER_TABLE);
            }
            SegmentStore mariadb =
                    new JdbcSegmentStore(pool, SEGMENT_TABLE, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(3));
            SegmentStore redisStore = new RedisSegmentStore(redis.counter());
            Map<String, Contest.Side> allocations = Contest.sides();
            allocations.put("etcd", allocations(etcd));
            allocations.put("ZooKeeper", allocations(zookeeper));
            allocations.put("MariaDB", allocations(mariadb));
            allocations.put("Redis", allocations(redisStore));
            Contest.Result allocated = Contest.run("stores-allocate", 1, 1, 2000, rounds, 300, allocations);
            info(
                    "24",
                    "one segment allocation (`SegmentStore.allocate(name, 1000)`), a round trip to each store on this"
                            + " machine; etcd and ZooKeeper three members each",
                    allocated,
                    latencies(allocated),
                    "Redis counts in windows its store reserved from MariaDB, one per 100 allocations");

            Map<String, Contest.Side> renewals = Contest.sides();
            renewals.put(
                    "etcd",
                    renewals(new EtcdWorkerIdLeaseStore(clusters.etcd(), namespace + "/", ConsensusClusters.TIMEOUT)));
            renewals.put(
                    "ZooKeeper",
                    renewals(new ZooKeeperWorkerIdLeaseStore(
                            clusters.zookeeper(), "/" + namespace, ConsensusClusters.TIMEOUT)));
            renewals.put(
                    "MariaDB",
                    renewals(new JdbcWorkerIdLeaseStore(
                            pool, WORKER_TABLE, SchemaInitialization.ALWAYS, Duration.ofSeconds(3))));
            renewals.put(
                    "Redis",
                    renewals(new RedisWorkerIdLeaseStore(redis.counter().redis(), redis.prefix())));
            Contest.Result renewed = Contest.run("stores-renew", 1, 1, 2000, rounds, 300, renewals);
            info(
                    "24",
                    "one worker id lease renewal (`WorkerIdLeaseStore.renew`, ttl 30 s as the starter's default)",
                    renewed,
                    latencies(renewed),
                    "etcd: keep-alives of the lease and its fence, then a transaction; ZooKeeper: a clock write,"
                            + " then a versioned write");

            for (int threads : new int[] {1, 2}) {
                SegmentIdService fromEtcd = SegmentIdService.builder(etcd).build();
                SegmentIdService fromMariaDb = SegmentIdService.builder(mariadb).build();
                Map<String, Contest.Side> served = Contest.sides();
                served.put("etcd", n -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += fromEtcd.nextId("served");
                    }
                    return x;
                });
                served.put("MariaDB", n -> {
                    long x = 0;
                    for (int i = 0; i < n; i++) {
                        x += fromMariaDb.nextId("served");
                    }
                    return x;
                });
                long[] waitsAtStart = new long[2];
                Contest.Result result = Contest.run("stores-served", threads, 1024, 5000, rounds, 200, served, () -> {
                    waitsAtStart[0] = waits(fromEtcd, "served");
                    waitsAtStart[1] = waits(fromMariaDb, "served");
                });
                long etcdWaits = waits(fromEtcd, "served") - waitsAtStart[0];
                double[] ratios = result.ratios("etcd", "MariaDB");
                rows.add(String.format(
                        Locale.ROOT,
                        "| 24 | segments served from etcd: `nextId(name)` over `EtcdSegmentStore` / over MariaDB, both at"
                                + " defaults, the etcd and ZooKeeper servers running on the same two cores | %d | %s |"
                                + " %.2f (%.2f-%.2f) | 0 caller waits after warm-up | %s; etcd caller waits %d,"
                                + " MariaDB %d |",
                        threads,
                        figures(result),
                        ratios[ratios.length / 2],
                        ratios[0],
                        ratios[ratios.length - 1],
                        etcdWaits == 0 ? "yes" : "NO",
                        etcdWaits,
                        waits(fromMariaDb, "served") - waitsAtStart[1]));
                if (etcdWaits > 0) {
                    failed = true;
                }
                fromEtcd.close();
                fromMariaDb.close();
            }
        }
    }

    private static Contest.Side allocations(SegmentStore store) {
        return n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                x += store.allocate("bench", 1000).first();
            }
            return x;
        };
    }

    private static Contest.Side renewals(WorkerIdLeaseStore store) {
        String owner = "bench-" + System.nanoTime();
        Duration ttl = Duration.ofSeconds(30);
        Duration reuse = Duration.ofSeconds(5);
        WorkerIdLeaseStore.Acquisition acquisition = store.acquire(owner, 1023, ttl, reuse);
        if (!acquisition.isGranted()) {
            throw new IllegalStateException("No worker id from " + store);
        }
        long workerId = acquisition.workerId();
        return n -> {
            long x = 0;
            for (int i = 0; i < n; i++) {
                if (!store.renew(workerId, owner, ttl, reuse, System.currentTimeMillis(), true)) {
                    throw new IllegalStateException("Renewal refused by " + store);
                }
                x++;
            }
            return x;
        };
    }

    private void readable(int threads) throws Exception {
        if (!wanted("readable")) {
            return;
        }
        try (Redis redis = Redis.counter("readable", 100_000);
                Redis.Raw raw = Redis.raw()) {
            BucketedRedisSequence readable = new BucketedRedisSequence(
                    new RedisScriptExecutor(
                            new SpringLettuceConnectionSource(redis.connectionFactory()),
                            Duration.ofMillis(500),
                            new RedisRoundTrips()),
                    redis.prefix());
            readable.nextReadableId("ORD");
            String rawKey = redis.prefix() + "raw";
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put("idgen", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += readable.nextReadableId("ORD").length();
                }
                return x;
            });
            sides.put("raw INCR", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += raw.strings().incr(rawKey);
                }
                return x;
            });
            Contest.Result result = Contest.run("readable", threads, 1, 2000, rounds, 200, sides);
            row(
                    "4",
                    "readable IDs `nextReadableId(code)` / raw Lettuce `INCR`",
                    result,
                    figures(result),
                    result.ratios("idgen", "raw INCR"),
                    ">= 1",
                    1,
                    true,
                    "");
            for (int i = 0; i < readable.bucketCount(); i++) {
                raw.keys().del(redis.prefix() + "bucket:{" + i + "}");
            }
            raw.keys().del(rawKey);
        }
    }

    // ---- Tickets on the real MariaDB beside the raw JDBC they wrap.

    private void tickets(int threads) throws Exception {
        if (!wanted("ticket")) {
            return;
        }
        try (HikariDataSource pool = MariaDb.pool(16)) {
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + TICKET_TABLE);
            }
            TicketIdService idgen = new TicketIdService(
                    List.of(new TicketServer(
                            "bench",
                            pool,
                            TICKET_TABLE,
                            0,
                            1,
                            true,
                            Duration.ofSeconds(3),
                            Duration.ofSeconds(5),
                            TimeSource.system())),
                    false);
            idgen.nextId("idgen");
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("INSERT IGNORE INTO " + TICKET_TABLE
                        + " (name, id, increment, update_time) VALUES ('raw', 0, 1, CURRENT_TIMESTAMP(3))");
            }
            Map<String, Contest.Side> sides = Contest.sides();
            sides.put("idgen", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += idgen.nextId("idgen");
                }
                return x;
            });
            sides.put("raw JDBC", n -> {
                long x = 0;
                for (int i = 0; i < n; i++) {
                    x += MariaDb.rawTicket(pool, TICKET_TABLE, "raw");
                }
                return x;
            });
            Contest.Result result = Contest.run("ticket", threads, 1, 2000, rounds, 200, sides);
            boolean one = threads == 1;
            row(
                    "4",
                    "tickets `nextId(name)` / raw JDBC `UPDATE ... LAST_INSERT_ID(id + 1)` + `SELECT`",
                    result,
                    figures(result),
                    result.ratios("idgen", "raw JDBC"),
                    one ? ">= 0.95" : ">= 2",
                    one ? 0.95 : 2,
                    true,
                    "MariaDB, pool of 16");
            idgen.close();
        }
    }
}
