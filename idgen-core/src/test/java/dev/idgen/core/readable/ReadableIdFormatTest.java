package dev.idgen.core.readable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.readable.ReadableIdFormat.Parts;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReadableIdFormatTest {

    private static final DateTimeFormatter TIME_PART = DateTimeFormatter.ofPattern("yyMMddHHmmssSSS");
    private static final long FIRST_UTC = Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();
    private static final long END_UTC = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();

    private static void assertInvalid(Runnable call, String argument, String message) {
        assertThatThrownBy(call::run)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(message)
                .satisfies(e ->
                        assertThat(((InvalidArgumentException) e).argument()).isEqualTo(argument));
    }

    @Test
    void formatsAndParsesAKnownId() {
        ReadableIdFormat format = new ReadableIdFormat(256, 99_999, ZoneOffset.UTC);
        Instant issued = Instant.parse("2025-03-14T09:30:15.123Z");

        String id = format.format(issued.toEpochMilli(), "ORD", 42, 17);

        assertThat(id).isEqualTo("250314093015123ORD04200017");
        assertThat(format.parse(id)).isEqualTo(new Parts(id, issued, "ORD", 42, 17));
        assertThat(format.format(issued.toEpochMilli(), "", 0, 0)).isEqualTo("25031409301512300000000");
    }

    @Test
    void everyIdParsesBackToWhatWasFormatted() {
        SplittableRandom random = new SplittableRandom(20261123);
        record Case(int buckets, long maxSequence, ZoneId zone) {}
        for (Case c : List.of(
                new Case(1, 9, ZoneOffset.UTC),
                new Case(256, 99_999, ZoneOffset.UTC),
                new Case(1024, 99_999_999, ZoneId.of("Asia/Shanghai")),
                new Case(10, 10, ZoneOffset.ofHoursMinutes(5, 45)),
                new Case(1001, 1_000, ZoneId.of("Pacific/Fakaofo")))) {
            ReadableIdFormat format = new ReadableIdFormat(c.buckets(), c.maxSequence(), c.zone());
            int bucketDigits = Integer.toString(c.buckets() - 1).length();
            int sequenceDigits = Long.toString(c.maxSequence()).length();
            long first =
                    LocalDate.of(2000, 1, 1).atStartOfDay(c.zone()).toInstant().toEpochMilli();
            long end =
                    LocalDate.of(2100, 1, 1).atStartOfDay(c.zone()).toInstant().toEpochMilli();
            long previous = first;
            for (int i = 0; i < 20_000; i++) {
                // Random instants of the whole range, the ends, and runs within one second (the cached date part).
                long ms = i == 0
                        ? first
                        : i == 1 ? end - 1 : i % 3 == 0 ? previous + random.nextInt(3) : random.nextLong(first, end);
                ms = Math.min(ms, end - 1);
                previous = ms;
                String bizCode = "A1b2".substring(0, random.nextInt(5));
                int bucket = random.nextInt(c.buckets());
                long sequence = random.nextLong(c.maxSequence() + 1);

                String id = format.format(ms, bizCode, bucket, sequence);

                assertThat(id)
                        .hasSize(15 + bizCode.length() + bucketDigits + sequenceDigits)
                        .startsWith(TIME_PART.withZone(c.zone()).format(Instant.ofEpochMilli(ms)) + bizCode);
                assertThat(format.parse(id))
                        .as("%s in %s", id, c)
                        .isEqualTo(new Parts(id, Instant.ofEpochMilli(ms), bizCode, bucket, sequence));
            }
        }
    }

    @Test
    void theZoneMovesTheTimePartButNotTheInstant() {
        ReadableIdFormat shanghai = new ReadableIdFormat(4, 99, ZoneId.of("Asia/Shanghai"));
        ReadableIdFormat utc = new ReadableIdFormat(4, 99, ZoneOffset.UTC);
        Instant issued = Instant.parse("2025-03-14T20:30:15.123Z");

        String id = shanghai.format(issued.toEpochMilli(), "CN", 3, 7);

        assertThat(id).isEqualTo("250315043015123CN307");
        assertThat(shanghai.parse(id).timestamp()).isEqualTo(issued);
        assertThat(utc.parse(id).timestamp()).as("the same digits read as UTC").isEqualTo(issued.plusSeconds(8 * 3600));
        assertThat(shanghai.zone()).isEqualTo(ZoneId.of("Asia/Shanghai"));
    }

    @Test
    void theYearsThatCanBeWrittenAreThoseOfTheZone() {
        ReadableIdFormat plusEight = new ReadableIdFormat(4, 99, ZoneOffset.ofHours(8));
        long localNewYear2000 = Instant.parse("1999-12-31T16:00:00Z").toEpochMilli();
        assertThat(plusEight.format(localNewYear2000, "", 0, 0)).startsWith("000101000000000");
        assertInvalid(
                () -> plusEight.format(localNewYear2000 - 1, "", 0, 0),
                "epochMilli",
                "epochMilli must lie in the years 2000 to 2099 of +08:00, but was 1999-12-31T15:59:59.999Z");
        long localNewYear2100 = Instant.parse("2099-12-31T16:00:00Z").toEpochMilli();
        assertThat(plusEight.format(localNewYear2100 - 1, "", 0, 0)).startsWith("991231235959999");
        assertInvalid(() -> plusEight.format(localNewYear2100, "", 0, 0), "epochMilli", "epochMilli must lie");

        ReadableIdFormat utc = new ReadableIdFormat(4, 99, ZoneOffset.UTC);
        assertThat(utc.format(FIRST_UTC, "", 0, 0)).startsWith("000101000000000");
        assertThat(utc.format(END_UTC - 1, "", 0, 0)).startsWith("991231235959999");
        assertInvalid(() -> utc.format(Long.MIN_VALUE, "", 0, 0), "epochMilli", "epochMilli must lie");
        assertInvalid(() -> utc.format(END_UTC, "", 0, 0), "epochMilli", "epochMilli must lie");
    }

    @Test
    void aLocalTimeTheZoneSkipsIsNoId() {
        // Tokelau skipped 2011-12-30 when it moved from -11:00 to +13:00; it never set its clocks back.
        ReadableIdFormat fakaofo = new ReadableIdFormat(4, 99, ZoneId.of("Pacific/Fakaofo"));
        assertInvalid(() -> fakaofo.parse("111230120000000307"), "id", "does not exist in Pacific/Fakaofo");
        assertThat(fakaofo.parse("111231000000000307").timestamp()).isEqualTo(Instant.parse("2011-12-30T11:00:00Z"));
        assertThat(fakaofo.format(Instant.parse("2011-12-30T10:59:59.999Z").toEpochMilli(), "", 3, 7))
                .isEqualTo("111229235959999307");
    }

    @Test
    void zonesThatSetTheirClocksBackAreRefused() {
        assertInvalid(
                () -> new ReadableIdFormat(4, 99, ZoneId.of("Europe/Berlin")),
                "zone",
                "zone must not set its clocks back between 2000 and 2099, but Europe/Berlin does at");
        assertInvalid(() -> new ReadableIdFormat(4, 99, null), "zone", "zone must not be null");
    }

    @Test
    void badSettingsNameThemselves() {
        assertInvalid(() -> new ReadableIdFormat(0, 99, ZoneOffset.UTC), "buckets", "buckets must be at least 1");
        assertInvalid(
                () -> new ReadableIdFormat(4, 8, ZoneOffset.UTC),
                "maxSequence",
                "maxSequence must be between 9 and 99999999, but was 8");
        assertInvalid(
                () -> new ReadableIdFormat(4, 100_000_000, ZoneOffset.UTC),
                "maxSequence",
                "maxSequence must be between");
    }

    @Test
    void badPartsNameThemselves() {
        ReadableIdFormat format = new ReadableIdFormat(4, 99, ZoneOffset.UTC);
        long now = Instant.parse("2025-03-14T09:30:15.123Z").toEpochMilli();
        for (String bad : new String[] {"ORDER", "a-b", "é", " ", null}) {
            assertInvalid(
                    () -> format.format(now, bad, 0, 0),
                    "bizCode",
                    "bizCode must be 0 to 4 characters of [A-Za-z0-9], but was ");
            assertInvalid(() -> ReadableIdFormat.checkBizCode(bad), "bizCode", "bizCode must be 0 to 4");
        }
        assertThat(ReadableIdFormat.checkBizCode("A1b2")).isEqualTo("A1b2");
        assertInvalid(() -> format.format(now, "", -1, 0), "bucket", "bucket must be between 0 and 3, but was -1");
        assertInvalid(() -> format.format(now, "", 4, 0), "bucket", "bucket must be between 0 and 3, but was 4");
        assertInvalid(() -> format.format(now, "", 0, -1), "sequence", "sequence must be between 0 and 99");
        assertInvalid(() -> format.format(now, "", 0, 100), "sequence", "sequence must be between 0 and 99");
    }

    @Test
    void malformedIdsNameId() {
        ReadableIdFormat format = new ReadableIdFormat(256, 99_999, ZoneOffset.UTC);
        String[] bad = {
            null,
            "",
            "2503140930151230000001", // 22 characters: one short
            "250314093015123ABCDE00000001", // a five-character bizCode
            "25031409301512XORD04200017", // a letter in the time part
            "250314093015123ORD0420001X", // a letter in the sequence
            "250314093015123ORD04X00017", // a letter in the bucket
            "251314093015123ORD04200017", // month 13
            "250230093015123ORD04200017", // February 30
            "250314243015123ORD04200017", // hour 24
            "250314093015123OR-04200017", // not [A-Za-z0-9]
            "250314093015123ORD30000017", // bucket 300 of 256
        };
        for (String id : bad) {
            assertInvalid(
                    () -> format.parse(id),
                    "id",
                    "id must be a readable ID of this format (15 digits"
                            + " yyMMddHHmmssSSS, 0 to 4 of [A-Za-z0-9], 3 digits of bucket, 5 of sequence: 23 to 27"
                            + " characters), but ");
        }
        assertInvalid(
                () -> new ReadableIdFormat(256, 50, ZoneOffset.UTC).parse("250314093015123ORD04251"),
                "id",
                "its sequence 51 is above 50");
        assertInvalid(() -> format.parse("x".repeat(200)), "id", "'" + "x".repeat(80) + "...' is not");
    }

    @Test
    void threadsFormattingDifferentSecondsGetTheirOwnDatePart() throws Exception {
        ReadableIdFormat format = new ReadableIdFormat(8, 999, ZoneId.of("Asia/Shanghai"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    // Each thread in its own seconds, a day apart, so that the shared cache keeps changing hands.
                    long base = Instant.parse("2030-06-01T00:00:00Z").toEpochMilli() + thread * 86_400_000L;
                    for (int i = 0; i < 50_000; i++) {
                        long ms = base + i * 7L;
                        String id = format.format(ms, "T", thread, i % 1000);
                        assertThat(format.parse(id).timestamp().toEpochMilli())
                                .as(id)
                                .isEqualTo(ms);
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
