package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.TimeSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UuidV7GeneratorTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ManualTimeSource time = new ManualTimeSource(START);

    /** The order of a UUID's 16 bytes, which is also the order of its lowercase string. */
    static int compareBytes(UUID a, UUID b) {
        int byMsb = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return byMsb != 0 ? byMsb : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    static void assertStrictlyIncreasing(List<UUID> ids) {
        for (int i = 1; i < ids.size(); i++) {
            UUID before = ids.get(i - 1);
            UUID after = ids.get(i);
            assertThat(compareBytes(before, after)).as("%s < %s", before, after).isNegative();
            assertThat(before.toString().compareTo(after.toString())).isNegative();
        }
    }

    private static Instant timestamp(UUID id) {
        return (Instant) UuidV7Generator.decode(id).get("timestamp");
    }

    @Test
    void issuesVersion7UuidsCarryingTheMillisecond() {
        UuidV7Generator generator = UuidV7Generator.builder().timeSource(time).build();
        UUID id = generator.next();
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(START.toEpochMilli());
        assertThat(UuidV7Generator.decode(id)).containsExactly(Map.entry("timestamp", START), Map.entry("version", 7));
    }

    @Test
    void increasesWithinAMillisecondAndAsTimeMovesForwardsAndBackwards() {
        UuidV7Generator generator = UuidV7Generator.builder().timeSource(time).build();
        List<UUID> ids = new ArrayList<>();
        long[] moves = {0, 1, 0, 5, -3, -2, 0, 1000, -60_000, 1, 60_000, 2};
        for (long move : moves) {
            time.advanceMillis(move);
            for (int i = 0; i < 1000; i++) {
                ids.add(generator.next());
            }
        }
        assertStrictlyIncreasing(ids);
        assertThat(new HashSet<>(ids)).hasSize(ids.size());
        // While the clock was behind, the timestamp stayed on the last millisecond used.
        assertThat(timestamp(ids.get(8 * 1000))).isEqualTo(START.plusMillis(1001));
        assertThat(timestamp(ids.get(9 * 1000 + 999))).isEqualTo(START.plusMillis(1001));
        assertThat(timestamp(ids.get(ids.size() - 1))).isEqualTo(START.plusMillis(1004));
    }

    @Test
    void aUsedUpCounterBorrowsTheNextMillisecondAtMostOneSecondAheadThenWaitsForTheClock() throws Exception {
        // A 12-bit counter seeded at 0x7FF (all random bytes 0xFF) counts 0x7FF..0xFFF: 2049 UUIDs per millisecond.
        ReadCountingTime counting = new ReadCountingTime(time);
        UuidV7Generator generator = UuidV7Generator.builder()
                .timeSource(counting)
                .random(TestRandom.constant(0xFF))
                .counterBits(12)
                .build();
        List<UUID> firstMillisecond = new ArrayList<>();
        for (int i = 0; i < 2049; i++) {
            firstMillisecond.add(generator.next());
        }
        assertThat(firstMillisecond).allSatisfy(id -> assertThat(timestamp(id)).isEqualTo(START));
        assertStrictlyIncreasing(firstMillisecond);
        UUID previous = firstMillisecond.get(2048);
        // The clock stands still: 1000 more milliseconds are borrowed, 2049 UUIDs each, each UUID above the last.
        for (int i = 0; i < 2049 * 1000; i++) {
            UUID next = generator.next();
            assertThat(compareBytes(previous, next)).isNegative();
            if (i % 2049 == 0) {
                assertThat(timestamp(next)).isEqualTo(START.plusMillis(1 + i / 2049));
            }
            previous = next;
        }
        assertThat(timestamp(previous)).isEqualTo(START.plusMillis(1000));

        // At the limit a caller outran the counter, the clock did not step back: the call waits for the clock.
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            long readsBefore = counting.reads.get();
            Future<UUID> waiting = executor.submit(generator::next);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (counting.reads.get() < readsBefore + 3 && !waiting.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(waiting).as("waits on the clock that stands still").isNotDone();
            time.advanceMillis(1);
            UUID resumed = waiting.get(60, TimeUnit.SECONDS);
            assertThat(timestamp(resumed)).isEqualTo(START.plusMillis(1001));
            assertThat(compareBytes(previous, resumed)).isNegative();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aClockSteppedBackFurtherThanTheWaitIsRefusedAtTheLimit() {
        UuidV7Generator generator = UuidV7Generator.builder()
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .counterBits(12)
                .build();
        generator.next();
        time.advanceMillis(-1011);
        // 2048 more on the first millisecond, then borrowing would run 1012 ms ahead: 11 ms past the limit, too far
        // to wait for.
        for (int i = 0; i < 2048; i++) {
            generator.next();
        }
        assertThatThrownBy(generator::next)
                .isInstanceOfSatisfying(
                        ClockBackwardsException.class,
                        e -> assertThat(e.behindMillis()).isEqualTo(1011))
                .hasMessageContaining("more than 1000 ms ahead of the clock");
        time.advanceMillis(12);
        assertThat(timestamp(generator.next()))
                .as("back within the limit: borrowed")
                .isEqualTo(START.plusMillis(1));
    }

    /** Counts the generator's clock readings, to see a caller waiting on the clock. */
    static final class ReadCountingTime implements TimeSource {

        final AtomicLong reads = new AtomicLong();

        private final TimeSource delegate;

        ReadCountingTime(TimeSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public long currentTimeMillis() {
            reads.incrementAndGet();
            return delegate.currentTimeMillis();
        }

        @Override
        public long nanoTime() {
            return delegate.nanoTime();
        }
    }

    @Test
    void aClockFarBehindIsCountedOnUntilTheCounterRunsOut() {
        UuidV7Generator generator = UuidV7Generator.builder()
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .counterBits(12)
                .build();
        UUID first = generator.next();
        time.advanceMillis(-3_600_000);
        List<UUID> ids = new ArrayList<>(List.of(first));
        for (int i = 0; i < 2048; i++) {
            ids.add(generator.next());
        }
        assertThat(ids).allSatisfy(id -> assertThat(timestamp(id)).isEqualTo(START));
        assertStrictlyIncreasing(ids);
        assertThatThrownBy(generator::next)
                .isInstanceOfSatisfying(
                        ClockBackwardsException.class,
                        e -> assertThat(e.behindMillis()).isEqualTo(3_600_000));
        time.advanceMillis(3_600_000);
        assertThat(timestamp(generator.next())).isEqualTo(START.plusMillis(1));
    }

    @Test
    void theCounterTakesRandAAndTheTopOfRandBAndTheRestIsRandom() {
        // All random bytes 0xFF: the 42-bit counter starts at 2^41 - 1, the 32 random bits are all ones.
        UuidV7Generator generator = UuidV7Generator.builder()
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .build();
        UUID first = generator.next();
        UUID second = generator.next();
        assertThat(first.getMostSignificantBits() & 0xFFF)
                .as("rand_a: counter bits 41-30")
                .isEqualTo(0x7FF);
        assertThat(first.getLeastSignificantBits() >>> 32).isEqualTo(0xBFFF_FFFFL);
        assertThat(first.getLeastSignificantBits() & 0xFFFF_FFFFL).isEqualTo(0xFFFF_FFFFL);
        assertThat(second.getMostSignificantBits() & 0xFFF).isEqualTo(0x800);
        assertThat(second.getLeastSignificantBits() >>> 32).isEqualTo(0x8000_0000L);
    }

    @Test
    void readsItsOneSecureRandomInBlocks() {
        TestRandom random = TestRandom.counting();
        UuidV7Generator generator =
                UuidV7Generator.builder().timeSource(time).random(random).build();
        for (int i = 0; i < 40_000; i++) {
            if (i % 100 == 0) {
                time.advanceMillis(1);
            }
            generator.next();
        }
        // 32 random bits per UUID and a 64-bit seed per millisecond: 160,000 + 3,200 bytes, 65,536 per block.
        assertThat(random.nextBytesCalls.get()).isEqualTo(3);
    }

    @Test
    void threadsGetDistinctUuidsEachIncreasing() throws Exception {
        UuidV7Generator generator = UuidV7Generator.builder().build();
        ExecutorService executor = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<UUID>>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(executor.submit(() -> {
                    List<UUID> ids = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        ids.add(generator.next());
                    }
                    return ids;
                }));
            }
            Set<UUID> all = new HashSet<>();
            for (Future<List<UUID>> future : futures) {
                List<UUID> ids = future.get();
                assertStrictlyIncreasing(ids);
                all.addAll(ids);
            }
            assertThat(all).hasSize(160_000);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void refusesTimestampsBeyond48Bits() {
        time.set((1L << 48) - 1);
        UuidV7Generator generator = UuidV7Generator.builder().timeSource(time).build();
        assertThat(generator.next().getMostSignificantBits() >>> 16).isEqualTo((1L << 48) - 1);
        time.advanceMillis(1);
        assertThatThrownBy(generator::next).isInstanceOf(LayoutExhaustedException.class);
    }

    @Test
    void decodeChecksVersionAndVariant() {
        for (UUID other : new UUID[] {
            UUID.randomUUID(),
            UUID.fromString("017f22e2-79b0-8cc3-98c4-dc0c0c07398f"),
            UUID.fromString("017f22e2-79b0-7cc3-c8c4-dc0c0c07398f"),
            null
        }) {
            assertThatThrownBy(() -> UuidV7Generator.decode(other))
                    .as("%s", other)
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
        // RFC 9562 appendix A.6's example UUIDv7.
        assertThat(UuidV7Generator.decode(UUID.fromString("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")))
                .containsEntry("timestamp", Instant.parse("2022-02-22T19:22:22Z"));
    }

    @Test
    void theFormWritesLowercaseStringsAndDecodesThemStrictly() {
        IdForm form = UuidV7Generator.builder().timeSource(time).build().form("events");
        assertThat(form.generator()).isEqualTo("events");
        assertThat(form.form()).isEqualTo("uuid-v7");
        String text = form.next();
        assertThat(text).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(form.decode(text))
                .containsExactly(Map.entry("form", "uuid-v7"), Map.entry("timestamp", START), Map.entry("version", 7));
        assertThat(form.decode(text.toUpperCase())).isEqualTo(form.decode(text));
        assertThat(form.next(5)).hasSize(5).isSorted();

        String example = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
        Map<String, String> bad = Map.of(
                "017f22e2-79b0-7cc3-98c4-dc0c0c07398",
                "has 35",
                "017f22e2-79b0-7cc3-98c4-dc0c0c07398f0",
                "has 37",
                "017f22e279b0-7cc3-98c4-dc0c0c07398f0",
                "hyphen at position 8",
                "1-1-1-1-1",
                "has 9",
                "017f22e2-79b0-7cc3-98c4-dc0c0c07398g",
                "position 35",
                "017f22e2+79b0-7cc3-98c4-dc0c0c07398f",
                "hyphen at position 8",
                "{17f22e2-79b0-7cc3-98c4-dc0c0c07398f",
                "position 0",
                example.replace("-7cc3-", "-4cc3-"),
                "version 4",
                example.replace("-98c4-", "-c8c4-"),
                "variant 6");
        bad.forEach((input, message) -> assertThatThrownBy(() -> form.decode(input))
                .as(input)
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("id"))
                .hasMessageContaining(message));
        assertThatThrownBy(() -> form.decode(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> UuidV7Generator.builder().build().form(null))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("generator"));
    }
}
