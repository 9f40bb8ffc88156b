package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.ChildJvm;
import dev.idgen.test.services.TestServices;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate JVM processes drawing from the same names on real MariaDB, at once and across a {@code kill -9}.
 */
class MultiProcessUniquenessTest {

    private final String table =
            "idgen_mp_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        processes.forEach(Process::destroyForcibly);
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private Process worker(String strategy, long count, String... segmentLog) throws Exception {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        List<String> command = ChildJvm.command("256m");
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                IdWorkerMain.class.getName(),
                strategy,
                mariadb.url(),
                mariadb.username(),
                mariadb.password(),
                table,
                "orders",
                Long.toString(count)));
        command.addAll(List.of(segmentLog));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        processes.add(process);
        return process;
    }

    /**
     * Reads IDs from the process until it ends, or until {@code stop} says enough (then it is killed with -9). Only
     * lines that end in a newline count: a SIGKILL that lands in the middle of a write leaves the last line cut short,
     * and that ID never reached the pipe whole (read as a number, it would be a different, smaller ID).
     */
    private static CompletableFuture<long[]> read(Process process, LongPredicate stop) {
        return CompletableFuture.supplyAsync(() -> {
            long[] ids = new long[1 << 16];
            int n = 0;
            try (java.io.InputStream in = new java.io.BufferedInputStream(process.getInputStream(), 1 << 16)) {
                long value = 0;
                int digits = 0;
                int b;
                while ((b = in.read()) >= 0) {
                    if (b >= '0' && b <= '9' && digits < 18) {
                        value = value * 10 + (b - '0');
                        digits++;
                        continue;
                    }
                    if (b != '\n' || digits == 0) {
                        throw new IllegalStateException("Not an ID on the worker's output, after " + n + " IDs: "
                                + (b == '\n' ? "an empty line" : "byte " + b));
                    }
                    if (n == ids.length) {
                        ids = java.util.Arrays.copyOf(ids, n * 2);
                    }
                    ids[n++] = value;
                    value = 0;
                    digits = 0;
                    if (stop.test(n) && process.isAlive()) {
                        // SIGKILL through the handle, which (unlike Process.destroyForcibly) leaves our end of the
                        // pipe open: what already reached it was handed out and is still read.
                        process.toHandle().destroyForcibly();
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return java.util.Arrays.copyOf(ids, n);
        });
    }

    private static void assertNoDuplicates(long[]... batches) {
        int total = 0;
        for (long[] batch : batches) {
            total += batch.length;
        }
        long[] all = new long[total];
        int n = 0;
        for (long[] batch : batches) {
            System.arraycopy(batch, 0, all, n, batch.length);
            n += batch.length;
        }
        java.util.Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            assertThat(all[i]).as("ID handed out twice").isNotEqualTo(all[i - 1]);
        }
    }

    @Test
    void twoProcessesDrawAMillionSegmentIdsWithoutADuplicate() throws Exception {
        drawFromTwoProcessesAtOnce("segment", 500_000);
    }

    @Test
    void twoProcessesDrawTwentyThousandTicketsWithoutADuplicate() throws Exception {
        long[] all = drawFromTwoProcessesAtOnce("ticket", 10_000);
        assertThat(java.util.Arrays.stream(all).max().orElseThrow())
                .as("dense: no gaps without failures")
                .isEqualTo(20_000);
    }

    private long[] drawFromTwoProcessesAtOnce(String strategy, int each) throws Exception {
        CompletableFuture<long[]> a = read(worker(strategy, each), n -> false);
        CompletableFuture<long[]> b = read(worker(strategy, each), n -> false);
        long[] first = a.get(180, TimeUnit.SECONDS);
        long[] second = b.get(180, TimeUnit.SECONDS);
        assertThat(first).hasSize(each);
        assertThat(second).hasSize(each);
        assertNoDuplicates(first, second);
        return java.util.stream.LongStream.concat(java.util.Arrays.stream(first), java.util.Arrays.stream(second))
                .toArray();
    }

    @Test
    void aSegmentProcessKilledWithSigkillMidSegmentAndRestartedRepeatsNothing(@TempDir Path temp) throws Exception {
        Path segmentLog = temp.resolve("segments");
        Process victim = worker("segment", -1, segmentLog.toString());
        long[] beforeKill = read(victim, n -> n >= 150_000).get(180, TimeUnit.SECONDS);
        assertThat(victim.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(victim.exitValue()).as("killed by SIGKILL").isEqualTo(137);
        assertThat(beforeKill.length).isGreaterThanOrEqualTo(150_000);

        // The case this test is for: the kill left the victim inside a segment, some of it handed out and the rest
        // never, so the restarted process must not take up where the victim's output stopped. (A kill right at a
        // segment's end would leave nothing to repeat.)
        long lastHandedOut = beforeKill[beforeKill.length - 1];
        List<long[]> segments = Files.readAllLines(segmentLog, StandardCharsets.US_ASCII).stream()
                .map(line -> java.util.Arrays.stream(line.split(" "))
                        .mapToLong(Long::parseLong)
                        .toArray())
                .toList();
        long[] killedIn = segments.stream()
                .filter(s -> s[0] <= lastHandedOut && lastHandedOut <= s[1])
                .findFirst()
                .orElseThrow(() -> new AssertionError("no segment of the victim holds its last ID " + lastHandedOut
                        + ": "
                        + segments.stream().map(java.util.Arrays::toString).toList()));
        assertThat(lastHandedOut)
                .as("the victim's last ID, in its segment %s", java.util.Arrays.toString(killedIn))
                .isLessThan(killedIn[1]);

        long[] afterRestart = read(worker("segment", 100_000), n -> false).get(180, TimeUnit.SECONDS);
        assertThat(afterRestart).hasSize(100_000);
        assertNoDuplicates(beforeKill, afterRestart);
    }
}
