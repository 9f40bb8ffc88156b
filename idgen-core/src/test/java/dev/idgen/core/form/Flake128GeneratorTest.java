package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Flake128GeneratorTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ManualTimeSource time = new ManualTimeSource(START);

    private static void assertStrictlyIncreasing(List<Flake128Id> ids) {
        for (int i = 1; i < ids.size(); i++) {
            assertThat(ids.get(i - 1)).isLessThan(ids.get(i));
            assertThat(ids.get(i - 1).toString()).isLessThan(ids.get(i).toString());
        }
    }

    @Test
    void writesTimeWorkerAndSequenceAsFixedWidthHex() {
        Flake128Generator generator = Flake128Generator.builder()
                .workerId(0xABCDEF012345L)
                .timeSource(time)
                .build();
        Flake128Id first = generator.next();
        Flake128Id second = generator.next();
        String millis = String.format("%016x", START.toEpochMilli());
        assertThat(first).hasToString(millis + "abcdef012345" + "0000");
        assertThat(second).hasToString(millis + "abcdef012345" + "0001");
        assertThat(first.timestamp()).isEqualTo(START);
        assertThat(first.workerId()).isEqualTo(0xABCDEF012345L);
        assertThat(second.sequence()).isEqualTo(1);
        assertThat(Flake128Id.parse(second.toString())).isEqualTo(second).hasSameHashCodeAs(second);
        assertThat(Flake128Generator.decode(second))
                .containsExactly(
                        Map.entry("timestamp", START),
                        Map.entry("workerId", 0xABCDEF012345L),
                        Map.entry("sequence", 1));
        time.advanceMillis(1);
        assertThat(generator.next().sequence())
                .as("each millisecond starts at 0")
                .isZero();
    }

    @Test
    void ordersAsItsStrings() {
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 100_000; i++) {
            Flake128Id a =
                    new Flake128Id(random.nextLong(Long.MAX_VALUE), random.nextLong(1L << 48), random.nextInt(1 << 16));
            Flake128Id b = i % 2 == 0
                    ? new Flake128Id(a.timestamp().toEpochMilli(), random.nextLong(1L << 48), 0)
                    : new Flake128Id(random.nextLong(Long.MAX_VALUE), a.workerId(), a.sequence());
            assertThat(Integer.signum(a.compareTo(b)))
                    .isEqualTo(Integer.signum(a.toString().compareTo(b.toString())));
        }
    }

    @Test
    void increasesAsTheClockMovesForwardsAndBackwards() {
        Flake128Generator generator =
                Flake128Generator.builder().workerId(1).timeSource(time).build();
        List<Flake128Id> ids = new ArrayList<>();
        for (long move : new long[] {0, 1, 1, -2, -1000, 999, 3, 0, 5_000, -4_999}) {
            time.advanceMillis(move);
            for (int i = 0; i < 500; i++) {
                ids.add(generator.next());
            }
        }
        assertStrictlyIncreasing(ids);
        assertThat(ids.get(3 * 500).timestamp())
                .as("clock behind: the last millisecond counts on")
                .isEqualTo(START.plusMillis(2));
        assertThat(ids.get(3 * 500).sequence()).isEqualTo(500);
        assertThat(ids.get(9 * 500).timestamp()).isEqualTo(START.plusMillis(5_002));
    }

    @Test
    void aUsedUpSequenceBorrowsTheNextMillisecondAtMostOneSecondAhead() {
        Flake128Generator generator =
                Flake128Generator.builder().workerId(1).timeSource(time).build();
        Flake128Id previous = generator.next();
        time.advanceMillis(-999);
        for (int i = 1; i < 65_536; i++) {
            Flake128Id next = generator.next();
            assertThat(next).isGreaterThan(previous);
            previous = next;
        }
        assertThat(previous.timestamp()).isEqualTo(START);
        assertThat(previous.sequence()).isEqualTo(65_535);
        Flake128Id borrowed = generator.next();
        assertThat(borrowed.timestamp()).isEqualTo(START.plusMillis(1));
        assertThat(borrowed.sequence()).isZero();
        for (int i = 1; i < 65_536; i++) {
            generator.next();
        }
        // The clock steps 11 ms further back: borrowing would now run 12 ms past the limit, too far to wait.
        time.advanceMillis(-11);
        assertThatThrownBy(generator::next)
                .isInstanceOfSatisfying(
                        ClockBackwardsException.class,
                        e -> assertThat(e.behindMillis()).isEqualTo(1011));
        time.advanceMillis(12);
        assertThat(generator.next().timestamp()).isEqualTo(START.plusMillis(2));
    }

    @Test
    void theWorkerIdHas48BitsAndIsRandomByDefault() {
        assertThat(Flake128Generator.builder()
                        .workerId(Flake128Id.MAX_WORKER_ID)
                        .build()
                        .workerId())
                .isEqualTo((1L << 48) - 1);
        for (long bad : new long[] {-1, 1L << 48, Long.MAX_VALUE}) {
            assertThatThrownBy(() -> Flake128Generator.builder().workerId(bad).build())
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("workerId"));
        }
        long a = Flake128Generator.builder().build().workerId();
        long b = Flake128Generator.builder().build().workerId();
        assertThat(a).isBetween(0L, Flake128Id.MAX_WORKER_ID).isNotEqualTo(b);
    }

    @Test
    void parseTakesOnly32LowercaseHexDigitsWithATimestampBelow2To63() {
        String valid = "0000019e1f2a6c00abcdef0123450001";
        assertThat(Flake128Id.parse(valid)).hasToString(valid);
        Map<String, String> bad = Map.of(
                valid.substring(1),
                "has 31 characters",
                valid + "0",
                "has 33 characters",
                valid.toUpperCase(),
                "position 7",
                valid.replace('e', 'g'),
                "position 7",
                "8" + valid.substring(1),
                "below 2^63 milliseconds");
        bad.forEach((input, message) -> assertThatThrownBy(() -> Flake128Id.parse(input))
                .as(input)
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("id"))
                .hasMessageContaining(message));
        assertThatThrownBy(() -> Flake128Id.parse(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void theFormWritesAndDecodesTheHexString() {
        IdForm form =
                Flake128Generator.builder().workerId(7).timeSource(time).build().form("events");
        assertThat(form.form()).isEqualTo("flake128");
        String text = form.next();
        assertThat(form.decode(text))
                .containsExactly(
                        Map.entry("form", "flake128"),
                        Map.entry("timestamp", START),
                        Map.entry("workerId", 7L),
                        Map.entry("sequence", 0));
        assertThat(form.next(3)).hasSize(3).isSorted();
        for (String bad : new String[] {text.substring(2), text.toUpperCase(), null}) {
            assertThatThrownBy(() -> form.decode(bad))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
    }
}
