package dev.idgen.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class InterleavedSegmentStoreTest {

    private static InterleavedSegmentStore store(long slotSize, int first, SegmentStore... servers) {
        InterleavedSegmentStore.Builder builder =
                InterleavedSegmentStore.builder(slotSize).firstServer(first);
        for (int i = 0; i < servers.length; i++) {
            builder.server("s" + i, servers[i]);
        }
        return builder.build();
    }

    /** A server that cannot be reached. */
    private static final SegmentStore DOWN = new SegmentStore() {

        @Override
        public Segment allocate(String name, long step) {
            throw new StoreUnavailableException("server down");
        }

        @Override
        public void checkAvailable() {
            throw new StoreUnavailableException("server down");
        }
    };

    @Test
    void serverIOwnsTheIthSlotOfEveryRound() {
        InterleavedSegmentStore store =
                store(10, 0, new InMemorySegmentStore(), new InMemorySegmentStore(), new InMemorySegmentStore());
        for (int server = 0; server < 3; server++) {
            for (long local = 1; local <= 200; local++) {
                long id = store.global(server, local);
                assertThat((id - 1) / 10 % 3).as("owner of %d", id).isEqualTo(server);
                assertThat(store.localFloor(server, id)).isEqualTo(local);
                if (local > 1) {
                    assertThat(id).isGreaterThan(store.global(server, local - 1));
                }
            }
            for (long floor = 0; floor <= 400; floor++) {
                long localFloor = store.localFloor(server, floor);
                if (localFloor > 0) {
                    assertThat(store.global(server, localFloor)).isLessThanOrEqualTo(floor);
                }
                assertThat(store.global(server, localFloor + 1)).isGreaterThan(floor);
            }
        }
        assertThat(store.allocate("a", 10)).isEqualTo(new Segment(1, 10));
        assertThat(store.allocate("a", 10)).isEqualTo(new Segment(31, 40));
        assertThat(store.allocate("a", 3)).isEqualTo(new Segment(61, 63));
    }

    @Test
    void blocksOfDifferentServersNeverOverlapUnderManyAllocationsAndFailovers() throws Exception {
        InMemorySegmentStore[] backends = {
            new InMemorySegmentStore(), new InMemorySegmentStore(), new InMemorySegmentStore()
        };
        ExecutorService threads = Executors.newFixedThreadPool(5);
        AtomicBoolean running = new AtomicBoolean(true);
        try {
            List<Future<List<Segment>>> instances = new ArrayList<>();
            for (int instance = 0; instance < 4; instance++) {
                // Each instance its own store over the same servers, starting on different ones.
                InterleavedSegmentStore store = store(16, instance % 3, backends);
                long seed = instance;
                instances.add(threads.submit(() -> {
                    Random random = new Random(seed);
                    List<Segment> served = new ArrayList<>();
                    long floor = 0;
                    for (int i = 0; i < 3000; i++) {
                        Segment segment;
                        try {
                            segment = store.allocateAbove("orders", 1 + random.nextInt(40), floor);
                        } catch (StoreUnavailableException e) {
                            continue; // every server down at that moment
                        }
                        assertThat(segment.first()).isGreaterThan(floor);
                        assertThat(segment.size()).isLessThanOrEqualTo(16);
                        served.add(segment);
                        floor = segment.last();
                    }
                    return served;
                }));
            }
            // Servers fail and come back meanwhile.
            Future<?> chaos = threads.submit(() -> {
                Random random = new Random(42);
                while (running.get()) {
                    InMemorySegmentStore backend = backends[random.nextInt(3)];
                    backend.setAvailable(false);
                    Thread.onSpinWait();
                    backend.setAvailable(true);
                }
            });
            List<Segment> all = new ArrayList<>();
            for (Future<List<Segment>> instance : instances) {
                all.addAll(instance.get(60, TimeUnit.SECONDS));
            }
            running.set(false);
            chaos.get(10, TimeUnit.SECONDS);
            assertThat(all).hasSizeGreaterThan(10_000);
            all.sort(Comparator.comparingLong(Segment::first));
            for (int i = 1; i < all.size(); i++) {
                assertThat(all.get(i).first())
                        .as("%s after %s", all.get(i), all.get(i - 1))
                        .isGreaterThan(all.get(i - 1).last());
            }
            for (Segment segment : all) {
                assertThat((segment.first() - 1) / 16)
                        .as("one slot: %s", segment)
                        .isEqualTo((segment.last() - 1) / 16);
            }
        } finally {
            running.set(false);
            threads.shutdownNow();
        }
    }

    @Test
    void aBlockLiesAboveTheFloorOnEveryServer() {
        for (int first = 0; first < 3; first++) {
            InterleavedSegmentStore store = store(
                    100, first, new InMemorySegmentStore(), new InMemorySegmentStore(), new InMemorySegmentStore());
            for (long floor : new long[] {0, 1, 99, 100, 101, 250, 299, 300, 301, 12_345, 1_000_000}) {
                Segment segment = store.allocateAbove("n" + floor, 50, floor);
                assertThat(segment.first())
                        .as("floor %d from server %d", floor, first)
                        .isGreaterThan(floor);
                assertThat((segment.first() - 1) / 100 % 3).isEqualTo(first);
                // The row was raised: the next block follows, still above.
                Segment next = store.allocateAbove("n" + floor, 50, segment.last());
                assertThat(next.first()).isGreaterThan(segment.last());
            }
        }
    }

    @Test
    void aFailingServerIsSkippedWithinTheCallAndTheNextOneKept() {
        InMemorySegmentStore second = new InMemorySegmentStore();
        InterleavedSegmentStore store = store(10, 0, DOWN, second);
        Segment segment = store.allocate("a", 5);
        assertThat((segment.first() - 1) / 10 % 2).isEqualTo(1);
        assertThat(store.failovers()).isEqualTo(1);
        assertThat(store.servers().get(0).available()).isFalse();
        assertThat(store.servers().get(0).lastError()).contains("server down");
        assertThat(store.servers().get(1).available()).isTrue();
        assertThat(store.servers().get(1).current()).isTrue();
        store.allocate("a", 5);
        assertThat(store.servers().get(0).failures())
                .as("sticks to the server that answered")
                .isEqualTo(1);
        store.checkAvailable(); // one server answers: available
        // Every server is checked (on a thread of its own): the lost one's failure is recorded too.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (store.servers().get(0).failures() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(store.servers().get(0).failures()).isEqualTo(2);

        second.setAvailable(false);
        assertThatThrownBy(() -> store.allocate("a", 5))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("server 0 (s0): server down")
                .hasMessageContaining("server 1 (s1)");
        assertThatThrownBy(store::checkAvailable).isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void aServerComingBackAfterOthersServedNeverRepeatsAndKeepsIdsIncreasing() {
        InMemorySegmentStore first = new InMemorySegmentStore();
        InMemorySegmentStore second = new InMemorySegmentStore();
        InterleavedSegmentStore instance = store(10, 0, first, second);
        try (SegmentIdService ids = SegmentIdService.builder(instance)
                .settings(SegmentSettings.builder().step(4).maxStep(10).build())
                .build()) {
            Set<Long> seen = new HashSet<>();
            long last = 0;
            for (int round = 0; round < 6; round++) {
                // Alternately lose one server, then the other.
                first.setAvailable(round % 2 == 1);
                second.setAvailable(round % 2 == 0);
                for (int i = 0; i < 500; i++) {
                    long id = nextIdWithin(ids, Duration.ofSeconds(30));
                    assertThat(seen.add(id)).as("repeat %d", id).isTrue();
                    assertThat(id).isGreaterThan(last);
                    last = id;
                }
            }
            assertThat(instance.failovers()).isGreaterThanOrEqualTo(5);
        }
    }

    /** Waits (bounded) through the refusals while the buffer's background retry reaches the next server. */
    private static long nextIdWithin(SegmentIdService ids, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        for (; ; ) {
            try {
                return ids.nextId("a");
            } catch (StoreUnavailableException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void aLocalBlockAcrossASlotBoundaryIsServedAsTwoPieces() {
        // A row not on a slot boundary (initial value 5): the local block 6..15 is the end of slot 1 and the start of
        // slot 2, N·S apart.
        InterleavedSegmentStore store =
                store(10, 0, new InMemorySegmentStore(5, Duration.ZERO), new InMemorySegmentStore());
        assertThat(store.allocate("a", 10)).isEqualTo(new Segment(6, 10));
        assertThat(store.splitBlocks()).isEqualTo(1);
        assertThat(store.allocate("a", 10)).isEqualTo(new Segment(21, 25));
        // The piece is gone once a floor passes it.
        store.allocate("b", 10);
        assertThat(store.allocateAbove("b", 10, 1_000).first()).isGreaterThan(1_000);
    }

    @Test
    void theInitialValueIsAGlobalFloor() {
        InterleavedSegmentStore store = InterleavedSegmentStore.builder(10)
                .firstServer(1)
                .server("a", new InMemorySegmentStore())
                .server("b", new InMemorySegmentStore())
                .initialValue(1_000)
                .build();
        assertThat(store.allocate("a", 10)).isEqualTo(new Segment(1_011, 1_020));
    }

    @Test
    void badLayoutsNameTheArgument() {
        assertThatThrownBy(() -> InterleavedSegmentStore.builder(10).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("servers"));
        assertThatThrownBy(() -> InterleavedSegmentStore.builder(0)
                        .server("a", new InMemorySegmentStore())
                        .build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("slotSize"));
        InterleavedSegmentStore.Builder two = InterleavedSegmentStore.builder((1L << 39) + 1)
                .server("a", new InMemorySegmentStore())
                .server("b", new InMemorySegmentStore());
        assertThatThrownBy(two::build)
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("slotSize"))
                .hasMessageContaining("number of servers (2)");
        assertThat(InterleavedSegmentStore.builder(1L << 39)
                        .server("a", new InMemorySegmentStore())
                        .server("b", new InMemorySegmentStore())
                        .build()
                        .slotSize())
                .isEqualTo(1L << 39);
        assertThatThrownBy(() -> InterleavedSegmentStore.builder(10).server("a", null))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("servers"));
        assertThatThrownBy(() -> InterleavedSegmentStore.builder(10)
                        .firstServer(1)
                        .server("a", new InMemorySegmentStore())
                        .build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("firstServer"));
        assertThatThrownBy(() -> store(10, 0, new InMemorySegmentStore()).allocate("a", 0))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("step"));
    }

    @Test
    void idsNearTwoToTheSixtyThreeAreRefused() {
        InterleavedSegmentStore store =
                store(1L << 30, 1, DOWN, new InMemorySegmentStore(Long.MAX_VALUE / 2, Duration.ZERO));
        assertThatThrownBy(() -> store.allocate("a", 10))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("2^63");
    }
}
