package dev.idgen.core.period;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.SequenceDecodedId;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentSettings;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PeriodicIdServiceTest {

    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private final ManualTimeSource clock = new ManualTimeSource(Instant.parse("2026-11-23T10:00:00Z"));
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws Exception {
        executor.shutdownNow();
        for (AutoCloseable closeable : closing) {
            closeable.close();
        }
    }

    /** A periodic service over segments from memory, which count each name from 1, on the test's clock. */
    private PeriodicIdService.Builder builder(Period period, ZoneId zone) {
        SegmentIdService segments = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(SegmentSettings.builder()
                        .step(100)
                        .maxStep(100)
                        .awaitTimeout(Duration.ofSeconds(5))
                        .build())
                .build();
        closing.add(segments);
        return PeriodicIdService.builder()
                .delegate(segments)
                .period(period)
                .zone(zone)
                .timeSource(clock);
    }

    private PeriodicIdService service(Period period, ZoneId zone) {
        return builder(period, zone).build();
    }

    /** Sets the clock to a local time; in an overlap, to its earlier instant. */
    private void at(String localDateTime, ZoneId zone) {
        clock.set(LocalDateTime.parse(localDateTime).atZone(zone).toInstant().toEpochMilli());
    }

    @Test
    void numbersStartAtOneInEveryDayUnderTheDaysKey() {
        PeriodicIdService ids = service(Period.DAILY, ZoneOffset.UTC);
        assertThat(ids.nextId("invoice")).isEqualTo(2026112300000001L);
        assertThat(ids.nextId("invoice")).isEqualTo(2026112300000002L);
        assertThat(ids.nextId("receipt")).as("each name has its own counters").isEqualTo(2026112300000001L);
        assertThat(ids.nextId()).as("the default name").isEqualTo(2026112300000001L);
        clock.advance(Duration.ofDays(1));
        assertThat(ids.nextId("invoice")).isEqualTo(2026112400000001L);
        assertThat(ids.nextIds("invoice", 3)).containsExactly(2026112400000002L, 2026112400000003L, 2026112400000004L);
        clock.advance(Duration.ofDays(1));
        assertThat(ids.nextIds("invoice", 2)).containsExactly(2026112500000001L, 2026112500000002L);
        assertThat(ids.strategy()).isEqualTo("segment");
        // The 23rd's counters were forgotten when the 25th began; the day before stays.
        assertThat(((SegmentIdService) ids.delegate()).stats())
                .extracting(stats -> stats.name())
                .containsExactlyInAnyOrder("invoice:20261124", "invoice:20261125");
    }

    @Test
    void atShanghaiMidnightTheLastIdsOfOneDayAndTheFirstOfTheNextAreDistinctAndOrdered() {
        PeriodicIdService ids = service(Period.DAILY, SHANGHAI);
        at("2026-11-23T08:00:00", SHANGHAI);
        assertThat(ids.nextId("invoice")).isEqualTo(2026112300000001L);
        at("2026-11-23T23:59:59.999", SHANGHAI);
        assertThat(Instant.ofEpochMilli(clock.currentTimeMillis())).isEqualTo("2026-11-23T15:59:59.999Z");
        long[] lastOfDay = ids.nextIds("invoice", 2);
        long lastOne = ids.nextId("invoice");
        clock.advanceMillis(1);
        // 16:00 UTC, still the 23rd in UTC: the zone's midnight starts the day.
        long firstOfNext = ids.nextId("invoice");
        long secondOfNext = ids.nextId("invoice");
        assertThat(lastOfDay).containsExactly(2026112300000002L, 2026112300000003L);
        assertThat(lastOne).isEqualTo(2026112300000004L);
        assertThat(firstOfNext).isEqualTo(2026112400000001L);
        assertThat(new long[] {lastOfDay[0], lastOfDay[1], lastOne, firstOfNext, secondOfNext})
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(ids.decode(firstOfNext).toMap()).containsEntry("period", "2026-11-24");
    }

    @Test
    void inBerlinTheSpringDayLasts23HoursAndTheAutumnDay25() {
        PeriodicIdService ids = service(Period.DAILY, BERLIN);
        at("2026-03-29T00:00:00", BERLIN);
        assertThat(ids.nextId("invoice")).isEqualTo(2026032900000001L);
        at("2026-03-29T03:00:00", BERLIN); // 02:00 to 03:00 does not exist that night
        assertThat(ids.nextId("invoice")).isEqualTo(2026032900000002L);
        Instant springStart = OffsetDateTime.parse("2026-03-29T00:00:00+01:00").toInstant();
        clock.set(springStart.plus(Duration.ofHours(23)).minusMillis(1).toEpochMilli());
        assertThat(ids.nextId("invoice")).isEqualTo(2026032900000003L);
        clock.advanceMillis(1);
        assertThat(ZonedDateTime.ofInstant(Instant.ofEpochMilli(clock.currentTimeMillis()), BERLIN)
                        .toLocalDateTime())
                .isEqualTo("2026-03-30T00:00:00");
        assertThat(ids.nextId("invoice")).isEqualTo(2026033000000001L);

        at("2026-10-25T00:00:00", BERLIN);
        assertThat(ids.nextId("invoice")).isEqualTo(2026102500000001L);
        // 02:30 comes twice that night: both times it is the 25th, and the numbers just go on.
        long first0230 = LocalDateTime.parse("2026-10-25T02:30:00")
                .atZone(BERLIN)
                .withEarlierOffsetAtOverlap()
                .toInstant()
                .toEpochMilli();
        clock.set(first0230);
        assertThat(ids.nextId("invoice")).isEqualTo(2026102500000002L);
        clock.set(first0230 + Duration.ofHours(1).toMillis());
        assertThat(ids.nextId("invoice")).isEqualTo(2026102500000003L);
        Instant autumnStart = OffsetDateTime.parse("2026-10-25T00:00:00+02:00").toInstant();
        clock.set(autumnStart.plus(Duration.ofHours(25)).minusMillis(1).toEpochMilli());
        assertThat(ids.nextId("invoice")).isEqualTo(2026102500000004L);
        clock.advanceMillis(1);
        assertThat(ids.nextId("invoice")).isEqualTo(2026102600000001L);
    }

    @Test
    void whereTheClocksSkipMidnightTheDayStartsAtItsFirstLocalTime() {
        // Sao Paulo went from 2018-11-04 00:00 straight to 01:00.
        ZoneId saoPaulo = ZoneId.of("America/Sao_Paulo");
        PeriodicIdService ids = service(Period.DAILY, saoPaulo);
        clock.set(Instant.parse("2018-11-04T02:59:59.999Z").toEpochMilli()); // 23:59:59.999 on the 3rd, -03:00
        assertThat(ids.nextId("invoice")).isEqualTo(2018110300000001L);
        clock.advanceMillis(1); // 01:00 on the 4th, -02:00
        assertThat(ids.nextId("invoice")).isEqualTo(2018110400000001L);
    }

    @Test
    void monthsAndYearsStartAtTheirFirstMidnight() {
        PeriodicIdService monthly = service(Period.MONTHLY, ZoneOffset.UTC);
        at("2026-11-01T00:00:00", ZoneOffset.UTC);
        assertThat(monthly.nextId("invoice")).isEqualTo(2026110000000001L);
        at("2026-11-30T23:59:59.999", ZoneOffset.UTC);
        assertThat(monthly.nextId("invoice")).isEqualTo(2026110000000002L);
        clock.advanceMillis(1);
        assertThat(monthly.nextId("invoice")).isEqualTo(2026120000000001L);
        assertThat(monthly.decode(2026120000000001L).toMap()).containsEntry("period", "2026-12");

        PeriodicIdService yearly = service(Period.YEARLY, SHANGHAI);
        at("2026-01-01T00:00:00", SHANGHAI);
        assertThat(yearly.nextId("invoice")).isEqualTo(2026000000000001L);
        at("2026-12-31T23:59:59.999", SHANGHAI);
        assertThat(yearly.nextId("invoice")).isEqualTo(2026000000000002L);
        clock.advanceMillis(1);
        assertThat(yearly.nextId("invoice")).isEqualTo(2027000000000001L);
        assertThat(yearly.decode(2027000000000001L).toMap()).containsEntry("period", "2027");

        PeriodicIdService daily = service(Period.DAILY, SHANGHAI);
        at("2026-12-31T23:59:59.999", SHANGHAI);
        assertThat(daily.nextId("invoice")).isEqualTo(2026123100000001L);
        clock.advanceMillis(1);
        assertThat(daily.nextId("invoice")).isEqualTo(2027010100000001L);
    }

    @Test
    void aClockThatMovesBackAcrossMidnightContinuesYesterdaysCounter() {
        PeriodicIdService ids = service(Period.DAILY, SHANGHAI);
        at("2026-11-23T23:59:59", SHANGHAI);
        List<Long> issued = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            issued.add(ids.nextId("invoice"));
        }
        at("2026-11-24T00:00:01", SHANGHAI);
        issued.add(ids.nextId("invoice"));
        issued.add(ids.nextId("invoice"));
        at("2026-11-23T23:59:59.500", SHANGHAI);
        long yesterdayAgain = ids.nextId("invoice");
        issued.add(yesterdayAgain);
        issued.add(ids.nextId("invoice"));
        at("2026-11-24T00:00:02", SHANGHAI);
        issued.add(ids.nextId("invoice"));
        // Two days back: that day's counter, new and from 1, then back to today's.
        at("2026-11-22T12:00:00", SHANGHAI);
        issued.add(ids.nextId("invoice"));
        at("2026-11-24T00:00:03", SHANGHAI);
        issued.add(ids.nextId("invoice"));

        assertThat(issued)
                .containsExactly(
                        2026112300000001L,
                        2026112300000002L,
                        2026112300000003L,
                        2026112400000001L,
                        2026112400000002L,
                        2026112300000004L,
                        2026112300000005L,
                        2026112400000003L,
                        2026112200000001L,
                        2026112400000004L);
        assertThat(issued).doesNotHaveDuplicates();
        assertThat(yesterdayAgain).as("not ordered after a backward move").isLessThan(issued.get(4));
    }

    @Test
    void threadsDrawingWhileTheClockJumpsBackAndForthOverMidnightGetEachNumberOfEachDayOnce() throws Exception {
        PeriodicIdService ids = service(Period.DAILY, SHANGHAI);
        long lastMilli = LocalDateTime.parse("2026-11-23T23:59:59.999")
                .atZone(SHANGHAI)
                .toInstant()
                .toEpochMilli();
        clock.set(lastMilli);
        int threads = 8;
        int perThread = 5_000;
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        // The drawers go on until the clock has flipped often while they drew: on a busy machine the flipper may be
        // scheduled late, and draws that all fell on one side of midnight would check nothing.
        AtomicLong flips = new AtomicLong();
        AtomicBoolean sawNextDay = new AtomicBoolean();
        List<Future<List<Long>>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(executor.submit(() -> {
                start.await();
                List<Long> drawn = new ArrayList<>(perThread);
                long flipsAtStart = -1;
                // ... and until some draw fell after midnight: the flipper holds the next day only for a moment, and
                // a run whose draws all missed it would check one day alone.
                while (drawn.size() < perThread || flips.get() - flipsAtStart < 2_000 || !sawNextDay.get()) {
                    if (flipsAtStart < 0 && flips.get() > 0) {
                        flipsAtStart = flips.get();
                    }
                    if (thread % 2 == 0) {
                        drawn.add(ids.nextId("invoice"));
                    } else {
                        for (long id : ids.nextIds("invoice", 5)) {
                            drawn.add(id);
                        }
                    }
                    if (drawn.get(drawn.size() - 1) / 100_000_000L == 20261124L) {
                        sawNextDay.set(true);
                    }
                }
                return drawn;
            }));
        }
        Future<?> flipper = executor.submit(() -> {
            start.await();
            while (!done.get()) {
                clock.set(lastMilli + 1);
                Thread.onSpinWait();
                clock.set(lastMilli);
                flips.incrementAndGet();
            }
            return null;
        });
        start.countDown();
        Set<Long> all = new HashSet<>();
        long drawnInAll = 0;
        for (Future<List<Long>> future : futures) {
            List<Long> drawn = future.get(2, TimeUnit.MINUTES);
            drawnInAll += drawn.size();
            for (long id : drawn) {
                assertThat(all.add(id)).as("%d issued once", id).isTrue();
            }
        }
        done.set(true);
        flipper.get();

        Map<Long, List<Long>> numbersByKey = new TreeMap<>();
        for (long id : all) {
            numbersByKey
                    .computeIfAbsent(id / 100_000_000L, key -> new ArrayList<>())
                    .add(id % 100_000_000L);
        }
        assertThat(numbersByKey.keySet()).containsExactly(20261123L, 20261124L);
        numbersByKey.forEach((key, numbers) -> {
            numbers.sort(null);
            // One instance serves each counter's blocks in order: each day's numbers are 1 to its count.
            for (int i = 0; i < numbers.size(); i++) {
                assertThat(numbers.get(i)).as("number %d of %d", i + 1, key).isEqualTo(i + 1L);
            }
        });
        assertThat(all).hasSize((int) drawnInAll);
    }

    @Test
    void aPeriodThatUsesUpItsDigitsIsRefusedUntilItEndsNamingTheDigits() {
        PeriodicIdService ids = builder(Period.DAILY, ZoneOffset.UTC).digits(1).build();
        for (long n = 1; n <= 9; n++) {
            assertThat(ids.nextId("invoice")).isEqualTo(202611230L + n);
        }
        assertThatThrownBy(() -> ids.nextId("invoice"))
                .isInstanceOf(LayoutExhaustedException.class)
                .hasMessage("The counter 'invoice:20261123' reached 10: DAILY IDs with digits=1 hold at most 9"
                        + " numbers a period, and its numbers never spill into another period's. 'invoice' has no"
                        + " more IDs until the period ends; raise digits (at most 10 for DAILY) for more numbers a"
                        + " period");
        assertThat(ids.nextId("receipt")).as("other names go on").isEqualTo(202611231L);
        clock.advance(Duration.ofDays(1));
        assertThat(ids.nextId("invoice")).isEqualTo(202611241L);

        ids.nextIds("invoice", 7);
        assertThatThrownBy(() -> ids.nextIds("invoice", 2))
                .as("a batch is checked number by number")
                .isInstanceOf(LayoutExhaustedException.class)
                .hasMessageContaining("digits=1");
    }

    @Test
    void aCounterThatDoesNotCountFromOneIsRefused() {
        IdService zero = counting(new AtomicLong(-1));
        PeriodicIdService ids = PeriodicIdService.builder()
                .delegate(zero)
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        assertThatThrownBy(() -> ids.nextId("invoice"))
                .isInstanceOf(IdGenerationException.class)
                .hasMessage("The test counter 'invoice:20261123' returned 0: a periodic ID needs a counter that counts"
                        + " from 1");
    }

    @Test
    void idsDecodeToTheirPeriodAndNumber() {
        PeriodicIdService daily = service(Period.DAILY, SHANGHAI);
        long id = daily.nextIds("invoice", 42)[41];
        PeriodicDecodedId decoded = daily.decode(id);
        assertThat(decoded)
                .isEqualTo(
                        new PeriodicDecodedId("segment", id, Period.DAILY, java.time.LocalDate.of(2026, 11, 23), 42));
        assertThat(decoded.toMap())
                .containsExactly(
                        Map.entry("strategy", "segment"),
                        Map.entry("period", "2026-11-23"),
                        Map.entry("number", 42L),
                        Map.entry("id", "2026112300000042"));
        assertThat(daily.decode("invoice", id)).isEqualTo(decoded);
        DecodedId throughSequence =
                daily.sequence("invoice").decode(daily.sequence("invoice").nextId());
        assertThat(throughSequence.toMap()).containsEntry("number", 43L).containsEntry("generator", "default");

        PeriodicIdService monthly =
                builder(Period.MONTHLY, ZoneOffset.UTC).digits(12).build();
        assertThat(monthly.decode(monthly.nextId("invoice")).toMap())
                .containsExactly(
                        Map.entry("strategy", "segment"),
                        Map.entry("period", "2026-11"),
                        Map.entry("number", 1L),
                        Map.entry("id", "202611000000000001"));
        PeriodicIdService yearly = service(Period.YEARLY, ZoneOffset.UTC);
        assertThat(yearly.decode(yearly.nextId("invoice")).toMap())
                .containsEntry("period", "2026")
                .containsEntry("number", 1L)
                .containsEntry("id", "2026000000000001");
    }

    @Test
    void idsThatAreNotOfThePeriodAreRefused() {
        PeriodicIdService daily = service(Period.DAILY, ZoneOffset.UTC);
        for (long id : new long[] {0, -2026112300000001L}) {
            assertThatThrownBy(() -> daily.decode(id))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
        assertThatThrownBy(() -> daily.decode(2026113200000001L))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("id 2026113200000001 is not a DAILY ID with 8 digits: its leading digits 20261132 are not"
                        + " the key of a date of the years 1000 to 9999");
        assertThatThrownBy(() -> daily.decode(2026112300000000L))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("id 2026112300000000 is not a DAILY ID with 8 digits: its number (the last 8 digits) is 0");
        assertThatThrownBy(() -> daily.decode(5))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("its leading digits 0 are not the key of a date");
        assertThatThrownBy(() -> daily.decode(Long.MAX_VALUE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("its leading digits 92233720368 are not");
        PeriodicIdService monthly = service(Period.MONTHLY, ZoneOffset.UTC);
        assertThatThrownBy(() -> monthly.decode(2026130000000001L))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("leading digits 202613 are not");
    }

    @ParameterizedTest
    @EnumSource(Period.class)
    void digitsOutsideThePeriodsRangeAreRefusedNamingTheRange(Period period) {
        for (int digits : new int[] {0, -1, period.maxDigits() + 1}) {
            assertThatThrownBy(
                            () -> builder(period, ZoneOffset.UTC).digits(digits).build())
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("digits"))
                    .hasMessage("digits must be between 1 and " + period.maxDigits() + " for " + period
                            + " IDs (more would not fit in 63 bits), but was " + digits);
        }
        PeriodicIdService widest =
                builder(period, ZoneOffset.UTC).digits(period.maxDigits()).build();
        assertThat(widest.digits()).isEqualTo(period.maxDigits());
        assertThat(widest.nextId("invoice")).isPositive();
        assertThat(builder(period, ZoneOffset.UTC).build().digits()).isEqualTo(period.defaultDigits());
    }

    @Test
    void theNameAndTheKeyMustFitTheNameRule() {
        PeriodicIdService daily = service(Period.DAILY, ZoneOffset.UTC);
        String longest = "n".repeat(55);
        assertThat(daily.nextId(longest)).isEqualTo(2026112300000001L);
        assertThatThrownBy(() -> daily.nextId(longest + "n"))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("name"))
                .hasMessage("name must be at most 55 characters for DAILY IDs: the counter is named name + ':' + the"
                        + " period's key (for example invoice:20261123), which must fit 64 characters, but was '"
                        + longest + "n' (56 characters)");
        PeriodicIdService monthly = service(Period.MONTHLY, ZoneOffset.UTC);
        monthly.nextId("n".repeat(57));
        assertThatThrownBy(() -> monthly.nextIds("n".repeat(58), 1)).hasMessageStartingWith("name must be at most 57");
        PeriodicIdService yearly = service(Period.YEARLY, ZoneOffset.UTC);
        yearly.nextId("n".repeat(59));
        assertThatThrownBy(() -> yearly.nextId("n".repeat(60))).hasMessageStartingWith("name must be at most 59");
        for (String name : new String[] {null, "", "with space", ":x", "slash/"}) {
            assertThatThrownBy(() -> daily.nextId(name))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("name"))
                    .hasMessageStartingWith("name must be 1 to 64 characters of [A-Za-z0-9._:-]");
        }
        assertThatThrownBy(() -> daily.nextIds("invoice", 0))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("count"));
    }

    @Test
    void theBuilderNeedsADelegateAndAPeriod() {
        assertThatThrownBy(
                        () -> PeriodicIdService.builder().period(Period.DAILY).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("delegate"));
        assertThatThrownBy(() -> PeriodicIdService.builder()
                        .delegate(counting(new AtomicLong()))
                        .build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("period"));
        assertThatThrownBy(() -> builder(Period.DAILY, null).build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("zone"));
        PeriodicIdService defaults = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong()))
                .period(Period.DAILY)
                .build();
        assertThat(defaults.zone()).isEqualTo(ZoneOffset.UTC);
        assertThat(defaults.period()).isEqualTo(Period.DAILY);
        assertThat(defaults.nextId("invoice") / 100_000_000L)
                .as("today's key on the system clock")
                .isEqualTo(Period.DAILY.key(java.time.LocalDate.now(ZoneOffset.UTC)));
    }

    @Test
    void aClockOutsideTheYearsKeysAreWrittenForIsRefused() {
        PeriodicIdService ids = service(Period.DAILY, ZoneOffset.UTC);
        clock.set(Instant.parse("+10000-01-01T00:00:00Z").toEpochMilli());
        assertThatThrownBy(() -> ids.nextId("invoice"))
                .isInstanceOf(LayoutExhaustedException.class)
                .hasMessageContaining("periodic IDs have keys for the years 1000 to 9999 only");
    }

    @Test
    void closingClosesTheDelegate() {
        AtomicBoolean closed = new AtomicBoolean();
        class Closeable extends Counting implements AutoCloseable {
            Closeable() {
                super(new AtomicLong());
            }

            @Override
            public void close() {
                closed.set(true);
            }
        }
        PeriodicIdService ids = PeriodicIdService.builder()
                .delegate(new Closeable())
                .period(Period.DAILY)
                .build();
        ids.close();
        assertThat(closed).isTrue();

        // A delegate that is not AutoCloseable is left alone: closing neither draws from it nor fails, and it still
        // counts on from where it was.
        AtomicLong numbers = new AtomicLong();
        PeriodicIdService plain = PeriodicIdService.builder()
                .delegate(counting(numbers))
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        assertThat(plain.nextId("invoice") % 100_000_000L).isEqualTo(1);
        assertThatCode(plain::close).doesNotThrowAnyException();
        assertThat(numbers).as("numbers drawn from the delegate by close").hasValue(1);

        // A delegate whose close throws a checked exception: the caller gets it, unchecked, naming the delegate.
        class FailingToClose extends Counting implements AutoCloseable {
            FailingToClose() {
                super(new AtomicLong());
            }

            @Override
            public void close() throws Exception {
                throw new java.io.IOException("disk gone");
            }

            @Override
            public String toString() {
                return "the failing delegate";
            }
        }
        PeriodicIdService failing = PeriodicIdService.builder()
                .delegate(new FailingToClose())
                .period(Period.DAILY)
                .build();
        assertThatThrownBy(failing::close)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Closing the failing delegate failed: disk gone")
                .hasCauseInstanceOf(java.io.IOException.class);
    }

    @Test
    void theHotPathAllocatesNothingAndHandsTheDelegateOneNameAPeriod() {
        List<String> names = new ArrayList<>();
        AtomicLong numbers = new AtomicLong();
        IdService recording = new Counting(numbers) {
            @Override
            public long nextId(String name) {
                if (names.isEmpty() || names.get(names.size() - 1) != name) {
                    names.add(name);
                }
                return super.nextId(name);
            }
        };
        PeriodicIdService ids = PeriodicIdService.builder()
                .delegate(recording)
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        for (int i = 0; i < 1000; i++) {
            ids.nextId("invoice");
        }
        assertThat(names).containsExactly("invoice:20261123");

        PeriodicIdService quiet = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong()))
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int i = 0; i < 50_000; i++) {
            sink += quiet.nextId("invoice");
        }
        // Until the JIT has compiled the loop, a round may allocate (compiler and profiling work on this thread, or
        // objects that escape analysis later removes): the fewest bytes over several rounds is what the hot path
        // allocates once compiled. An allocation per call that escapes shows in every round.
        int calls = 200_000;
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 10; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < calls; i++) {
                sink += quiet.nextId("invoice");
            }
            fewest = Math.min(fewest, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertThat(sink).isPositive();
        // One object per call, at 16 bytes the smallest, would be 3.2 MB a round; this bound is under one byte for
        // every four calls.
        assertThat(fewest)
                .as("fewest bytes allocated in a round of %d calls", calls)
                .isLessThan(calls / 4);
    }

    private static IdService counting(AtomicLong numbers) {
        return new Counting(numbers);
    }

    /** One counter for every name, allocating nothing per call. */
    private static class Counting implements IdService {

        private final AtomicLong numbers;

        Counting(AtomicLong numbers) {
            this.numbers = numbers;
        }

        @Override
        public String strategy() {
            return "test";
        }

        @Override
        public long nextId(String name) {
            return numbers.incrementAndGet();
        }

        @Override
        public long[] nextIds(String name, int count) {
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = numbers.incrementAndGet();
            }
            return ids;
        }

        @Override
        public DecodedId decode(long id) {
            return new SequenceDecodedId(strategy(), id);
        }
    }

    @Test
    void passedPeriodsLeaveASegmentDelegateSoADailyServiceRunsForYearsWithinMaxNames() {
        // 10 names a day, 25 names at most: without forgetting, the third day would be refused.
        SegmentIdService segments = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(SegmentSettings.builder()
                        .step(10)
                        .maxStep(10)
                        .awaitTimeout(Duration.ofSeconds(5))
                        .build())
                .maxNames(25)
                .build();
        closing.add(segments);
        PeriodicIdService daily = PeriodicIdService.builder()
                .delegate(segments)
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        for (int day = 0; day < 200; day++) {
            for (int name = 0; name < 10; name++) {
                long id = daily.nextId("n" + name);
                long key = Long.parseLong(
                        LocalDate.ofInstant(Instant.ofEpochMilli(clock.currentTimeMillis()), ZoneOffset.UTC)
                                .format(java.time.format.DateTimeFormatter.BASIC_ISO_DATE));
                assertThat(id).isEqualTo(key * 100_000_000L + 1);
            }
            assertThat(segments.nameCount()).as("names held on day %d", day).isLessThanOrEqualTo(20);
            clock.advance(Duration.ofDays(1));
        }
        assertThat(segments.stats())
                .extracting(stats -> stats.name())
                .hasSize(20)
                .allMatch(name -> name.endsWith(":20270609") || name.endsWith(":20270610"));
        assertThat(segments.generatedCount()).as("counts forgotten names too").isEqualTo(2000);
    }

    @Test
    void thePreviousPeriodStaysForStragglersAndAForgottenPeriodAskedAgainNeverRepeats() {
        SegmentIdService segments = SegmentIdService.builder(new InMemorySegmentStore())
                .settings(SegmentSettings.builder()
                        .step(10)
                        .maxStep(10)
                        .awaitTimeout(Duration.ofSeconds(5))
                        .build())
                .build();
        closing.add(segments);
        PeriodicIdService daily = PeriodicIdService.builder()
                .delegate(segments)
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        Set<Long> issued = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            assertThat(issued.add(daily.nextId("invoice"))).isTrue();
        }
        clock.advance(Duration.ofDays(1));
        assertThat(issued.add(daily.nextId("invoice"))).isTrue();
        assertThat(segments.stats("invoice:20261123"))
                .as("the day before stays a whole day")
                .isPresent();
        clock.advance(Duration.ofDays(1));
        assertThat(issued.add(daily.nextId("invoice"))).isTrue();
        assertThat(segments.stats("invoice:20261123"))
                .as("two days ago: forgotten")
                .isEmpty();
        assertThat(segments.stats("invoice:20261124")).isPresent();
        // The clock set back two days: the forgotten counter starts afresh from its store, past its earlier IDs.
        clock.advance(Duration.ofDays(-2));
        long again = daily.nextId("invoice");
        assertThat(again).isGreaterThan(2026112300000003L).isLessThan(2026112400000000L);
        assertThat(issued.add(again)).as("never repeated").isTrue();
    }

    @Test
    void onlyCountersOfThisPeriodKindAreForgotten() {
        assertThat(PeriodicIdService.isCounterOfPeriod("invoice:20261123", 8)).isTrue();
        assertThat(PeriodicIdService.isCounterOfPeriod("invoice:202611", 8)).isFalse();
        assertThat(PeriodicIdService.isCounterOfPeriod("ab:202611", 8)).isFalse();
        assertThat(PeriodicIdService.isCounterOfPeriod("invoice:202611", 6)).isTrue();
        assertThat(PeriodicIdService.isCounterOfPeriod("invoice:20261123", 6)).isFalse();
        assertThat(PeriodicIdService.isCounterOfPeriod("orders", 8)).isFalse();
        assertThat(PeriodicIdService.isCounterOfPeriod(":20261123", 8)).isFalse();
    }

    @Test
    void dailyAndMonthlyIdsOfEqualLengthCollideOnceTheMonthlyCounterPassesTenToTheDailyDigits() {
        // Daily with 2 digits and monthly with 4: both 10-digit IDs. The 2,301st number of November 2026 is
        // 202611 * 10^4 + 2301 = 2026112301, which is also the 1st number of 2026-11-23.
        PeriodicIdService daily = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong()))
                .period(Period.DAILY)
                .digits(2)
                .timeSource(clock)
                .build();
        PeriodicIdService monthly = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong(2300)))
                .period(Period.MONTHLY)
                .digits(4)
                .timeSource(clock)
                .build();
        assertThat(daily.nextId("invoice")).isEqualTo(2026112301L);
        assertThat(monthly.nextId("invoice")).isEqualTo(2026112301L);

        // With the defaults (8 and 10 digits, both 16-digit IDs), the same from the 100,000,001st number of a month.
        PeriodicIdService dailyDefault = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong()))
                .period(Period.DAILY)
                .timeSource(clock)
                .build();
        PeriodicIdService monthlyDefault = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong(100_000_000L)))
                .period(Period.MONTHLY)
                .timeSource(clock)
                .build();
        assertThat(monthlyDefault.nextId("invoice"))
                .isEqualTo(2026110100000001L)
                .as("the 1st number of 2026-11-01")
                .isEqualTo(dailyDefault.nextId("invoice") - 2200000000L);

        // IDs of different lengths never meet: daily with 8 digits is 16 digits long, monthly with 8 only 14.
        PeriodicIdService monthlyShort = PeriodicIdService.builder()
                .delegate(counting(new AtomicLong(99_999_998L)))
                .period(Period.MONTHLY)
                .digits(8)
                .timeSource(clock)
                .build();
        assertThat(String.valueOf(monthlyShort.nextId("invoice"))).hasSize(14);
        assertThat(String.valueOf(dailyDefault.nextId("invoice"))).hasSize(16);
    }
}
