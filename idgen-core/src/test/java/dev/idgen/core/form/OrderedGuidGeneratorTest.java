package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ClockBackwardsException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.form.OrderedGuidGenerator.Order;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OrderedGuidGeneratorTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ManualTimeSource time = new ManualTimeSource(START);

    private static final Comparator<UUID> SQL_SERVER = OrderedGuidGenerator.sqlServerOrder();

    private static final Comparator<UUID> BYTES = UuidV7GeneratorTest::compareBytes;

    private static UUID uuid(String text) {
        return UUID.fromString(text);
    }

    private static Instant timestamp(UUID id, Order order) {
        return (Instant) OrderedGuidGenerator.decode(id, order).get("timestamp");
    }

    /** 100,000 GUIDs in the order issued, with the clock moving forwards and backwards and many per millisecond. */
    private List<UUID> generate(OrderedGuidGenerator generator) {
        Random moves = new Random(12);
        List<UUID> ids = new ArrayList<>();
        while (ids.size() < 100_000) {
            int step = moves.nextInt(10);
            time.advanceMillis(step < 7 ? step : step == 7 ? -moves.nextInt(50) : 100);
            for (int i = moves.nextInt(30); i >= 0; i--) {
                ids.add(generator.next());
            }
        }
        return ids;
    }

    private static void assertSortsAsIssued(List<UUID> issued, Comparator<UUID> order) {
        for (int i = 1; i < issued.size(); i++) {
            assertThat(order.compare(issued.get(i - 1), issued.get(i)))
                    .as("GUID %d after GUID %d", i, i - 1)
                    .isNegative();
        }
        List<UUID> sorted = new ArrayList<>(issued);
        Collections.shuffle(sorted, new Random(3));
        sorted.sort(order);
        assertThat(sorted).isEqualTo(issued);
        assertThat(new HashSet<>(issued)).hasSize(issued.size());
    }

    @Test
    void theDotNetByteArrayHasTheFirstThreeGroupsLittleEndian() {
        // Guid.Parse("00112233-4455-6677-8899-aabbccddeeff").ToByteArray()
        int[] expected = {0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
        };
        UUID id = uuid("00112233-4455-6677-8899-aabbccddeeff");
        for (int index = 0; index < 16; index++) {
            assertThat(OrderedGuidGenerator.dotNetByte(id, index))
                    .as("byte %d", index)
                    .isEqualTo(expected[index]);
        }
    }

    @Test
    void sqlServerOrderComparesAsSqlGuidOnHandCheckedPairs() {
        // The SqlGuid example of the .NET documentation ("Comparing GUID and uniqueidentifier values"): sorted by the
        // last group, whatever the first says.
        List<UUID> docs = new ArrayList<>(List.of(
                uuid("3AAAAAAA-BBBB-CCCC-DDDD-2EEEEEEEEEEE"),
                uuid("2AAAAAAA-BBBB-CCCC-DDDD-1EEEEEEEEEEE"),
                uuid("1AAAAAAA-BBBB-CCCC-DDDD-3EEEEEEEEEEE")));
        docs.sort(SQL_SERVER);
        assertThat(docs)
                .containsExactly(
                        uuid("2AAAAAAA-BBBB-CCCC-DDDD-1EEEEEEEEEEE"),
                        uuid("3AAAAAAA-BBBB-CCCC-DDDD-2EEEEEEEEEEE"),
                        uuid("1AAAAAAA-BBBB-CCCC-DDDD-3EEEEEEEEEEE"));

        // The last group decides first, left to right.
        assertThat(SQL_SERVER.compare(
                        uuid("ffffffff-ffff-ffff-ffff-000000000000"), uuid("00000000-0000-0000-0000-000000000001")))
                .isNegative();
        assertThat(SQL_SERVER.compare(
                        uuid("00000000-0000-0000-0000-010000000000"), uuid("00000000-0000-0000-0000-00ffffffffff")))
                .isPositive();
        // Then the fourth group, before the third.
        assertThat(SQL_SERVER.compare(
                        uuid("00000000-0000-ffff-0001-000000000000"), uuid("00000000-0000-0000-0002-000000000000")))
                .isNegative();
        // The third group compares its second byte first (.NET byte 6 is the string's hh): 0001 > 0100.
        assertThat(SQL_SERVER.compare(
                        uuid("00000000-0000-0001-0000-000000000000"), uuid("00000000-0000-0100-0000-000000000000")))
                .isPositive();
        // The third before the second, the second before the first; the first group from its last byte.
        assertThat(SQL_SERVER.compare(
                        uuid("ffffffff-ffff-0001-0000-000000000000"), uuid("00000000-0000-0002-0000-000000000000")))
                .isNegative();
        assertThat(SQL_SERVER.compare(
                        uuid("ffffffff-0001-0000-0000-000000000000"), uuid("00000000-0002-0000-0000-000000000000")))
                .isNegative();
        assertThat(SQL_SERVER.compare(
                        uuid("01000000-0000-0000-0000-000000000000"), uuid("00000001-0000-0000-0000-000000000000")))
                .isNegative();
        assertThat(SQL_SERVER.compare(
                        uuid("00112233-4455-6677-8899-aabbccddeeff"), uuid("00112233-4455-6677-8899-aabbccddeeff")))
                .isZero();
    }

    @Test
    void sqlServerGuidsSortAsIssuedInSqlServerOrderOnly() {
        OrderedGuidGenerator generator =
                OrderedGuidGenerator.builder().timeSource(time).build();
        assertThat(generator.order()).isEqualTo(Order.SQL_SERVER);
        List<UUID> issued = generate(generator);
        assertSortsAsIssued(issued, SQL_SERVER);

        List<UUID> byString = new ArrayList<>(issued);
        byString.sort(Comparator.comparing(UUID::toString));
        assertThat(byString).as("the random first groups lead string order").isNotEqualTo(issued);
    }

    @Test
    void bytesGuidsSortAsIssuedByTheirBytesAndStrings() {
        OrderedGuidGenerator generator = OrderedGuidGenerator.builder()
                .order(Order.BYTES)
                .timeSource(time)
                .build();
        List<UUID> issued = generate(generator);
        assertSortsAsIssued(issued, BYTES);
        assertSortsAsIssued(issued, Comparator.comparing(UUID::toString));
    }

    @Test
    void sqlServerGuidsPutTheTimeLastAndTheCounterInTheFourthGroup() {
        OrderedGuidGenerator generator = OrderedGuidGenerator.builder()
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .build();
        UUID first = generator.next();
        UUID second = generator.next();
        String millis = String.format("%012x", START.toEpochMilli());
        assertThat(first.toString()).isEqualTo("ffffffff-ffff-8fff-9fff-" + millis);
        assertThat(second.toString()).isEqualTo("ffffffff-ffff-8fff-a000-" + millis);
        assertThat(first.version()).isEqualTo(8);
        assertThat(first.variant()).isEqualTo(2);
        assertThat(OrderedGuidGenerator.decode(first, Order.SQL_SERVER))
                .containsExactly(Map.entry("timestamp", START), Map.entry("order", "SQL_SERVER"));
    }

    @Test
    void bytesGuidsPutTheTimeFirst() {
        OrderedGuidGenerator generator = OrderedGuidGenerator.builder()
                .order(Order.BYTES)
                .timeSource(time)
                .random(TestRandom.constant(0xFF))
                .build();
        UUID first = generator.next();
        UUID second = generator.next();
        String millis = String.format("%012x", START.toEpochMilli());
        String hex = millis.substring(0, 8) + "-" + millis.substring(8);
        // Counter 0x1FFF: its top 12 bits after the version, its low 2 bits after the variant.
        assertThat(first.toString()).isEqualTo(hex + "-87ff-bfff-ffffffffffff");
        assertThat(second.toString()).isEqualTo(hex + "-8800-8fff-ffffffffffff");
        assertThat(OrderedGuidGenerator.decode(first, Order.BYTES))
                .containsExactly(Map.entry("timestamp", START), Map.entry("order", "BYTES"));
    }

    @Test
    void aUsedUpCounterBorrowsTheNextMillisecondAtMostOneSecondAhead() {
        for (Order order : Order.values()) {
            ManualTimeSource clock = new ManualTimeSource(START);
            // All random bytes 0xFF: the 14-bit counter counts 0x1FFF..0x3FFF, 8193 GUIDs per millisecond.
            OrderedGuidGenerator generator = OrderedGuidGenerator.builder()
                    .order(order)
                    .timeSource(clock)
                    .random(TestRandom.constant(0xFF))
                    .build();
            Comparator<UUID> comparator = order == Order.SQL_SERVER ? SQL_SERVER : BYTES;
            UUID previous = generator.next();
            clock.advanceMillis(-999);
            for (int i = 1; i < 8193; i++) {
                UUID next = generator.next();
                assertThat(comparator.compare(previous, next)).isNegative();
                previous = next;
            }
            assertThat(timestamp(previous, order)).isEqualTo(START);
            UUID borrowed = generator.next();
            assertThat(timestamp(borrowed, order))
                    .as("1000 ms ahead of the clock")
                    .isEqualTo(START.plusMillis(1));
            assertThat(comparator.compare(previous, borrowed)).isNegative();
            for (int i = 1; i < 8193; i++) {
                generator.next();
            }
            // The clock steps 11 ms further back: borrowing would now run 12 ms past the limit, too far to wait.
            clock.advanceMillis(-11);
            assertThatThrownBy(generator::next)
                    .isInstanceOfSatisfying(
                            ClockBackwardsException.class,
                            e -> assertThat(e.behindMillis()).isEqualTo(1011));
            clock.advanceMillis(12);
            assertThat(timestamp(generator.next(), order))
                    .as("back at the limit")
                    .isEqualTo(START.plusMillis(2));
        }
    }

    @Test
    void theFormWritesLowercaseAndDecodesEitherCase() {
        IdForm form = OrderedGuidGenerator.builder().timeSource(time).build().form("orders");
        assertThat(form.generator()).isEqualTo("orders");
        assertThat(form.form()).isEqualTo("guid");
        String text = form.next();
        assertThat(text)
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
                .endsWith(String.format("%012x", START.toEpochMilli()));
        assertThat(form.decode(text))
                .containsExactly(
                        Map.entry("form", "guid"), Map.entry("timestamp", START), Map.entry("order", "SQL_SERVER"));
        assertThat(form.decode(text.toUpperCase())).isEqualTo(form.decode(text));
        assertThat(form.next(3)).hasSize(3).doesNotHaveDuplicates();
        for (String bad : new String[] {
            UUID.randomUUID().toString(),
            "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
            text.substring(1),
            text.replace('-', '_'),
            text + "0",
            "",
            null
        }) {
            assertThatThrownBy(() -> form.decode(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
    }
}
