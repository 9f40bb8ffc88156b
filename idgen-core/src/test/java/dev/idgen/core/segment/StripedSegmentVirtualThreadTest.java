package dev.idgen.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * Striped segments with a virtual thread per request: every request thread is new, so its stripe is new, and a stripe
 * that claimed {@code stripeSize} IDs up front would leave all but the one or two it used as gaps. The claim starts at
 * one ID and doubles, so the gaps stay below the number of threads.
 */
@EnabledForJreRange(min = JRE.JAVA_21) // virtual threads
class StripedSegmentVirtualThreadTest {

    private static final int THREADS = 10_000;

    private static final int STRIPE_SIZE = 1024;

    private final List<SegmentIdService> services = new ArrayList<>();

    @AfterEach
    void close() {
        services.forEach(SegmentIdService::close);
    }

    /** Built reflectively: the tests compile with --release 17, which has no virtual threads. */
    private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService)
                Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    @Test
    void oneOrTwoIdsPerVirtualThreadLeaveFewerGapsThanThreads() throws Exception {
        // Small blocks, so that claims also meet the end of a block and the switch to the next one.
        SegmentIdService ids = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(SegmentSettings.builder()
                        .step(4096)
                        .maxStep(4096)
                        .stripeSize(STRIPE_SIZE)
                        .awaitTimeout(Duration.ofSeconds(30))
                        .build())
                .build();
        services.add(ids);

        List<Future<long[]>> requests = new ArrayList<>(THREADS);
        // Not try-with-resources: ExecutorService is AutoCloseable from JDK 19 on only, and this compiles for 17.
        ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
        try {
            for (int i = 0; i < THREADS; i++) {
                int calls = 1 + i % 2;
                requests.add(virtualThreads.submit(() -> {
                    long[] got = new long[calls];
                    for (int c = 0; c < calls; c++) {
                        got[c] = ids.nextId("orders");
                    }
                    return got;
                }));
            }
            long[] all = new long[THREADS / 2 * 3];
            int n = 0;
            for (Future<long[]> request : requests) {
                for (long id : request.get(2, TimeUnit.MINUTES)) {
                    all[n++] = id;
                }
            }
            assertThat(n).isEqualTo(all.length);
            assertThat(all).doesNotHaveDuplicates();
            long highest = Arrays.stream(all).max().orElseThrow();
            long lowest = Arrays.stream(all).min().orElseThrow();
            assertThat(lowest).as("a new name starts at 1").isEqualTo(1);
            long unusedBelowHighest = highest - all.length;
            // A thread that makes one call claims one ID; one that makes two claims 1 + 2 and leaves one unused. A
            // stripe claimed whole would leave about THREADS x (STRIPE_SIZE - 1.5) unused.
            assertThat(unusedBelowHighest)
                    .as("IDs below the highest (%d) that no thread handed out", highest)
                    .isLessThanOrEqualTo(THREADS / 2);
        } finally {
            virtualThreads.shutdownNow();
        }
    }
}
