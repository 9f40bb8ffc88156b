package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.ManualTimeSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ObjectIdGeneratorTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ManualTimeSource time = new ManualTimeSource(START);

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    private static void assertStaysBlocked(Future<?> future) throws InterruptedException {
        Thread.sleep(100);
        assertThat(future).as("caller should still be waiting").isNotDone();
    }

    @Test
    void parsesAndWritesTheTwelveBytes() {
        // The ObjectId of MongoDB's documentation.
        ObjectId id = ObjectId.parse("507f1f77bcf86cd799439011");
        assertThat(id.timestamp()).isEqualTo(Instant.parse("2012-10-17T21:13:27Z"));
        assertThat(id.processUnique()).isEqualTo(0xbcf86cd799L);
        assertThat(id.counter()).isEqualTo(0x439011);
        assertThat(id).hasToString("507f1f77bcf86cd799439011");
        assertThat(ObjectId.parse("ffffffffffffffffffffffff").timestamp())
                .isEqualTo(Instant.parse("2106-02-07T06:28:15Z"));
        assertThat(ObjectId.parse("000000000000000000000000")).hasToString("000000000000000000000000");
    }

    @Test
    void parseTakesOnly24LowercaseHexDigits() {
        Map<String, String> bad = Map.of(
                "507f1f77bcf86cd79943901", "has 23 characters",
                "507f1f77bcf86cd7994390110", "has 25 characters",
                "507F1F77BCF86CD799439011", "lowercase hex digit at position 3",
                "507f1f77bcf86cd79943901g", "position 23",
                "507f1f77-cf86cd799439011", "position 8");
        bad.forEach((input, message) -> assertThatThrownBy(() -> ObjectId.parse(input))
                .as(input)
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("id"))
                .hasMessageContaining(message));
        assertThatThrownBy(() -> ObjectId.parse(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void ordersAsItsStringsAndEqualsByValue() {
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 100_000; i++) {
            ObjectId a = new ObjectId(random.nextLong(1L << 32), random.nextLong(1L << 40), random.nextInt(1 << 24));
            ObjectId b = i % 3 == 0
                    ? new ObjectId(a.timestamp().getEpochSecond(), a.processUnique(), random.nextInt(1 << 24))
                    : new ObjectId(random.nextLong(1L << 32), a.processUnique(), 0);
            assertThat(Integer.signum(a.compareTo(b)))
                    .isEqualTo(Integer.signum(a.toString().compareTo(b.toString())));
            assertThat(ObjectId.parse(a.toString())).isEqualTo(a).hasSameHashCodeAs(a);
        }
        assertThat(ObjectId.parse("507f1f77bcf86cd799439011")).isNotEqualTo(ObjectId.parse("507f1f77bcf86cd799439012"));
    }

    @Test
    void issuesTheSecondItsRandomBytesAndACounterFromARandomStart() {
        ObjectIdGenerator generator = ObjectIdGenerator.builder()
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .build();
        ObjectId first = generator.next();
        ObjectId second = generator.next();
        String seconds = String.format("%08x", START.getEpochSecond());
        assertThat(first).hasToString(seconds + "ffffffffff" + "ffffff");
        assertThat(second).hasToString(seconds + "ffffffffff" + "000000");
        assertThat(generator.processUnique()).isEqualTo(0xFF_FFFF_FFFFL);
        assertThat(ObjectIdGenerator.decode(first))
                .containsExactly(
                        Map.entry("timestamp", START),
                        Map.entry("processUnique", 0xFF_FFFF_FFFFL),
                        Map.entry("counter", 0xFF_FFFF));

        ObjectIdGenerator other = ObjectIdGenerator.builder().timeSource(time).build();
        ObjectIdGenerator another = ObjectIdGenerator.builder().timeSource(time).build();
        assertThat(other.processUnique()).isNotEqualTo(another.processUnique());
    }

    @Test
    void aClockThatStepsBackKeepsTheSecondAndCountsOn() {
        ObjectIdGenerator generator =
                ObjectIdGenerator.builder().timeSource(time).build();
        List<ObjectId> ids = new ArrayList<>();
        for (long move : new long[] {0, 400, -10_000, 5_000, 5_000, 1_000, -1}) {
            time.advanceMillis(move);
            for (int i = 0; i < 1000; i++) {
                ids.add(generator.next());
            }
        }
        assertThat(new HashSet<>(ids)).hasSize(ids.size());
        assertThat(ids.get(2500).timestamp())
                .as("clock behind: the last second used")
                .isEqualTo(START);
        assertThat(ids.get(5500).timestamp()).isEqualTo(START.plusSeconds(1));
        assertThat(ids.get(6500).timestamp()).isEqualTo(START.plusSeconds(1));
    }

    @Test
    void aSecondWhoseCounterComesRoundWaitsForTheNextSecondInsteadOfRepeating() throws Exception {
        time.advanceMillis(200);
        ObjectIdGenerator generator =
                ObjectIdGenerator.builder().timeSource(time).build();
        BitSet counters = new BitSet(1 << 24);
        for (int i = 0; i < 1 << 24; i++) {
            ObjectId id = generator.next();
            counters.set(id.counter());
            if (i % 100_000 == 0) {
                assertThat(id.timestamp()).isEqualTo(START);
            }
        }
        assertThat(counters.cardinality()).as("every counter value once").isEqualTo(1 << 24);

        // More than a second from the next second: refuses at once.
        time.advanceMillis(-1_500);
        assertThatThrownBy(generator::next)
                .isInstanceOfSatisfying(
                        ClockBackwardsException.class,
                        e -> assertThat(e.behindMillis()).isEqualTo(1_300))
                .hasMessageContaining("2^24");

        // Within the second: waits for the next one.
        time.advanceMillis(1_500);
        Future<ObjectId> waiting = executor.submit(generator::next);
        assertStaysBlocked(waiting);
        time.advanceMillis(799);
        assertStaysBlocked(waiting);
        time.advanceMillis(1);
        ObjectId next = waiting.get(5, TimeUnit.SECONDS);
        assertThat(next.timestamp()).isEqualTo(START.plusSeconds(1));
        assertThat(generator.next().timestamp()).isEqualTo(START.plusSeconds(1));
    }

    @Test
    void anInterruptedWaitIsAnIdGenerationException() throws Exception {
        ObjectIdGenerator generator =
                ObjectIdGenerator.builder().timeSource(time).build();
        for (int i = 0; i < 1 << 24; i++) {
            generator.next();
        }
        Future<ObjectId> waiting = executor.submit(generator::next);
        assertStaysBlocked(waiting);
        waiting.cancel(true);
        Future<Throwable> interrupted = executor.submit(() -> {
            Thread.currentThread().interrupt();
            try {
                generator.next();
                return null;
            } catch (IdGenerationException e) {
                return e;
            }
        });
        assertThat(interrupted.get(5, TimeUnit.SECONDS))
                .isInstanceOf(IdGenerationException.class)
                .hasMessageContaining("Interrupted");
    }

    @Test
    void refusesSecondsBeyond32Bits() {
        time.set(0xFFFF_FFFFL * 1000 + 999);
        ObjectIdGenerator generator =
                ObjectIdGenerator.builder().timeSource(time).build();
        assertThat(generator.next().timestamp()).isEqualTo(Instant.parse("2106-02-07T06:28:15Z"));
        time.advanceMillis(1);
        assertThatThrownBy(generator::next)
                .isInstanceOf(LayoutExhaustedException.class)
                .hasMessageContaining("2106-02-07T06:28:16Z");
    }

    @Test
    void theFormWritesAndDecodesTheHexString() {
        IdForm form = ObjectIdGenerator.builder().timeSource(time).build().form("docs");
        assertThat(form.form()).isEqualTo("object-id");
        String text = form.next();
        assertThat(text).matches("[0-9a-f]{24}");
        assertThat(form.decode(text))
                .containsKeys("form", "timestamp", "processUnique", "counter")
                .containsEntry("form", "object-id")
                .containsEntry("timestamp", START);
        assertThat(form.decode(text).keySet()).containsExactly("form", "timestamp", "processUnique", "counter");
        assertThat(form.next(4)).hasSize(4).doesNotHaveDuplicates();
        for (String bad : new String[] {text.toUpperCase(), text.substring(1), "", null}) {
            assertThatThrownBy(() -> form.decode(bad))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
    }
}
