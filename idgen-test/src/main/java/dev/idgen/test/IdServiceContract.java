package dev.idgen.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link IdService}, as its Javadoc states it: positive IDs, never one twice for a name (also under
 * concurrent callers), IDs increasing on each thread, batches of 1 to {@link IdService#MAX_BATCH_SIZE}, names that
 * follow {@link IdArguments#checkName}, {@code decode} of issued IDs, and {@link IllegalArgumentException}s that name
 * the argument they reject. Every strategy's test extends this class, and so can the test of an {@code IdService} of
 * your own: add {@code idgen-test} and JUnit Jupiter with test scope, and provide the service.
 *
 * <pre>{@code
 * class MyIdServiceTest extends IdServiceContract {
 *
 *     @Override
 *     protected IdService service() {
 *         return new MyIdService(...);
 *     }
 *
 *     @Override
 *     protected boolean idsIncreaseAcrossThreads() {
 *         return true; // only if MyIdService promises it
 *     }
 * }
 * }</pre>
 *
 * <p>The contract calls {@link #service()} once before each test and closes the service after the test when it is
 * {@link AutoCloseable}. Each test draws from names of its own ({@link #uniqueName()}), so a service over a store
 * that outlives a test (a database table, a Redis) passes too. The other protected methods say what a strategy
 * promises beyond the interface; a test whose promise is off is reported as skipped, not as passed.
 */
public abstract class IdServiceContract {

    /** Threads in the concurrency test. */
    protected static final int THREADS = 8;

    /**
     * How long the concurrency test may take in all: generous, because it only has to catch a service that hangs, and
     * a shared CI machine with two cores can be slow.
     */
    protected static final Duration DEADLINE = Duration.ofMinutes(3);

    private static final int BATCH = 16;

    private IdService service;

    /**
     * @return the service under test, new for each test; the contract closes it after the test if it is
     *         {@link AutoCloseable}
     */
    protected abstract IdService service();

    /**
     * Whether IDs increase across threads, not only on each: an ID issued after another call returned (on any thread)
     * is greater than that call's. {@link IdService} does not promise it; a strategy that serves every caller from
     * one counter or one generator does.
     *
     * @return {@code false} unless overridden
     */
    protected boolean idsIncreaseAcrossThreads() {
        return false;
    }

    /**
     * Whether each name counts on its own, so that drawing from one name does not move another; {@code false} for a
     * strategy whose names all draw from one sequence (Snowflake), which then keeps IDs distinct across names.
     *
     * @return {@code true} unless overridden
     */
    protected boolean namesAreIndependent() {
        return true;
    }

    /**
     * Whether {@link IdService#decode(long)} reads everything from the ID itself, so that it also decodes an ID it has
     * not issued (yet), rather than looking the ID up.
     *
     * @return {@code true} unless overridden
     */
    protected boolean decodesFromTheIdAlone() {
        return true;
    }

    /**
     * How many IDs each of the {@link #THREADS} threads draws in the concurrency test. A strategy that makes a round
     * trip per call may lower it to stay well inside the {@link #DEADLINE}.
     *
     * @return 20,000 unless overridden
     */
    protected int idsPerThread() {
        return 20_000;
    }

    /**
     * Checks the strategy's own parts of a decoded ID against the ID. The contract has already checked the
     * {@linkplain DecodedId#id() id} and the {@linkplain DecodedId#strategy() strategy}; a strategy whose IDs carry
     * more (a timestamp, a worker id) checks those here.
     *
     * @param id an ID the service issued during the test
     * @param parts what {@link IdService#decode(long)} made of it
     */
    protected void checkParts(long id, DecodedId parts) {}

    /**
     * @return a name no other test uses, so that tests on a shared store do not meet
     */
    protected String uniqueName() {
        return "contract-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @BeforeEach
    void createService() {
        service = service();
        assertThat(service).as("service()").isNotNull();
    }

    @AfterEach
    void closeService() throws Exception {
        if (service instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    @Test
    void concurrentCallersNeverGetTheSameId() throws Exception {
        String name = uniqueName();
        int perThread = idsPerThread();
        boolean ordered = idsIncreaseAcrossThreads();
        // The largest ID whose call has returned: with ordered IDs, every call that starts later must issue above it.
        AtomicLong returned = new AtomicLong();
        AtomicReference<String> outOfOrder = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                results.add(executor.submit(() -> {
                    start.await();
                    long[] ids = new long[perThread];
                    int filled = 0;
                    // Every eighth call is a batch, so batches race with single calls too.
                    for (int call = 0;
                            filled < perThread && !Thread.currentThread().isInterrupted();
                            call++) {
                        long floor = returned.get();
                        long first;
                        if (call % 8 == 7 && perThread - filled >= BATCH) {
                            long[] batch = service.nextIds(name, BATCH);
                            System.arraycopy(batch, 0, ids, filled, BATCH);
                            first = batch[0];
                            filled += BATCH;
                        } else {
                            first = service.nextId(name);
                            ids[filled++] = first;
                        }
                        if (ordered && first <= floor) {
                            outOfOrder.compareAndSet(
                                    null, "a call issued " + first + " after another call" + " had returned " + floor);
                        }
                        returned.accumulateAndGet(ids[filled - 1], Math::max);
                    }
                    return ids;
                }));
            }
            start.countDown();
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            long[] all = new long[THREADS * perThread];
            for (int t = 0; t < THREADS; t++) {
                long[] ids;
                try {
                    ids = results.get(t).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError(
                            THREADS + " threads did not draw " + perThread + " IDs each within " + DEADLINE, e);
                }
                assertStrictlyIncreasingAndPositive(ids, "the IDs of thread " + t);
                System.arraycopy(ids, 0, all, t * perThread, perThread);
            }
            assertDistinct(all);
            assertThat(outOfOrder.get()).as("IDs increase across threads").isNull();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void idsStrictlyIncreaseWithinOneThread() {
        String name = uniqueName();
        long[] ids = new long[2_500];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = service.nextId(name);
        }
        assertStrictlyIncreasingAndPositive(ids, "one thread's IDs");
    }

    @Test
    void aBatchIsCountIncreasingIdsBetweenTheSingleCallsAroundIt() {
        String name = uniqueName();
        long before = service.nextId(name);
        long[] batch = service.nextIds(name, 500);
        long after = service.nextId(name);
        long[] single = service.nextIds(name, 1);

        assertThat(batch).hasSize(500);
        assertStrictlyIncreasingAndPositive(batch, "a batch");
        assertThat(batch[0])
                .as("the batch's first ID, after the single call before it")
                .isGreaterThan(before);
        assertThat(after).as("the single call after the batch").isGreaterThan(batch[499]);
        assertThat(single).hasSize(1);
        assertThat(single[0])
                .as("a batch of one, after the single call before it")
                .isGreaterThan(after);
    }

    @Test
    void theLargestBatchIsServed() {
        String name = uniqueName();
        long before = service.nextId(name);
        long[] batch = service.nextIds(name, IdService.MAX_BATCH_SIZE);
        assertThat(batch).hasSize(IdService.MAX_BATCH_SIZE);
        assertStrictlyIncreasingAndPositive(batch, "a batch of MAX_BATCH_SIZE");
        assertThat(batch[0]).isGreaterThan(before);
    }

    @Test
    void aCountOutsideOneToMaxBatchSizeIsRejectedNamingCount() {
        String name = uniqueName();
        for (int count : new int[] {0, -1, Integer.MIN_VALUE, IdService.MAX_BATCH_SIZE + 1, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> service.nextIds(name, count))
                    .as("count %d", count)
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "count"));
        }
        assertThat(service.nextIds(name, 2))
                .as("a valid batch after the rejected ones")
                .hasSize(2);
    }

    @Test
    void interleavedNamesEachIncrease() {
        List<String> names = List.of(uniqueName(), uniqueName(), uniqueName());
        long[][] ids = new long[names.size()][300];
        for (int i = 0; i < 300; i++) {
            for (int n = 0; n < names.size(); n++) {
                ids[n][i] = service.nextId(names.get(n));
            }
        }
        for (int n = 0; n < names.size(); n++) {
            assertStrictlyIncreasingAndPositive(ids[n], "the IDs of " + names.get(n));
        }
        if (!namesAreIndependent()) {
            assertDistinct(Arrays.stream(ids).flatMapToLong(Arrays::stream).toArray());
        }
    }

    @Test
    void drawingFromOneNameDoesNotMoveAnother() {
        assumeTrue(namesAreIndependent(), "names draw from one sequence");
        String busy = uniqueName();
        String quiet = uniqueName();
        long first = service.nextId(quiet);
        for (int i = 0; i < 1_000; i++) {
            service.nextId(busy);
        }
        long second = service.nextId(quiet);
        assertThat(second - first)
                .as("%s moved on by 1,000 draws from %s", quiet, busy)
                .isBetween(1L, 999L);
    }

    @Test
    void nextIdWithoutANameDrawsFromTheDefaultName() {
        // Draws on one sequence are distinct and increase on this thread, so 1,000 draws from the default name
        // between two unnamed draws move the unnamed sequence on by more than 1,000, and the other way round. A
        // service that drew unnamed IDs from a sequence of their own (another name, another generator) would move on
        // by about one. This holds for a service whose names all share one sequence too.
        int between = 1_000;
        long[] unnamed = new long[2];
        long[] named = new long[between];
        unnamed[0] = service.nextId();
        for (int i = 0; i < between; i++) {
            named[i] = service.nextId(IdService.DEFAULT_NAME);
        }
        unnamed[1] = service.nextId();
        assertStrictlyIncreasingAndPositive(
                new long[] {unnamed[0], named[0], named[between - 1], unnamed[1]},
                "nextId(), 1,000 times nextId(\"default\"), nextId()");
        assertThat(unnamed[1] - unnamed[0])
                .as("nextId() moved on by %d draws of nextId(\"default\")", between)
                .isGreaterThan(between);

        long[] defaults = new long[2];
        defaults[0] = service.nextId(IdService.DEFAULT_NAME);
        for (int i = 0; i < between; i++) {
            service.nextId();
        }
        defaults[1] = service.nextId(IdService.DEFAULT_NAME);
        assertThat(defaults[1] - defaults[0])
                .as("nextId(\"default\") moved on by %d draws of nextId()", between)
                .isGreaterThan(between);
    }

    @Test
    void namesThatFollowTheRuleAreServed() {
        String random = UUID.randomUUID().toString().replace("-", "");
        List<String> valid = List.of(
                "9" + random,
                "A" + random + "._:-",
                ("x" + random + "z".repeat(IdArguments.MAX_NAME_LENGTH)).substring(0, IdArguments.MAX_NAME_LENGTH));
        for (String name : valid) {
            assertThat(service.nextId(name)).as("nextId(\"%s\")", name).isPositive();
            assertThat(service.nextIds(name, 2)).as("nextIds(\"%s\", 2)", name).hasSize(2);
        }
    }

    @Test
    void namesThatBreakTheRuleAreRejectedNamingName() {
        List<String> invalid = Arrays.asList(
                null,
                "",
                "a".repeat(IdArguments.MAX_NAME_LENGTH + 1),
                ".orders",
                "-orders",
                "_orders",
                ":orders",
                "orders/1",
                "orders 1",
                "orders\n",
                "örders",
                "orders*",
                "..");
        for (String name : invalid) {
            assertThatThrownBy(() -> service.nextId(name))
                    .as("nextId(%s)", quoted(name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "name"));
            assertThatThrownBy(() -> service.nextIds(name, 1))
                    .as("nextIds(%s, 1)", quoted(name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "name"));
        }
    }

    @Test
    void anIssuedIdDecodesToPartsOfThatId() {
        String name = uniqueName();
        long single = service.nextId(name);
        long fromBatch = service.nextIds(name, 3)[2];
        for (long id : new long[] {single, fromBatch}) {
            DecodedId parts = service.decode(id);
            assertThat(parts.id()).as("decode(%d).id()", id).isEqualTo(id);
            assertThat(parts.strategy()).as("decode(%d).strategy()", id).isEqualTo(service.strategy());
            Map<String, Object> map = parts.toMap();
            assertThat(map.entrySet())
                    .as("decode(%d).toMap(), strategy first", id)
                    .first()
                    .isEqualTo(Map.entry("strategy", service.strategy()));
            checkParts(id, parts);
        }
    }

    @Test
    void decodingNeedsNothingButTheId() {
        assumeTrue(decodesFromTheIdAlone(), "decode looks IDs up");
        long notYetIssued = service.nextId(uniqueName()) + 1;
        assertThat(service.decode(notYetIssued).id()).isEqualTo(notYetIssued);
    }

    @Test
    void zeroAndNegativeIdsAreNotDecoded() {
        for (long id : new long[] {0, -1, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> service.decode(id))
                    .as("decode(%d)", id)
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "id"));
        }
    }

    @Test
    void theStrategyIsNamed() {
        assertThat(service.strategy()).isNotBlank();
    }

    /**
     * An async call may run on the executor's thread, so its ID follows the blocking ones around it only where IDs
     * increase across threads; everywhere they are distinct.
     */
    @Test
    void asyncCallsBetweenBlockingOnesAreDistinctAndInOrderWhereIdsIncreaseAcrossThreads() throws Exception {
        String name = uniqueName();
        ExecutorService blocking = Executors.newFixedThreadPool(2, daemonThreads());
        try {
            long[] ids = new long[30];
            int filled = 0;
            for (int call = 0; filled < ids.length; call++) {
                switch (call % 3) {
                    case 0 -> ids[filled++] = service.nextId(name);
                    case 1 ->
                        ids[filled++] =
                                service.nextIdAsync(name, blocking).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                    default -> {
                        long[] batch =
                                service.nextIdsAsync(name, 3, blocking).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                        assertThat(batch).hasSize(3);
                        System.arraycopy(batch, 0, ids, filled, 3);
                        filled += 3;
                    }
                }
            }
            if (idsIncreaseAcrossThreads()) {
                assertStrictlyIncreasingAndPositive(ids, "blocking, async and async batch calls in turn");
            } else {
                assertThat(Arrays.stream(ids).min().orElseThrow())
                        .as("the smallest ID")
                        .isPositive();
                assertDistinct(ids);
            }
        } finally {
            blocking.shutdownNow();
        }
    }

    @Test
    void concurrentAsyncCallsNeverGetTheSameId() throws Exception {
        String name = uniqueName();
        ExecutorService blocking = Executors.newFixedThreadPool(THREADS, daemonThreads());
        try {
            // All issued before any is awaited: a strategy that answers on another thread has them all in flight.
            List<CompletableFuture<long[]>> batches = new ArrayList<>();
            List<CompletableFuture<Long>> singles = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                singles.add(service.nextIdAsync(name, blocking));
                if (i % 10 == 0) {
                    batches.add(service.nextIdsAsync(name, BATCH, blocking));
                }
            }
            long[] all = new long[singles.size() + batches.size() * BATCH];
            int n = 0;
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            for (CompletableFuture<Long> single : singles) {
                all[n++] = single.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            for (CompletableFuture<long[]> batch : batches) {
                long[] ids = batch.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertStrictlyIncreasingAndPositive(ids, "an async batch");
                System.arraycopy(ids, 0, all, n, BATCH);
                n += BATCH;
            }
            assertThat(Arrays.stream(all).min().orElseThrow())
                    .as("the smallest ID")
                    .isPositive();
            assertDistinct(all);
        } finally {
            blocking.shutdownNow();
        }
    }

    @Test
    void asyncCallsRejectBadArgumentsAtOnceNamingThem() {
        Executor unused = command -> fail("a rejected call reached the executor");
        for (String name : Arrays.asList(null, "", "orders 1", "..")) {
            assertThatThrownBy(() -> service.nextIdAsync(name, unused))
                    .as("nextIdAsync(%s)", quoted(name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "name"));
            assertThatThrownBy(() -> service.nextIdsAsync(name, 1, unused))
                    .as("nextIdsAsync(%s, 1)", quoted(name))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "name"));
        }
        for (int count : new int[] {0, IdService.MAX_BATCH_SIZE + 1}) {
            assertThatThrownBy(() -> service.nextIdsAsync(uniqueName(), count, unused))
                    .as("count %d", count)
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertNames(e, "count"));
        }
    }

    @Test
    void aRefusingExecutorFailsAnAsyncCallThatNeedsItAndNeverHangsIt() throws Exception {
        String name = uniqueName();
        service.nextId(name); // a name in use: whatever a strategy has in memory, it has now
        Executor full = command -> {
            throw new RejectedExecutionException("full");
        };
        CompletableFuture<Long> future = service.nextIdAsync(name, full);
        try {
            assertThat(future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
                    .as("an ID the strategy had without the executor")
                    .isPositive();
        } catch (ExecutionException e) {
            assertThat(e.getCause())
                    .as("a call the executor refused")
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("idgen.reactive.blocking-queue");
        }
    }

    private static void assertStrictlyIncreasingAndPositive(long[] ids, String what) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] <= 0) {
                fail(what + ": ID #" + i + " is " + ids[i] + ", not positive");
            }
            if (i > 0 && ids[i] <= ids[i - 1]) {
                fail(what + ": ID #" + i + " (" + ids[i] + ") is not greater than the one before (" + ids[i - 1] + ")");
            }
        }
    }

    private static void assertDistinct(long[] ids) {
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        Set<Long> duplicates = new HashSet<>();
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1] && duplicates.size() < 10) {
                duplicates.add(sorted[i]);
            }
        }
        assertThat(duplicates)
                .as("IDs issued more than once (up to 10) among " + ids.length)
                .isEmpty();
    }

    /** The exception names {@code argument}: as its {@link InvalidArgumentException#argument()}, or in its message. */
    private static void assertNames(Throwable e, String argument) {
        if (e instanceof InvalidArgumentException invalid) {
            assertThat(invalid.argument()).as("the rejected argument").isEqualTo(argument);
        }
        assertThat(e.getMessage())
                .as("the message names " + argument)
                .containsPattern("\\b" + Pattern.quote(argument) + "\\b");
    }

    private static String quoted(String name) {
        return name == null ? "null" : "\"" + name.replace("\n", "\\n") + "\"";
    }

    private static ThreadFactory daemonThreads() {
        return task -> {
            Thread thread = new Thread(task, "id-service-contract");
            thread.setDaemon(true);
            return thread;
        };
    }
}
