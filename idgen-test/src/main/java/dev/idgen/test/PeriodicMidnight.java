package dev.idgen.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.period.Period;
import dev.idgen.core.period.PeriodicDecodedId;
import dev.idgen.core.period.PeriodicIdService;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Daily {@link PeriodicIdService}s over a real store, drawing across midnight in {@link #ZONE}: two instances, as two
 * JVMs, each over a delegate of its own on the shared store, their manual clocks {@value #SKEW_MILLIS} ms apart, with
 * several threads each (half calling {@code nextId}, half {@code nextIds}):
 * <ol>
 * <li>instance A just before midnight, B just after it;</li>
 * <li>both moved on by the skew, so both after midnight;</li>
 * <li>A's clock moved back to just before midnight.</li>
 * </ol>
 * It checks that no ID is issued twice, that each thread's IDs of one phase increase, that the day before has A's
 * IDs of phases 1 and 3 and the day after all the others, and that each day's numbers start at 1. A store's test adds
 * what it can see in the store: {@link #counterName(long)} names each day's counter.
 */
public final class PeriodicMidnight {

    /** The zone of the days. */
    public static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");

    /** The name drawn from. */
    public static final String NAME = "invoice";

    /** The key of the day before midnight. */
    public static final long DAY_BEFORE = 20261123;

    /** The key of the day after midnight. */
    public static final long DAY_AFTER = 20261124;

    /** How far apart the two instances' clocks are. */
    public static final long SKEW_MILLIS = 10;

    private static final long MIDNIGHT =
            LocalDateTime.parse("2026-11-24T00:00:00").atZone(ZONE).toInstant().toEpochMilli();

    private static final int BATCH = 5;

    private PeriodicMidnight() {}

    /**
     * What the instances drew.
     *
     * @param numbers each day's numbers by key, sorted
     * @param threads the threads per instance
     * @param idsPerThread the IDs each thread drew in each phase
     */
    public record Drawn(SortedMap<Long, List<Long>> numbers, int threads, int idsPerThread) {

        /**
         * @return how many IDs the day before has: A's of phases 1 and 3
         */
        public int dayBeforeCount() {
            return 2 * threads * idsPerThread;
        }

        /**
         * @return how many IDs the day after has: B's of phase 1, both instances' of phase 2
         */
        public int dayAfterCount() {
            return 3 * threads * idsPerThread;
        }

        /**
         * Checks that each day's numbers are exactly 1 to its count: a store that leaves no gaps (one ticket server).
         */
        public void assertNumbersAreOneToTheCount() {
            numbers.forEach((key, list) -> {
                for (int i = 0; i < list.size(); i++) {
                    assertThat(list.get(i))
                            .as("number %d of day %d", i + 1, key)
                            .isEqualTo(i + 1L);
                }
            });
        }
    }

    /**
     * @param key a day's key
     * @return the counter that day's numbers come from, for example {@code invoice:20261123}
     */
    public static String counterName(long key) {
        return NAME + ":" + key;
    }

    /**
     * Runs the three phases and checks what the class comment says. The services are closed at the end, and with
     * them the delegates.
     *
     * @param delegates makes one instance's delegate: called once for each instance
     * @param threads threads per instance, at least 2
     * @param idsPerThread IDs each thread draws in each phase, a multiple of 5
     * @return what was drawn
     */
    public static Drawn run(Supplier<IdService> delegates, int threads, int idsPerThread) throws Exception {
        ManualTimeSource clockA = new ManualTimeSource(MIDNIGHT - SKEW_MILLIS / 2);
        ManualTimeSource clockB = new ManualTimeSource(MIDNIGHT + SKEW_MILLIS / 2);
        ExecutorService executor = Executors.newFixedThreadPool(2 * threads);
        try (PeriodicIdService a = daily(delegates.get(), clockA);
                PeriodicIdService b = daily(delegates.get(), clockB)) {
            List<long[]> drawn = new ArrayList<>();
            drawn.addAll(phase(executor, List.of(a, b), threads, idsPerThread));
            clockA.advanceMillis(SKEW_MILLIS);
            clockB.advanceMillis(SKEW_MILLIS);
            drawn.addAll(phase(executor, List.of(a, b), threads, idsPerThread));
            clockA.set(MIDNIGHT - 1);
            drawn.addAll(phase(executor, List.of(a), threads, idsPerThread));

            Set<Long> unique = new HashSet<>();
            SortedMap<Long, List<Long>> numbers = new TreeMap<>();
            for (long[] ids : drawn) {
                for (int i = 0; i < ids.length; i++) {
                    assertThat(unique.add(ids[i])).as("%d issued once", ids[i]).isTrue();
                    if (i > 0) {
                        assertThat(ids[i]).as("a thread's IDs increase").isGreaterThan(ids[i - 1]);
                    }
                    PeriodicDecodedId decoded = a.decode(ids[i]);
                    numbers.computeIfAbsent(Period.DAILY.key(decoded.firstDay()), key -> new ArrayList<>())
                            .add(decoded.number());
                }
            }
            numbers.values().forEach(Collections::sort);
            Drawn result = new Drawn(numbers, threads, idsPerThread);
            assertThat(numbers.keySet()).containsExactly(DAY_BEFORE, DAY_AFTER);
            assertThat(numbers.get(DAY_BEFORE))
                    .hasSize(result.dayBeforeCount())
                    .first()
                    .isEqualTo(1L);
            assertThat(numbers.get(DAY_AFTER))
                    .hasSize(result.dayAfterCount())
                    .first()
                    .isEqualTo(1L);
            return result;
        } finally {
            executor.shutdownNow();
        }
    }

    private static PeriodicIdService daily(IdService delegate, ManualTimeSource clock) {
        return PeriodicIdService.builder()
                .delegate(delegate)
                .period(Period.DAILY)
                .zone(ZONE)
                .timeSource(clock)
                .build();
    }

    /**
     * @return each thread's IDs, in the order drawn
     */
    private static List<long[]> phase(
            ExecutorService executor, List<PeriodicIdService> instances, int threads, int idsPerThread)
            throws Exception {
        List<Future<long[]>> futures = new ArrayList<>();
        for (PeriodicIdService instance : instances) {
            for (int t = 0; t < threads; t++) {
                boolean batches = t % 2 == 1;
                futures.add(executor.submit(() -> {
                    long[] ids = new long[idsPerThread];
                    for (int i = 0; i < idsPerThread; i += batches ? BATCH : 1) {
                        if (batches) {
                            System.arraycopy(instance.nextIds(NAME, BATCH), 0, ids, i, BATCH);
                        } else {
                            ids[i] = instance.nextId(NAME);
                        }
                    }
                    return ids;
                }));
            }
        }
        List<long[]> drawn = new ArrayList<>();
        for (Future<long[]> future : futures) {
            drawn.add(future.get(Duration.ofMinutes(2).toMillis(), TimeUnit.MILLISECONDS));
        }
        return drawn;
    }
}
