package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.ManualTimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimpleflakeGeneratorTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private static final long START_MILLIS = START.toEpochMilli() - SimpleflakeGenerator.DEFAULT_EPOCH.toEpochMilli();

    private final ManualTimeSource time = new ManualTimeSource(START);

    @Test
    void carriesMillisecondsSinceTheEpochAbove23RandomBits() {
        SimpleflakeGenerator generator = SimpleflakeGenerator.builder()
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .build();
        long first = generator.nextId();
        long second = generator.nextId();
        assertThat(first).isEqualTo(START_MILLIS << 23 | 0x7F_FFFF);
        assertThat(second).as("the next value, wrapping round at 2^23").isEqualTo(START_MILLIS << 23);
        assertThat(generator.decode(first))
                .containsExactly(Map.entry("timestamp", START), Map.entry("random", 0x7F_FFFFL));
        assertThat(generator.epoch()).isEqualTo(Instant.parse("2025-01-01T00:00:00Z"));
    }

    @Test
    void laterMillisecondsGiveGreaterIds() {
        SimpleflakeGenerator generator =
                SimpleflakeGenerator.builder().timeSource(time).build();
        long highest = 0;
        for (int ms = 0; ms < 1000; ms++) {
            long lowest = Long.MAX_VALUE;
            long top = 0;
            for (int i = 0; i < 10; i++) {
                long id = generator.nextId();
                assertThat(id).isPositive();
                lowest = Math.min(lowest, id);
                top = Math.max(top, id);
            }
            assertThat(lowest).isGreaterThan(highest);
            highest = top;
            time.advanceMillis(1);
        }
    }

    @Test
    void neverRepeatsWithinAMillisecondAndRefusesToComeRound() {
        SimpleflakeGenerator generator =
                SimpleflakeGenerator.builder().timeSource(time).build();
        BitSet seen = new BitSet(1 << 23);
        for (int i = 0; i < 1 << 23; i++) {
            long id = generator.nextId();
            assertThat(id >>> 23).isEqualTo(START_MILLIS);
            seen.set((int) (id & 0x7F_FFFF));
        }
        assertThat(seen.cardinality()).as("every 23-bit value once").isEqualTo(1 << 23);
        assertThatThrownBy(generator::nextId)
                .isExactlyInstanceOf(IdGenerationException.class)
                .hasMessageContaining("All 2^23 Simpleflake values of " + START);
        time.advanceMillis(-5);
        assertThatThrownBy(generator::nextId)
                .isInstanceOfSatisfying(
                        ClockBackwardsException.class,
                        e -> assertThat(e.behindMillis()).isEqualTo(5));
        time.advanceMillis(6);
        assertThat(generator.nextId() >>> 23).isEqualTo(START_MILLIS + 1);
    }

    @Test
    void aClockThatStepsBackKeepsTheMillisecondAndCountsOn() {
        SimpleflakeGenerator generator =
                SimpleflakeGenerator.builder().timeSource(time).build();
        Set<Long> ids = new HashSet<>();
        for (long move : new long[] {0, 3, -3, -10_000, 2, 1, 0}) {
            time.advanceMillis(move);
            for (int i = 0; i < 10_000; i++) {
                long id = generator.nextId();
                assertThat(ids.add(id)).as("unique").isTrue();
                if (move < 0) {
                    assertThat(id >>> 23).isEqualTo(START_MILLIS + 3);
                }
            }
        }
        assertThat(ids).hasSize(70_000);
    }

    @Test
    void refusesOnceTheMillisecondsReach2To40() {
        Instant epoch = START.minusMillis((1L << 40) - 1);
        SimpleflakeGenerator generator =
                SimpleflakeGenerator.builder().epoch(epoch).timeSource(time).build();
        long last = generator.nextId();
        assertThat(last).isPositive();
        assertThat(last >>> 23).isEqualTo((1L << 40) - 1);
        time.advanceMillis(1);
        assertThatThrownBy(generator::nextId)
                .isInstanceOf(LayoutExhaustedException.class)
                .hasMessageContaining("ran out at " + START.plusMillis(1));
        assertThatThrownBy(() -> SimpleflakeGenerator.builder()
                        .epoch(epoch)
                        .timeSource(time)
                        .build())
                .isInstanceOf(LayoutExhaustedException.class);
        // The default epoch's end, as the Javadoc says.
        assertThat(SimpleflakeGenerator.DEFAULT_EPOCH.plusMillis(1L << 40))
                .isEqualTo(Instant.parse("2059-11-04T19:53:47.776Z"));
        assertThat(Duration.ofMillis(1L << 40).toDays() / 365.25).isBetween(34.8, 34.9);
    }

    @Test
    void checksTheEpoch() {
        for (Instant bad :
                new Instant[] {START.plusMillis(1), Instant.parse("1969-12-31T23:59:59Z"), Instant.MAX, null}) {
            assertThatThrownBy(() -> SimpleflakeGenerator.builder()
                            .epoch(bad)
                            .timeSource(time)
                            .build())
                    .as("%s", bad)
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("epoch"));
        }
        assertThat(SimpleflakeGenerator.builder()
                        .epoch(START)
                        .timeSource(time)
                        .build()
                        .nextId())
                .isBetween(1L, (1L << 23) - 1);
    }

    @Test
    void theEpochsFirstMillisecondSkipsIdZero() {
        for (int startByte : new int[] {0x00, 0x01}) {
            // Random bytes 0x00 start the millisecond at 0, bytes 0x01 at 0x010101: either way ID 0 is skipped.
            SimpleflakeGenerator generator = SimpleflakeGenerator.builder()
                    .epoch(START)
                    .timeSource(time)
                    .random(TestRandom.constant(startByte))
                    .build();
            BitSet seen = new BitSet(1 << 23);
            for (int i = 0; i < (1 << 23) - 1; i++) {
                long id = generator.nextId();
                assertThat(id).isPositive().isLessThan(1L << 23);
                seen.set((int) id);
            }
            assertThat(seen.cardinality()).isEqualTo((1 << 23) - 1);
            assertThat(seen.get(0)).isFalse();
            assertThatThrownBy(generator::nextId).isExactlyInstanceOf(IdGenerationException.class);
        }
    }

    @Test
    void decodeTakesOnlyPositiveIds() {
        SimpleflakeGenerator generator =
                SimpleflakeGenerator.builder().timeSource(time).build();
        for (long bad : new long[] {0, -1, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> generator.decode(bad))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
    }

    @Test
    void theFormWritesAndDecodesDecimal() {
        SimpleflakeGenerator generator =
                SimpleflakeGenerator.builder().timeSource(time).build();
        IdForm form = generator.form("clicks");
        assertThat(form.form()).isEqualTo("simpleflake");
        String text = form.next();
        long id = Long.parseLong(text);
        assertThat(text).isEqualTo(Long.toString(id));
        assertThat(form.decode(text))
                .containsExactly(
                        Map.entry("form", "simpleflake"),
                        Map.entry("timestamp", START),
                        Map.entry("random", id & 0x7F_FFFF),
                        Map.entry("id", text));
        assertThat(form.next(10)).hasSize(10).doesNotHaveDuplicates();
        for (String bad : new String[] {"0", "-1", "0" + text, text + "x", "9223372036854775808", "", null}) {
            assertThatThrownBy(() -> form.decode(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
    }
}
