package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.redis.RedisIdService;
import dev.idgen.redis.RedisRoundTrips;
import dev.idgen.redis.RedisScriptExecutor;
import dev.idgen.redis.RedisWindowedCounter;
import dev.idgen.redis.SpringLettuceConnectionSource;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthIndicator;
import dev.idgen.test.ChildJvm;
import dev.idgen.test.services.OwnRedisCluster;
import dev.idgen.test.services.OwnRedisNode;
import dev.idgen.test.services.OwnRedisSentinelGroup;
import dev.idgen.test.services.TestServices;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Failovers of a real Sentinel group (1 master, 2 replicas, 3 sentinels) and a real Redis Cluster (3 masters, 3
 * replicas), each while two JVMs draw IDs from every Redis feature at once ({@link ReplicatedRedisWorkerMain}: the
 * redis strategy, Redis segments, readable IDs and Snowflake with Redis leases). Each scenario checks every ID served
 * for duplicates, that each JVM serves every kind again within the failover time plus {@link #BOUND}, and that the
 * idgen health of a third client (this JVM) is DOWN only from the fault until the new master answers (plus the
 * bound). Each prints a {@code FAILOVER} line with its counts and times (the README's table comes from them).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
// Each method starts servers of its own and mostly waits on them: two run side by side (see the root pom).
@Execution(ExecutionMode.CONCURRENT)
class ReplicatedRedisFailoverTest {

    /** How long after the new master answers every kind must be served again: generous, for a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(30);

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    private static final String[] KINDS = {"I", "G", "R", "S"};

    private final String table =
            "idgen_rr_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final String prefix = "r" + UUID.randomUUID().toString().substring(0, 6) + ":";
    private final List<Worker> workers = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    /** One worker JVM and the IDs it printed, with the time each arrived. */
    private static final class Worker {
        final Process process;
        final Map<String, List<String>> ids = new HashMap<>();
        final Map<String, List<Long>> arrivals = new HashMap<>();
        /** How many IDs of each kind the worker says it wrote, from its last lines. */
        final Map<String, Long> written = new HashMap<>();
        /** Lines that are neither an ID nor a count: each one means the reader may have missed or misread IDs. */
        final List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();

        final Thread reader;

        Worker(Process process) {
            this.process = process;
            for (String kind : KINDS) {
                ids.put(kind, new ArrayList<>());
                arrivals.put(kind, new ArrayList<>());
            }
            this.reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        read(line);
                    }
                } catch (java.io.IOException e) {
                    // The pipe broke: anything not read yet is missing, which stop() finds by the counts.
                    unexpected.add("reading the worker's output failed: " + e);
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        private void read(String line) {
            String[] parts = line.split(" ", -1);
            if (parts.length == 2 && ids.containsKey(parts[0]) && !parts[1].isEmpty()) {
                long now = System.nanoTime();
                synchronized (this) {
                    ids.get(parts[0]).add(parts[1]);
                    arrivals.get(parts[0]).add(now);
                }
            } else if (parts.length == 3
                    && parts[0].equals("N")
                    && ids.containsKey(parts[1])
                    && parts[2].matches("[0-9]+")) {
                synchronized (this) {
                    written.put(parts[1], Long.parseLong(parts[2]));
                }
            } else {
                unexpected.add(line);
            }
        }

        synchronized long countSince(String kind, long nanos) {
            List<Long> times = arrivals.get(kind);
            long count = 0;
            for (int i = times.size() - 1; i >= 0 && times.get(i) > nanos; i--) {
                count++;
            }
            return count;
        }

        /** @return the longest time without an ID of {@code kind} from {@code from} on, up to the last arrival */
        synchronized long longestGapMillis(String kind, long from) {
            long previous = from;
            long longest = 0;
            for (long time : arrivals.get(kind)) {
                if (time > from) {
                    longest = Math.max(longest, time - previous);
                    previous = time;
                }
            }
            return TimeUnit.NANOSECONDS.toMillis(longest);
        }

        /**
         * Stops the worker and checks that its output was read whole: every line made sense, and the IDs read of each
         * kind are as many as it says it wrote. Otherwise the duplicate check would cover only part of them.
         */
        void stop() throws Exception {
            process.getOutputStream().close();
            assertThat(process.waitFor(180, TimeUnit.SECONDS))
                    .as("worker ended when told to")
                    .isTrue();
            assertThat(process.exitValue()).as("the worker's exit status").isZero();
            reader.join(60_000);
            assertThat(reader.isAlive())
                    .as("the worker's output read to its end")
                    .isFalse();
            assertThat(unexpected)
                    .as("lines of the worker's output that are neither an ID nor a count")
                    .isEmpty();
            synchronized (this) {
                for (String kind : KINDS) {
                    assertThat(written).as("the worker's count of %s IDs", kind).containsKey(kind);
                    assertThat((long) ids.get(kind).size())
                            .as("%s IDs read, against those the worker wrote", kind)
                            .isEqualTo(written.get(kind));
                }
            }
        }
    }

    /** A replicated Redis the scenarios run against. */
    private interface Replicated {
        String[] workerArgs();

        LettuceConnectionFactory connectionFactory();

        /** The master that holds the counter of "orders". */
        OwnRedisNode master() throws Exception;

        /** The replica a failover of {@code master} promotes, made so by killing the others in the lagging case. */
        OwnRedisNode replicaOf(OwnRedisNode master) throws Exception;

        /** Replicas of {@code master} other than {@code replica}. */
        List<OwnRedisNode> otherReplicas(OwnRedisNode master, OwnRedisNode replica) throws Exception;

        OwnRedisNode awaitNewMaster(OwnRedisNode old) throws Exception;

        /** Promotes {@code replica} while its master is dead. */
        void forceFailover(OwnRedisNode replica) throws Exception;

        /** An operator's failover while the master is up. */
        void manualFailover(OwnRedisNode replica) throws Exception;
    }

    private Replicated sentinel() throws Exception {
        OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start();
        closeables.add(group);
        return new Replicated() {
            @Override
            public String[] workerArgs() {
                return new String[] {
                    "sentinel",
                    group.masterName() + "@"
                            + group.sentinelPorts().stream()
                                    .map(String::valueOf)
                                    .collect(Collectors.joining(","))
                };
            }

            @Override
            public LettuceConnectionFactory connectionFactory() {
                return group.connectionFactory(Duration.ofSeconds(2));
            }

            @Override
            public OwnRedisNode master() {
                return group.master();
            }

            @Override
            public OwnRedisNode replicaOf(OwnRedisNode master) {
                return group.replicas().get(0);
            }

            @Override
            public List<OwnRedisNode> otherReplicas(OwnRedisNode master, OwnRedisNode replica) {
                return group.replicas().stream().filter(node -> node != replica).toList();
            }

            @Override
            public OwnRedisNode awaitNewMaster(OwnRedisNode old) throws Exception {
                return group.awaitNewMaster(old, DEADLINE);
            }

            @Override
            public void forceFailover(OwnRedisNode replica) {
                // The sentinels fail over by themselves once the master is down for down-after-milliseconds; asking
                // may be refused while they are already at it.
                try {
                    group.failover();
                } catch (Exception e) {
                    // they are at it, or will be
                }
            }

            @Override
            public void manualFailover(OwnRedisNode replica) throws Exception {
                group.failover();
            }
        };
    }

    private Replicated cluster() throws Exception {
        OwnRedisCluster cluster = OwnRedisCluster.start();
        closeables.add(cluster);
        String key = prefix + "{orders}";
        return new Replicated() {
            @Override
            public String[] workerArgs() {
                return new String[] {
                    "cluster",
                    cluster.nodes().stream()
                            .map(node -> String.valueOf(node.port()))
                            .collect(Collectors.joining(","))
                };
            }

            @Override
            public LettuceConnectionFactory connectionFactory() {
                return cluster.connectionFactory(Duration.ofSeconds(2));
            }

            @Override
            public OwnRedisNode master() {
                return cluster.masterForKey(key);
            }

            @Override
            public OwnRedisNode replicaOf(OwnRedisNode master) {
                return cluster.replicaOf(master);
            }

            @Override
            public List<OwnRedisNode> otherReplicas(OwnRedisNode master, OwnRedisNode replica) {
                return List.of();
            }

            @Override
            public OwnRedisNode awaitNewMaster(OwnRedisNode old) throws Exception {
                return cluster.awaitMasterForKey(key, old, DEADLINE);
            }

            @Override
            public void forceFailover(OwnRedisNode replica) throws Exception {
                cluster.failoverTakeover(replica);
            }

            @Override
            public void manualFailover(OwnRedisNode replica) throws Exception {
                cluster.failover(replica);
            }
        };
    }

    @AfterEach
    void cleanUp() throws Exception {
        workers.forEach(worker -> worker.process.destroyForcibly());
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** Each fault on each topology: both are Redis deployments users fail over, and each fault strikes both. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "sentinel, KILL",
        "sentinel, LAGGING",
        "sentinel, MANUAL",
        "sentinel, PARTITION",
        "cluster, KILL",
        "cluster, LAGGING",
        "cluster, MANUAL",
        "cluster, PARTITION"
    })
    void failover(String topology, Fault fault) throws Exception {
        run(topology, fault.scenario, topology.equals("sentinel") ? sentinel() : cluster(), fault);
    }

    enum Fault {
        KILL("kill the master"),
        LAGGING("lagging promotion"),
        MANUAL("manual failover"),
        PARTITION("partition the master");

        final String scenario;

        Fault(String scenario) {
            this.scenario = scenario;
        }
    }

    private void run(String topology, String scenario, Replicated redis, Fault fault) throws Exception {
        // A third client, as an application's health endpoint sees it.
        RedisScriptExecutor executor = new RedisScriptExecutor(
                new SpringLettuceConnectionSource(redis.connectionFactory()),
                Duration.ofMillis(500),
                new RedisRoundTrips());
        closeables.add(executor);
        assertThat(executor.awaitReady(Duration.ofSeconds(60)))
                .as("the health client's Redis answered")
                .isTrue();
        IdgenHealthIndicator health = new IdgenHealthIndicator(new RedisIdService(
                new RedisWindowedCounter(executor, new InMemorySegmentStore(0, Duration.ZERO), prefix + "h:", 1000)));
        closeables.add(health);
        List<long[]> downs = new ArrayList<>();
        Thread healthPoller = pollHealth(health, downs);
        closeables.add(healthPoller::interrupt);

        Worker first = worker(redis.workerArgs());
        Worker second = worker(redis.workerArgs());
        long started = System.nanoTime();
        awaitEveryKind(started, 300, first, second);
        assertThat(health.health(true).getStatus())
                .as("health before the fault")
                .isEqualTo(Status.UP);

        OwnRedisNode master = redis.master();
        long faultAt;
        OwnRedisNode promoted;
        boolean lagged = false;
        switch (fault) {
            case KILL -> {
                faultAt = System.nanoTime();
                master.kill();
                promoted = redis.awaitNewMaster(master);
            }
            case LAGGING -> {
                OwnRedisNode replica = redis.replicaOf(master);
                long caughtUp = master.replOffset();
                replica.awaitReplOffset(caughtUp, DEADLINE);
                replica.signal("STOP");
                // The master counts on while the replica misses it.
                long stoppedAt = System.nanoTime();
                awaitCounts(stoppedAt, 300, new String[] {"I", "G"}, first, second);
                lagged = master.replOffset() > caughtUp;
                faultAt = System.nanoTime();
                master.kill();
                for (OwnRedisNode other : redis.otherReplicas(master, replica)) {
                    other.kill();
                }
                replica.signal("CONT");
                redis.forceFailover(replica);
                promoted = redis.awaitNewMaster(master);
                assertThat(promoted).as("the lagging replica was promoted").isSameAs(replica);
            }
            case MANUAL -> {
                faultAt = System.nanoTime();
                redis.manualFailover(redis.replicaOf(master));
                promoted = redis.awaitNewMaster(master);
            }
            case PARTITION -> {
                master.signal("STOP");
                faultAt = System.nanoTime();
                promoted = redis.awaitNewMaster(master);
                master.signal("CONT");
                // The old master comes back and is made a replica of the new one.
                master.awaitRole("slave", DEADLINE);
            }
            default -> throw new IllegalStateException();
        }
        long promotedAt = System.nanoTime();
        awaitEveryKind(promotedAt, 300, first, second);
        long healthUp = System.nanoTime() + DEADLINE.toNanos();
        while (health.health(true).getStatus() != Status.UP) {
            assertThat(System.nanoTime())
                    .as("health UP again within " + DEADLINE)
                    .isLessThan(healthUp);
            Thread.sleep(100);
        }
        first.stop();
        second.stop();
        healthPoller.interrupt();
        healthPoller.join(10_000);

        Map<String, Integer> totals = new HashMap<>();
        for (String kind : KINDS) {
            Set<String> seen = new HashSet<>();
            int total = 0;
            for (Worker worker : workers) {
                for (String id : worker.ids.get(kind)) {
                    total++;
                    assertThat(seen.add(id))
                            .as("%s ID %s handed out twice (%s, %s)", kind, id, topology, scenario)
                            .isTrue();
                }
            }
            totals.put(kind, total);
        }
        long failoverMillis = TimeUnit.NANOSECONDS.toMillis(promotedAt - faultAt);
        long longestGap = 0;
        Map<String, Long> gaps = new java.util.LinkedHashMap<>();
        for (String kind : KINDS) {
            for (Worker worker : workers) {
                gaps.merge(kind, worker.longestGapMillis(kind, faultAt), Math::max);
            }
            longestGap = Math.max(longestGap, gaps.get(kind));
        }
        long downMillis = 0;
        for (long[] down : downs) {
            assertThat(down[0]).as("health DOWN only after the fault").isGreaterThanOrEqualTo(faultAt);
            assertThat(down[0])
                    .as("health DOWN only until the new master answered, plus the bound")
                    .isLessThan(promotedAt + BOUND.toNanos());
            downMillis += TimeUnit.NANOSECONDS.toMillis(down[1] - down[0]);
        }
        System.out.printf(
                "FAILOVER %s / %s: IDs I=%d G=%d R=%d S=%d, all distinct; failover %d ms; longest wait"
                        + " for an ID %d ms (by kind, ms: %s); health DOWN %d ms%s%n",
                topology,
                scenario,
                totals.get("I"),
                totals.get("G"),
                totals.get("R"),
                totals.get("S"),
                failoverMillis,
                longestGap,
                gaps,
                downMillis,
                fault == Fault.LAGGING ? "; replica lagged: " + lagged : "");
        assertThat(longestGap)
                .as("every kind served again within the failover plus " + BOUND)
                .isLessThan(failoverMillis + BOUND.toMillis());
        if (fault == Fault.LAGGING) {
            assertThat(lagged).as("the promoted replica had missed writes").isTrue();
        }
    }

    /** Polls health every 200 ms and records each DOWN stretch as {from, to}. */
    private static Thread pollHealth(IdgenHealthIndicator health, List<long[]> downs) {
        Thread thread = new Thread(
                () -> {
                    long downSince = -1;
                    while (!Thread.currentThread().isInterrupted()) {
                        boolean up = health.health(true).getStatus() == Status.UP;
                        long now = System.nanoTime();
                        if (!up && downSince < 0) {
                            downSince = now;
                        } else if (up && downSince >= 0) {
                            synchronized (downs) {
                                downs.add(new long[] {downSince, now});
                            }
                            downSince = -1;
                        }
                        try {
                            Thread.sleep(200);
                        } catch (InterruptedException e) {
                            break;
                        }
                    }
                    if (downSince >= 0) {
                        synchronized (downs) {
                            downs.add(new long[] {downSince, System.nanoTime()});
                        }
                    }
                },
                "health-poller");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void awaitEveryKind(long since, long count, Worker... workers) throws InterruptedException {
        awaitCounts(since, count, KINDS, workers);
    }

    private static void awaitCounts(long since, long count, String[] kinds, Worker... workers)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos() + BOUND.toNanos();
        for (Worker worker : workers) {
            for (String kind : kinds) {
                while (worker.countSince(kind, since) < count) {
                    assertThat(worker.process.isAlive()).as("worker alive").isTrue();
                    assertThat(worker.unexpected)
                            .as("lines of the worker's output that are not IDs")
                            .isEmpty();
                    assertThat(System.nanoTime())
                            .as("%d IDs of kind %s within %s", count, kind, DEADLINE.plus(BOUND))
                            .isLessThan(deadline);
                    Thread.sleep(20);
                }
            }
        }
    }

    private Worker worker(String[] redisArgs) throws Exception {
        List<String> command = ChildJvm.command("192m");
        command.addAll(
                List.of("-cp", System.getProperty("java.class.path"), ReplicatedRedisWorkerMain.class.getName()));
        command.addAll(List.of(redisArgs));
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        command.addAll(List.of(mariadb.url(), mariadb.username(), mariadb.password(), table, prefix, "600000"));
        Worker worker = new Worker(new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start());
        workers.add(worker);
        return worker;
    }
}
