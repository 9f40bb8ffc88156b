package dev.idgen.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SegmentIdServiceTest {

    private final List<SegmentIdService> services = new ArrayList<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        services.forEach(SegmentIdService::close);
        executor.shutdownNow();
    }

    private SegmentIdService service(SegmentStore store, SegmentSettings settings) {
        SegmentIdService service =
                SegmentIdService.builder(store).settings(settings).build();
        services.add(service);
        return service;
    }

    private static SegmentSettings.Builder settings(long step) {
        return SegmentSettings.builder().step(step).maxStep(step).awaitTimeout(Duration.ofSeconds(5));
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static SegmentBufferStats stats(SegmentIdService ids, String name) {
        return ids.stats().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void eachNameCountsUpFromTheStoresInitialValueAcrossSegments() {
        SegmentIdService ids = service(
                new InMemorySegmentStore(1000, Duration.ZERO), settings(10).build());
        for (long expected = 1001; expected <= 1035; expected++) {
            assertThat(ids.nextId("orders")).isEqualTo(expected);
        }
        assertThat(ids.nextId("payments")).isEqualTo(1001);
        assertThat(ids.nextId()).isEqualTo(1001);
        assertThat(ids.strategy()).isEqualTo("segment");
        assertThat(ids.decode(5).toMap()).containsEntry("strategy", "segment").containsEntry("id", "5");
        assertThat(ids.generatedCount()).isEqualTo(37);
    }

    @Test
    void aBatchSpansSegmentsInOneCallAndKeepsOrder() {
        SegmentIdService ids = service(new InMemorySegmentStore(), settings(10).build());
        ids.nextId("orders");
        long[] batch = ids.nextIds("orders", 25);
        assertThat(batch).hasSize(25).isSorted().doesNotHaveDuplicates();
        assertThat(batch[0]).isEqualTo(2);
        assertThat(batch[24]).isEqualTo(26);
    }

    @Test
    void theNextSegmentLoadsInTheBackgroundSoCallersDoNotWaitWhileTheBufferLasts() throws Exception {
        // The second load does not finish until the test lets it: however fast or slow the machine, the calls below
        // run while it is in flight, and a caller that waited on it would hang rather than pass.
        InMemorySegmentStore memory = new InMemorySegmentStore();
        CountDownLatch secondLoadMayFinish = new CountDownLatch(1);
        List<Thread> loadingThreads = new CopyOnWriteArrayList<>();
        SegmentIdService ids = service(
                holdingLoadsAfterTheFirst(memory, secondLoadMayFinish, loadingThreads),
                settings(1000).build());
        ids.nextId("orders");
        assertThat(stats(ids, "orders").waits()).isEqualTo(1);
        for (int i = 0; i < 900; i++) {
            ids.nextId("orders");
        }
        // The 201st ID started the load; it is still held, and the 700 IDs after it came from the buffer without
        // waiting.
        assertThat(stats(ids, "orders").waits()).isEqualTo(1);
        assertThat(stats(ids, "orders").loading()).isTrue();
        eventually(() -> loadingThreads.size() == 2);
        assertThat(loadingThreads.get(1))
                .as("the thread that loads the next segment")
                .isNotSameAs(Thread.currentThread());
        secondLoadMayFinish.countDown();
        eventually(() -> stats(ids, "orders").nextRemaining() == 1000);
        for (int i = 0; i < 200; i++) {
            ids.nextId("orders");
        }
        assertThat(stats(ids, "orders").waits()).isEqualTo(1);
        assertThat(memory.allocations()).isEqualTo(2);
    }

    @Test
    void aFastConsumerOfASlowStoreDeepensThePrefetchAndFetchesSeveralBlocksInOneRoundTrip() throws Exception {
        // Blocks of 1,000 against a store taking 20 ms: any consumer loop uses a block far faster than one load takes,
        // so the double buffer alone would leave it waiting on nearly every block.
        List<Long> sizes = new CopyOnWriteArrayList<>();
        InMemorySegmentStore slow = new InMemorySegmentStore(0, Duration.ofMillis(20));
        SegmentIdService ids = service(
                (name, step) -> {
                    sizes.add(step);
                    return slow.allocate(name, step);
                },
                settings(1000).build());
        long last = 0;
        for (int i = 0; i < 200_000; i++) {
            long id = ids.nextId("orders");
            assertThat(id).isGreaterThan(last);
            last = id;
        }
        assertThat(sizes).as("one round trip fetched several blocks").anyMatch(size -> size > 1000);
        assertThat(sizes).allMatch(size -> size % 1000 == 0 && size <= 1000L * SegmentBuffer.MAX_DEPTH);
        // Once the consumer stops, the loads it asked for fill the ready blocks beyond the double buffer's one.
        eventually(() -> !stats(ids, "orders").loading() && stats(ids, "orders").nextRemaining() > 1000);
        long before = last;
        long[] rest = ids.nextIds("orders", 5000);
        assertThat(rest[0]).isGreaterThan(before);
        assertThat(rest).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void pastTheDoubleBufferALoadFillsUpToTwiceTheDepthSoTheStoreIsAskedOncePerSeveralBlocks() throws Exception {
        // Three slow loads (30 ms) at first, then a fast store: the load latency estimate keeps the depth high while
        // every load completes long before the ready blocks run low. Refilled to the depth alone, each block used
        // would then be a request for one block (about 200 here); filled to twice the depth, one brings many.
        List<Long> sizes = new CopyOnWriteArrayList<>();
        InMemorySegmentStore memory = new InMemorySegmentStore();
        SegmentIdService ids = service(
                (name, step) -> {
                    sizes.add(step);
                    if (sizes.size() <= 3) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30));
                    }
                    return memory.allocate(name, step);
                },
                settings(100_000).build());
        long last = 0;
        for (int i = 0; i < 20_000_000; i++) {
            long id = ids.nextId("orders");
            if (id <= last) {
                assertThat(id).isGreaterThan(last);
            }
            last = id;
        }
        assertThat(sizes).as("requests for 200 blocks").hasSizeLessThan(100);
        assertThat(sizes).allMatch(size -> size <= 100_000L * SegmentBuffer.MAX_DEPTH);
        eventually(() -> !stats(ids, "orders").loading());
        assertThat(stats(ids, "orders").nextRemaining()).isLessThanOrEqualTo(100_000L * SegmentBuffer.MAX_READY);
    }

    @Test
    void aStoreThatHandsOutLessThanSeveralBlocksIsSplitWithinWhatItReturned() throws Exception {
        // A store (another implementation) that caps every allocation at 1,500 IDs, whatever was asked: blocks cut
        // from what was asked for would reach past its segment, into IDs the next allocation hands out again.
        InMemorySegmentStore slow = new InMemorySegmentStore(0, Duration.ofMillis(20));
        List<Segment> handedOut = new CopyOnWriteArrayList<>();
        SegmentIdService ids = service(
                (name, step) -> {
                    Segment segment = slow.allocate(name, Math.min(step, 1500));
                    handedOut.add(segment);
                    return segment;
                },
                settings(1000).build());
        java.util.Set<Long> seen = new java.util.HashSet<>();
        long last = 0;
        for (int i = 0; i < 100_000; i++) {
            long id = ids.nextId("orders");
            assertThat(id).isGreaterThan(last);
            assertThat(seen.add(id)).as("ID %d once", id).isTrue();
            last = id;
        }
        long issued = last;
        assertThat(handedOut)
                .as("every ID issued lies in a segment the store handed out")
                .anyMatch(segment -> segment.first() <= issued && issued <= segment.last());
        assertThat(seen).allMatch(id -> handedOut.stream().anyMatch(s -> s.first() <= id && id <= s.last()));
    }

    @Test
    void aSteadyModerateRateKeepsTheDoubleBuffer() throws Exception {
        // 3 s loads (on the service's clock), but a block lasts 10 s at this rate: one block ahead is enough.
        List<Long> sizes = new CopyOnWriteArrayList<>();
        InMemorySegmentStore memory = new InMemorySegmentStore();
        ManualTimeSource time = new ManualTimeSource(Instant.parse("2026-06-01T00:00:00Z"));
        SegmentIdService ids = SegmentIdService.builder((name, step) -> {
                    sizes.add(step);
                    time.advanceMillis(3000);
                    return memory.allocate(name, step);
                })
                .timeSource(time)
                .settings(settings(100).build())
                .build();
        services.add(ids);
        for (int i = 0; i < 1000; i++) {
            time.advanceMillis(100); // 10 IDs a second: a block of 100 lasts 10 s
            ids.nextId("orders");
            if (i % 100 == 20) {
                eventually(() -> !stats(ids, "orders").loading());
            }
        }
        assertThat(sizes).containsOnly(100L);
        assertThat(stats(ids, "orders").nextRemaining()).isLessThanOrEqualTo(100);
    }

    @Test
    void aCallerGivesUpAfterTheAwaitTimeoutWhenTheStoreIsSlow() {
        // A store that answers only when the test lets it (or after two minutes): a caller that waited for it rather
        // than for the timeout would take far longer than the bound below.
        CountDownLatch storeMayAnswer = new CountDownLatch(1);
        InMemorySegmentStore memory = new InMemorySegmentStore();
        SegmentStore hanging = (name, step) -> {
            try {
                storeMayAnswer.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return memory.allocate(name, step);
        };
        SegmentIdService ids = service(
                hanging,
                settings(10)
                        .awaitTimeout(Duration.ofMillis(200))
                        .firstLoadTimeout(Duration.ofMillis(300))
                        .build());
        try {
            long started = System.nanoTime();
            assertThatThrownBy(() -> ids.nextId("orders"))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("No IDs left for 'orders': the next segment did not load within 300 ms");
            // 300 ms configured; the rest is room for a loaded machine.
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("time the caller waited")
                    .isLessThan(Duration.ofSeconds(30));
            assertThat(stats(ids, "orders").refusing())
                    .as("the name cannot serve now")
                    .isTrue();
        } finally {
            storeMayAnswer.countDown();
        }
    }

    @Test
    void aNamesFirstSegmentMayTakeLongerThanTheAwaitTimeoutAtDefaultSettings() throws Exception {
        // A busy machine: the first load (row creation, first connection) takes longer than a later segment's wait.
        InMemorySegmentStore slow = new InMemorySegmentStore(
                0, SegmentSettings.DEFAULTS.awaitTimeout().plusMillis(500));
        SegmentIdService ids = service(slow, SegmentSettings.DEFAULTS);
        assertThat(ids.nextId("orders")).isEqualTo(1);
        assertThat(SegmentSettings.DEFAULTS.firstLoadTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aLaterSegmentStillWaitsOnlyTheAwaitTimeout() throws Exception {
        InMemorySegmentStore real = new InMemorySegmentStore();
        CountDownLatch slowLoads = new CountDownLatch(1);
        SegmentStore laterLoadsHang = holdingLoadsAfterTheFirst(real, slowLoads, new CopyOnWriteArrayList<>());
        // A first-load timeout far beyond the await timeout, so that waiting the wrong one cannot pass for a slow
        // machine: the later loads hang until the test lets them.
        SegmentIdService ids = service(
                laterLoadsHang,
                settings(10)
                        .awaitTimeout(Duration.ofMillis(200))
                        .firstLoadTimeout(Duration.ofSeconds(90))
                        .build());
        ids.nextIds("orders", 10);
        long started = System.nanoTime();
        assertThatThrownBy(() -> ids.nextId("orders"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("No IDs left for 'orders': the next segment did not load within 200 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("not the 90 s first-load timeout")
                .isLessThan(Duration.ofSeconds(30));
        assertThat(stats(ids, "orders").refusing()).isTrue();
        slowLoads.countDown();
        eventually(() -> !stats(ids, "orders").refusing());
        assertThat(ids.nextId("orders")).isEqualTo(11);
    }

    @Test
    void aNameThatRanOutWhileTheStoreWasDownRecoversWithoutACaller() throws Exception {
        InMemorySegmentStore store = new InMemorySegmentStore();
        SegmentIdService ids =
                service(store, settings(10).awaitTimeout(Duration.ofMillis(200)).build());
        ids.nextId("orders");
        store.setAvailable(false);
        for (int i = 0; i < 9; i++) {
            ids.nextId("orders");
        }
        assertThatThrownBy(() -> ids.nextId("orders")).isInstanceOf(StoreUnavailableException.class);
        assertThat(stats(ids, "orders").refusing()).isTrue();
        store.setAvailable(true);
        // No caller comes: the background retry loads the next segment by itself, and the name can serve again.
        eventually(
                () -> !stats(ids, "orders").refusing() && stats(ids, "orders").remaining() > 0);
        assertThat(ids.nextId("orders")).isEqualTo(11);
    }

    @Test
    void aPreloadThatCannotStartNeverFailsACallerWhoHoldsAValidId() {
        java.util.concurrent.ScheduledExecutorService loader = Executors.newSingleThreadScheduledExecutor();
        SegmentIdService ids = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(settings(10).preloadThreshold(0.5).build())
                .loader(loader)
                .build();
        services.add(ids);
        assertThat(ids.nextId("orders")).isEqualTo(1);
        loader.shutdownNow();
        for (long expected = 2; expected <= 10; expected++) {
            // The 5th ID starts the preload, which the shut-down loader refuses: the caller still gets its ID.
            assertThat(ids.nextId("orders")).isEqualTo(expected);
        }
        assertThatThrownBy(() -> ids.nextId("orders"))
                .isInstanceOf(dev.idgen.core.IdGenerationException.class)
                .hasMessageContaining("loader is shut down");
    }

    @Test
    void refusesNewNamesPastTheLimitButKeepsServingTheOthers() throws Exception {
        SegmentIdService ids = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(settings(10).build())
                .maxNames(3)
                .build();
        services.add(ids);
        ids.nextId("a");
        ids.nextId("b");
        // Many threads race for the last free place: exactly one name gets it.
        List<Future<Boolean>> racers = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            String name = "c" + i;
            racers.add(executor.submit(() -> {
                start.await();
                try {
                    ids.nextId(name);
                    return true;
                } catch (dev.idgen.core.NameLimitExceededException e) {
                    return false;
                }
            }));
        }
        start.countDown();
        int admitted = 0;
        for (Future<Boolean> racer : racers) {
            admitted += racer.get(1, TimeUnit.MINUTES) ? 1 : 0;
        }
        assertThat(admitted).isEqualTo(1);
        assertThat(ids.nameCount()).isEqualTo(3);
        assertThat(ids.stats()).hasSize(3);
        assertThatThrownBy(() -> ids.nextIds("d", 2))
                .isInstanceOf(dev.idgen.core.NameLimitExceededException.class)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("limit of 3 names")
                .extracting(e -> ((InvalidArgumentException) e).argument())
                .isEqualTo("name");
        assertThatThrownBy(() -> ids.sequence("d")).isInstanceOf(dev.idgen.core.NameLimitExceededException.class);
        assertThat(ids.nextId("a")).isEqualTo(2);
        assertThatThrownBy(() -> SegmentIdService.builder(new InMemorySegmentStore())
                        .maxNames(0)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("maxNames must be between 1");
        SegmentIdService defaults =
                SegmentIdService.builder(new InMemorySegmentStore()).build();
        services.add(defaults);
        assertThat(defaults.maxNames()).isEqualTo(1000);
    }

    @Test
    void carriesOnFromTheBufferWhileTheStoreIsDownThenFailsFastAndRecovers() throws Exception {
        InMemorySegmentStore store = new InMemorySegmentStore();
        // An await timeout far beyond what failing fast takes, even on a loaded machine.
        SegmentIdService ids = service(
                store, settings(100).awaitTimeout(Duration.ofSeconds(60)).build());
        long first = ids.nextId("orders");
        store.setAvailable(false);
        long last = first;
        for (int i = 0; i < 99; i++) {
            long id = ids.nextId("orders");
            assertThat(id).isGreaterThan(last);
            last = id;
        }
        eventually(() -> stats(ids, "orders").fetchFailures() > 0);
        assertThat(stats(ids, "orders").lastFailure()).contains("marked unavailable");

        long started = System.nanoTime();
        assertThatThrownBy(() -> ids.nextId("orders"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("the segment store failed");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("fails fast, not after the 60 s await timeout")
                .isLessThan(Duration.ofSeconds(30));

        store.setAvailable(true);
        assertThat(ids.nextId("orders")).isGreaterThan(last);
        assertThat(stats(ids, "orders").lastFailure()).isNull();
    }

    @Test
    void aStoreThatPassesTheFloorAfterGoingBackServesOnAboveTheHighestIdServed() throws Exception {
        // Raises its counter to the floor first, as the database store does (GREATEST).
        InMemorySegmentStore memory = new InMemorySegmentStore();
        SegmentIdService ids = service(memory, settings(10).build());
        assertThat(ids.nextIds("orders", 10)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        eventually(() -> stats(ids, "orders").nextRemaining() == 10);
        // The store loses its data (a failover to a replica that lagged): it would answer [1, 10] again.
        memory.clear();
        assertThat(ids.nextIds("orders", 10)).containsExactly(11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
        // The next block lies above 20, the highest ID served: nothing repeats, and the name is never refused.
        long[] next = ids.nextIds("orders", 30);
        assertThat(next[0]).isGreaterThan(20);
        for (int i = 1; i < next.length; i++) {
            assertThat(next[i]).isGreaterThan(next[i - 1]);
        }
        assertThat(stats(ids, "orders").refusing()).isFalse();
    }

    @Test
    void refusesASegmentThatDoesNotFollowThePreviousOneFromAStoreThatIgnoresTheFloor() throws Exception {
        InMemorySegmentStore store = new InMemorySegmentStore();
        // The default allocateAbove: the floor is ignored.
        SegmentStore ignoresTheFloor = store::allocate;
        SegmentIdService ids = service(ignoresTheFloor, settings(10).build());
        assertThat(ids.nextIds("orders", 10)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        eventually(() -> stats(ids, "orders").nextRemaining() == 10);
        store.clear();
        // The buffered [11, 20] is still good; the store now answers [1, 10] again, which is refused.
        assertThat(ids.nextIds("orders", 10)).containsExactly(11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
        assertThatThrownBy(() -> ids.nextId("orders"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("may have lost data");
        // For good: a store that does not pass the floor would move on until a block passes this instance's highest
        // ID (21 on the third try), while other instances may have served above it.
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> ids.nextId("orders"))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("may have lost data");
        }
        assertThat(stats(ids, "orders").refusing()).isTrue();
    }

    @Test
    void refusesSegmentsSoCloseTo2To63ThatTheCursorCouldWrap() {
        SegmentIdService ids = service(
                new InMemorySegmentStore(Long.MAX_VALUE - 1000, Duration.ZERO),
                settings(10).build());
        assertThatThrownBy(() -> ids.nextId("orders"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("close to 2^63");
    }

    @Test
    void sizesEachFetchSoASegmentLastsAboutTheBufferDuration() throws Exception {
        ManualTimeSource time = new ManualTimeSource(Instant.parse("2026-06-01T00:00:00Z"));
        List<Long> steps = new CopyOnWriteArrayList<>();
        InMemorySegmentStore memory = new InMemorySegmentStore();
        SegmentStore recording = (name, step) -> {
            steps.add(step);
            return memory.allocate(name, step);
        };
        SegmentIdService ids = SegmentIdService.builder(recording)
                .timeSource(time)
                .settings(SegmentSettings.builder()
                        .step(100)
                        .maxStep(10_000)
                        .bufferDuration(Duration.ofSeconds(10))
                        .build())
                .build();
        services.add(ids);
        for (int i = 0; i < 20; i++) {
            ids.nextId("orders");
        }
        time.advanceMillis(1000);
        ids.nextId("orders"); // the 21st starts the preload: 21 IDs in 1 s; 10 s of that is 210, capped at 2 x 100
        eventually(() -> steps.size() == 2);
        assertThat(steps).containsExactly(100L, 200L);

        for (int i = 0; i < 119; i++) {
            ids.nextId("orders"); // IDs 22 to 140: the rest of the first segment and 20% of the second, less one
        }
        time.advanceMillis(60_000);
        ids.nextId("orders"); // 120 IDs in 60 s: 2/s, 20 in 10 s, but at most halved: 100
        eventually(() -> steps.size() == 3);
        assertThat(steps.get(2)).isEqualTo(100L);
    }

    @Test
    void manyThreadsGetUniqueIdsIncreasingOnEachThread() throws Exception {
        SegmentIdService ids = service(
                new InMemorySegmentStore(0, Duration.ofMillis(1)), settings(500).build());
        assertUniqueAcross(List.of(ids, ids, ids, ids), 100_000);
    }

    @Test
    void twoInstancesOnOneStoreNeverShareAnId() throws Exception {
        InMemorySegmentStore shared = new InMemorySegmentStore(0, Duration.ofMillis(1));
        SegmentIdService a = service(shared, settings(300).build());
        SegmentIdService b = service(shared, settings(700).build());
        assertUniqueAcross(List.of(a, b, a, b), 100_000);
    }

    private void assertUniqueAcross(List<SegmentIdService> callers, int perCaller) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (SegmentIdService ids : callers) {
            results.add(executor.submit(() -> {
                start.await();
                long[] out = new long[perCaller];
                for (int i = 0; i < perCaller; i++) {
                    out[i] = i % 10 == 0 ? ids.nextIds("orders", 1)[0] : ids.nextId("orders");
                }
                return out;
            }));
        }
        start.countDown();
        long[] all = new long[callers.size() * perCaller];
        int n = 0;
        for (Future<long[]> result : results) {
            long[] ids = result.get(60, TimeUnit.SECONDS);
            for (int i = 1; i < ids.length; i++) {
                assertThat(ids[i]).isGreaterThan(ids[i - 1]);
            }
            System.arraycopy(ids, 0, all, n, ids.length);
            n += ids.length;
        }
        assertThat(all).doesNotHaveDuplicates();
    }

    @Test
    void stripedModeKeepsIdsUniqueAndIncreasingPerThread() throws Exception {
        SegmentIdService ids = service(
                new InMemorySegmentStore(0, Duration.ofMillis(1)),
                settings(5000).stripeSize(64).build());
        assertUniqueAcross(List.of(ids, ids, ids, ids), 100_000);
        dev.idgen.core.IdSequence sequence = ids.sequence("other");
        long first = sequence.nextId();
        assertThat(sequence.nextId()).isEqualTo(first + 1);
        long[] batch = sequence.nextIds(2);
        assertThat(batch[1]).isGreaterThan(batch[0]);
        assertThat(batch).doesNotContain(first, first + 1);
        assertThat(sequence.name()).isEqualTo("other");
        assertThat(sequence.strategy()).isEqualTo("segment");
    }

    @Test
    void stripedModeWithANewThreadPerCallClaimsOnlyTheIdsItUses() throws Exception {
        java.util.concurrent.atomic.AtomicInteger allocations = new java.util.concurrent.atomic.AtomicInteger();
        InMemorySegmentStore memory = new InMemorySegmentStore();
        SegmentStore counting = (name, step) -> {
            allocations.incrementAndGet();
            return memory.allocate(name, step);
        };
        SegmentIdService ids = service(counting, settings(1000).stripeSize(1000).build());
        List<Long> got = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 20; i++) {
            // A new thread per request (as with virtual threads): each makes one call and ends.
            Thread request = new Thread(() -> got.add(ids.nextId("orders")));
            request.start();
            request.join(60_000);
            assertThat(request.isAlive()).isFalse();
        }
        assertThat(got).hasSize(20).doesNotHaveDuplicates();
        assertThat(got.stream().mapToLong(Long::longValue).max().orElseThrow()
                        - got.stream().mapToLong(Long::longValue).min().orElseThrow())
                .as("no gaps: each thread claimed the one ID it used")
                .isEqualTo(19);
        assertThat(allocations).as("one segment of 1,000 serves them all").hasValue(1);
    }

    @Test
    void rejectsBadArguments() {
        SegmentIdService ids = service(new InMemorySegmentStore(), settings(10).build());
        assertThatThrownBy(() -> ids.nextId(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> ids.nextId("a b"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("name must be");
        assertThatThrownBy(() -> ids.nextIds("orders", 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("count must be");
        assertThatThrownBy(() -> ids.decode(-1)).isInstanceOf(InvalidArgumentException.class);
        assertThat(ids.stats()).isEmpty();
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> SegmentSettings.builder().step(0).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("step must be between 1 and 1000000000, but was 0");
        assertThatThrownBy(
                        () -> SegmentSettings.builder().step(100).minStep(200).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("minStep"));
        assertThatThrownBy(() -> SegmentSettings.builder().step(100).maxStep(50).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("maxStep"));
        assertThatThrownBy(() -> SegmentSettings.builder().preloadThreshold(1).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("less than 1");
        assertThatThrownBy(() ->
                        SegmentSettings.builder().bufferDuration(Duration.ZERO).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("bufferDuration");
        assertThatThrownBy(() -> SegmentSettings.builder()
                        .awaitTimeout(Duration.ofMinutes(2))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("awaitTimeout");
        assertThatThrownBy(() -> SegmentSettings.builder().stripeSize(-1).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("stripeSize");
        assertThatThrownBy(() -> SegmentSettings.builder()
                        .firstLoadTimeout(Duration.ofMinutes(6))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("firstLoadTimeout must be between 0 and 5m, but was PT6M");
        assertThat(SegmentSettings.DEFAULTS.minStep()).isEqualTo(1000);
        assertThat(SegmentSettings.DEFAULTS.stripeSize()).isZero();
    }

    /**
     * {@code store}, with every allocation after the first held until {@code release} opens (for at most two minutes);
     * each allocating thread is added to {@code loaders} as it starts.
     */
    private static SegmentStore holdingLoadsAfterTheFirst(
            SegmentStore store, CountDownLatch release, List<Thread> loaders) {
        java.util.concurrent.atomic.AtomicInteger allocations = new java.util.concurrent.atomic.AtomicInteger();
        return (name, step) -> {
            loaders.add(Thread.currentThread());
            if (allocations.incrementAndGet() > 1) {
                try {
                    release.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return store.allocate(name, step);
        };
    }
}
