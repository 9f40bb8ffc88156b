package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.test.ChildJvm;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Separate JVMs against a Redis server of the test's own (no persistence) that is killed and started again empty,
 * or while one JVM is frozen with SIGSTOP. Every ID any of them printed is checked for duplicates.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
// Each method has a Redis server, keys and a table of its own and mostly waits: two run side by side.
@Execution(ExecutionMode.CONCURRENT)
class RedisFaultTest {

    private final String table =
            "idgen_rf_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final String prefix = "f" + UUID.randomUUID().toString().substring(0, 6) + ":";
    private final List<Worker> workers = new ArrayList<>();
    private OwnRedis redis;

    /**
     * One worker JVM, the IDs it printed, each with the time it arrived, and what it wrote to standard error (echoed
     * here too, so that a test can check why a worker ended).
     */
    private static final class Worker {
        final Process process;
        final List<Long> values = new CopyOnWriteArrayList<>();
        final List<Long> arrivals = new CopyOnWriteArrayList<>();
        final List<String> errors = new CopyOnWriteArrayList<>();
        /** The first line the reader could not make sense of: the duplicate check would miss everything after it. */
        volatile String unexpected;

        volatile long workerId = -1;
        /** Whether the worker may end: it was told to stop, or the test expects it to give up by itself. */
        volatile boolean endExpected;

        final Thread reader;
        final Thread errorReader;

        Worker(Process process) {
            this.process = process;
            this.reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (line.startsWith("W ")) {
                            workerId = Long.parseLong(line.substring(2));
                        } else {
                            values.add(Long.parseLong(line));
                            arrivals.add(System.nanoTime());
                        }
                    }
                } catch (java.io.IOException e) {
                    // the process ended
                } catch (RuntimeException e) {
                    unexpected = e.toString();
                }
            });
            reader.setDaemon(true);
            reader.start();
            this.errorReader = new Thread(() -> {
                try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        errors.add(line);
                        System.err.println("[worker " + process.pid() + "] " + line);
                    }
                } catch (java.io.IOException e) {
                    // the process ended
                }
            });
            errorReader.setDaemon(true);
            errorReader.start();
        }

        long countSince(long nanos) {
            return arrivals.stream().filter(t -> t > nanos).count();
        }

        /** Closes the worker's standard input, which stops it, and waits for it to end and its output to be read. */
        void stop() throws Exception {
            endExpected = true;
            process.getOutputStream().close();
            assertThat(process.waitFor(180, TimeUnit.SECONDS))
                    .as("worker ended when told to")
                    .isTrue();
            reader.join(60_000);
            assertThat(reader.isAlive())
                    .as("the worker's output read to its end")
                    .isFalse();
            assertThat(unexpected)
                    .as("a line of the worker's output that is not an ID")
                    .isNull();
        }
    }

    @BeforeEach
    void startRedis() throws Exception {
        redis = OwnRedis.start();
    }

    @AfterEach
    void cleanUp() throws Exception {
        workers.forEach(worker -> worker.process.destroyForcibly());
        redis.close();
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** A worker on the Redis strategy or the dual store, with the database {@link TestServices} found. */
    private Worker segmentWorker(String mode) throws Exception {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return worker(
                mode,
                Integer.toString(redis.port()),
                mariadb.url(),
                mariadb.username(),
                mariadb.password(),
                table,
                prefix,
                MAX_RUN_MILLIS);
    }

    private Worker worker(String... args) throws Exception {
        List<String> command = ChildJvm.command("192m");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RedisWorkerMain.class.getName()));
        command.addAll(List.of(args));
        Worker worker = new Worker(new ProcessBuilder(command).start());
        workers.add(worker);
        return worker;
    }

    private static void assertNoDuplicates(Worker... workers) {
        Set<Long> seen = new HashSet<>();
        long total = 0;
        for (Worker worker : workers) {
            for (long value : worker.values) {
                total++;
                assertThat(seen.add(value)).as("ID %d handed out twice", value).isTrue();
            }
        }
        assertThat(total).isPositive();
    }

    private static void sigstop(Process process, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
                .as("kill -" + signal)
                .isTrue();
        if (signal.equals("STOP")) {
            // kill returns once the signal is sent; the JVM's threads may run on for a moment. Wait until every one
            // of them is stopped, so that what the test reads next (the time) is after the last ID it issued.
            poll(
                    () -> allThreadsStopped(process.pid()),
                    "every thread of process " + process.pid() + " to stop",
                    () -> {});
        }
    }

    private static boolean allThreadsStopped(long pid) {
        java.io.File[] tasks = new java.io.File("/proc/" + pid + "/task").listFiles();
        if (tasks == null) {
            return false;
        }
        for (java.io.File task : tasks) {
            try {
                String stat = java.nio.file.Files.readString(task.toPath().resolve("stat"));
                // The state follows the command name, which is in parentheses and may itself hold spaces.
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if (state != 'T' && state != 't') {
                    return false;
                }
            } catch (java.io.IOException e) {
                // A thread that ended meanwhile: not running.
            }
        }
        return true;
    }

    /** Waits for {@code condition}, failing at once when a worker ended that was not expected to (it says why). */
    private void until(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        poll(condition, what, () -> {
            for (Worker worker : workers) {
                if (!worker.endExpected && !worker.process.isAlive()) {
                    throw new AssertionError("Worker " + worker.process.pid() + " ended (exit status "
                            + worker.process.exitValue() + ") while waiting for " + what + "; what it said, less"
                            + " stack frames: "
                            + worker.errors.stream()
                                    .filter(line -> !line.startsWith("\t"))
                                    .toList());
                }
            }
        });
    }

    private static void poll(java.util.function.BooleanSupplier condition, String what, Runnable check)
            throws InterruptedException {
        // Generous: on a loaded machine a JVM can take a minute to start.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            check.run();
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.sleep(20); // a poll interval, not a wait for something to happen
        }
    }

    /** Workers run until stopped; this bounds them should a test fail before it stops them. */
    private static final String MAX_RUN_MILLIS = "300000";

    @Test
    void twoJvmsOnTheRedisStrategyRepeatNothingAcrossARestartThatEmptiesRedis() throws Exception {
        Worker first = segmentWorker("incr");
        Worker second = segmentWorker("incr");
        until(() -> first.values.size() > 500 && second.values.size() > 500, "both workers to draw IDs");
        redis.kill();
        redis.startServer();
        long restarted = System.nanoTime();
        until(
                () -> first.countSince(restarted) > 100 && second.countSince(restarted) > 100,
                "both workers to carry on after the restart");
        first.stop();
        second.stop();
        assertNoDuplicates(first, second);
    }

    @Test
    void theDualStoreCarriesOnFromTheDatabaseAndResynchronisesWithAnEmptyRedis() throws Exception {
        Worker first = segmentWorker("dual");
        Worker second = segmentWorker("dual");
        until(() -> first.values.size() > 2000 && second.values.size() > 2000, "both workers to draw IDs");
        redis.kill();
        long down = System.nanoTime();
        until(
                () -> first.countSince(down) + second.countSince(down) > 200,
                "IDs from the database while Redis is down");
        redis.startServer();
        long restarted = System.nanoTime();
        until(
                () -> first.countSince(restarted) > 200 && second.countSince(restarted) > 200,
                "both workers to carry on after Redis came back empty");
        // Carrying on proves nothing about Redis: the database alone could serve them. The dual store is back on
        // Redis once its counter of "orders" exists again in the emptied Redis and keeps counting.
        until(() -> redisCounter("orders") != null, "the dual store to install a fresh window in the emptied Redis");
        long counterBack = redisCounter("orders");
        until(
                () -> redisCounter("orders") > counterBack + 500,
                "the workers to draw segments from Redis again, its counter moving on");
        first.stop();
        second.stop();
        assertNoDuplicates(first, second);
    }

    @Test
    void aJvmFrozenPastItsLeaseIssuesNothingWhileAnotherHoldsItsWorkerIdThenLeasesItAfresh() throws Exception {
        String port = Integer.toString(redis.port());
        SnowflakeLayout layout =
                SnowflakeLayout.standard().toBuilder().workerBits(0).build();
        // No worker bits: one worker id (0), so the second JVM can only start once the first one's lease expired.
        Worker frozen = worker("lease", port, prefix, "0", MAX_RUN_MILLIS);
        until(() -> frozen.values.size() > 1000, "the first JVM to draw IDs");
        sigstop(frozen.process, "STOP");
        // Read once the JVM is stopped: anything it issues with a later timestamp was issued after the thaw.
        long freezeMillis = System.currentTimeMillis();
        until(() -> workerIdFree(0), "the frozen JVM's lease to expire and wait out its reuse delay");
        Worker successor = worker("lease", port, prefix, "0", MAX_RUN_MILLIS);
        until(() -> successor.values.size() > 1000, "the second JVM to take worker id 0 and draw IDs");
        assertThat(successor.workerId).isZero();
        sigstop(frozen.process, "CONT");
        long thawed = System.nanoTime();
        until(() -> successor.countSince(thawed) > 1000, "the successor to carry on after the thaw");
        successor.stop();
        long successorNewest = successor.values.stream()
                .mapToLong(id -> timestamp(layout, id))
                .max()
                .orElseThrow();
        until(
                () -> frozen.values.stream().anyMatch(id -> timestamp(layout, id) > successorNewest),
                "the thawed JVM to lease worker id 0 afresh once the successor had gone");
        frozen.stop();
        // At most the one call that was past its lease check when the JVM froze completes, with its earlier time.
        // Everything else the thawed JVM issued came under a fresh lease, after everything the successor issued.
        assertThat(frozen.values.stream().filter(id -> timestamp(layout, id) > freezeMillis))
                .allSatisfy(id -> assertThat(timestamp(layout, id)).isGreaterThan(successorNewest));
        assertNoDuplicates(frozen, successor);
    }

    @Test
    void threeJvmsGetDistinctWorkerIdsAndAFourthFindsNoneLeft() throws Exception {
        String port = Integer.toString(redis.port());
        // Two worker bits, of which the lease store may offer only worker ids 0 to 2: three JVMs take them all.
        String maxWorkerId = "2";
        List<Worker> jvms = List.of(
                worker("lease", port, prefix, "2", MAX_RUN_MILLIS, maxWorkerId),
                worker("lease", port, prefix, "2", MAX_RUN_MILLIS, maxWorkerId),
                worker("lease", port, prefix, "2", MAX_RUN_MILLIS, maxWorkerId));
        until(
                () -> jvms.stream().allMatch(jvm -> jvm.workerId >= 0 && jvm.values.size() > 100),
                "three JVMs to lease worker ids and draw IDs");
        assertThat(jvms.stream().map(jvm -> jvm.workerId)).containsExactlyInAnyOrder(0L, 1L, 2L);

        Worker fourth = worker("lease", port, prefix, "2", MAX_RUN_MILLIS, maxWorkerId);
        fourth.endExpected = true;
        assertThat(fourth.process.waitFor(180, TimeUnit.SECONDS))
                .as("the fourth JVM gave up starting")
                .isTrue();
        fourth.errorReader.join(60_000);
        fourth.reader.join(60_000);
        assertThat(fourth.process.exitValue())
                .as("the fourth JVM's exit status")
                .isNotZero();
        assertThat(fourth.workerId).as("the fourth JVM's worker id").isEqualTo(-1);
        assertThat(fourth.values).as("IDs from the fourth JVM").isEmpty();
        assertThat(String.join("\n", fourth.errors))
                .as("why the fourth JVM did not start")
                .contains(WorkerIdsExhaustedException.class.getName())
                .contains("No worker id from 0 to 2 is free");

        // The fourth took nothing from the three: they still hold their worker ids and serve.
        long fourthEnded = System.nanoTime();
        until(
                () -> jvms.stream().allMatch(jvm -> jvm.countSince(fourthEnded) > 100),
                "the three JVMs to carry on after the fourth gave up");
        for (Worker jvm : jvms) {
            jvm.stop();
        }
        SnowflakeLayout layout =
                SnowflakeLayout.standard().toBuilder().workerBits(2).build();
        for (Worker jvm : jvms) {
            assertThat(jvm.values)
                    .as("IDs of the JVM that leased worker id %d", jvm.workerId)
                    .allSatisfy(id -> assertThat(workerIdOf(layout, id)).isEqualTo(jvm.workerId));
        }
        assertNoDuplicates(jvms.toArray(new Worker[0]));
    }

    @Test
    void leasesSurviveARedisRestartWithoutTwoLiveHolders() throws Exception {
        String port = Integer.toString(redis.port());
        Worker holder = worker("lease", port, prefix, "1", MAX_RUN_MILLIS);
        until(() -> holder.values.size() > 1000, "the first JVM to draw IDs");
        redis.kill();
        redis.startServer();
        long restarted = System.nanoTime();
        Worker newcomer = worker("lease", port, prefix, "1", MAX_RUN_MILLIS);
        until(() -> newcomer.workerId >= 0, "the newcomer to get a worker id");
        assertThat(newcomer.workerId)
                .as("the holder took its worker id back; the newcomer gets the other")
                .isNotEqualTo(holder.workerId);
        until(
                () -> holder.countSince(restarted) > 1000 && newcomer.values.size() > 1000,
                "the holder to keep generating across the restart, beside the newcomer");
        holder.stop();
        newcomer.stop();
        assertNoDuplicates(holder, newcomer);
    }

    /** Whether the lease store would hand {@code workerId} to a newcomer now (ttl expired, reuse delay of 1 s over). */
    private boolean workerIdFree(long workerId) {
        var factory = redis.connectionFactory();
        try (var connection = factory.getConnection()) {
            byte[] expires = connection
                    .hashCommands()
                    .hGet(
                            (prefix + "{workers}").getBytes(StandardCharsets.UTF_8),
                            ("e:" + workerId).getBytes(StandardCharsets.UTF_8));
            Long now = connection.serverCommands().time(TimeUnit.MILLISECONDS);
            return expires == null || Long.parseLong(new String(expires, StandardCharsets.US_ASCII)) + 1000 < now;
        } finally {
            factory.destroy();
        }
    }

    /** @return the dual store's Redis counter of {@code name} (offset included), or null while Redis has none */
    private Long redisCounter(String name) {
        var factory = redis.connectionFactory();
        try (var connection = factory.getConnection()) {
            byte[] value =
                    connection.stringCommands().get((prefix + "{" + name + "}").getBytes(StandardCharsets.UTF_8));
            return value == null ? null : Long.valueOf(new String(value, StandardCharsets.US_ASCII));
        } finally {
            factory.destroy();
        }
    }

    private static long timestamp(SnowflakeLayout layout, long id) {
        return dev.idgen.core.snowflake.SnowflakeDecodedId.decode(layout, id)
                .timestamp()
                .toEpochMilli();
    }

    private static long workerIdOf(SnowflakeLayout layout, long id) {
        return dev.idgen.core.snowflake.SnowflakeDecodedId.decode(layout, id).workerId();
    }

    /**
     * The chaos run's repro: A frozen past its ttl, B leases A's worker id, A thawed, then Redis restarted empty. A
     * must never take worker id 0 back (it used to, once Redis had forgotten B's lease, while B held it), and must not
     * stay down either: it leases the other worker id once that is free, and carries on through the restart.
     */
    @Test
    void aThawedJvmNeverTakesItsWorkerIdBackButLeasesAFreeOneAndKeepsItAcrossAnEmptyRestart() throws Exception {
        String port = Integer.toString(redis.port());
        SnowflakeLayout layout =
                SnowflakeLayout.standard().toBuilder().workerBits(1).build();
        Worker a = worker("lease", port, prefix, "1", MAX_RUN_MILLIS);
        until(() -> a.workerId >= 0 && a.values.size() > 1000, "A to lease a worker id and draw IDs");
        assertThat(a.workerId).isZero();
        Worker occupier = worker("lease", port, prefix, "1", MAX_RUN_MILLIS);
        until(() -> occupier.workerId >= 0, "a second JVM to lease worker id 1");
        assertThat(occupier.workerId).isEqualTo(1);
        sigstop(a.process, "STOP");
        long stopMillis = System.currentTimeMillis();
        until(() -> workerIdFree(0), "A's lease on worker id 0 to expire and wait out its reuse delay");
        Worker b = worker("lease", port, prefix, "1", MAX_RUN_MILLIS);
        until(() -> b.workerId >= 0 && b.values.size() > 500, "B to lease A's worker id once it expired");
        assertThat(b.workerId).isZero();
        sigstop(a.process, "CONT");
        occupier.stop();
        until(
                () -> a.values.stream().anyMatch(id -> workerIdOf(layout, id) == 1),
                "A to lease worker id 1 once the occupier's lease expired");
        redis.kill();
        redis.startServer();
        long restarted = System.nanoTime();
        until(
                () -> a.countSince(restarted) > 1000 && b.countSince(restarted) > 1000,
                "A and B to carry on after Redis came back empty");
        a.stop();
        b.stop();
        for (long id : a.values) {
            if (workerIdOf(layout, id) == 0) {
                // Only IDs from before the freeze (and at most the one call already past its lease check).
                assertThat(timestamp(layout, id))
                        .as("A issued under worker id 0 after it was frozen")
                        .isLessThanOrEqualTo(stopMillis);
            }
        }
        assertThat(b.values).allSatisfy(id -> assertThat(workerIdOf(layout, id)).isZero());
        assertNoDuplicates(a, b, occupier);
    }
}
