package dev.idgen.core.period;

import dev.idgen.core.ForgetsNames;
import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LayoutExhaustedException;
import dev.idgen.core.TimeSource;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Numbers that start at 1 again every day, month or year, without ever resetting a counter: each period has a counter
 * of its own. {@code nextId("invoice")} on 2026-11-23 takes the next number {@code n} of the counter
 * {@code invoice:20261123} from a counting strategy (ticket, segment, redis: any {@link IdService} whose
 * {@code nextId(name)} counts each name from 1) and returns {@code 20261123 * 10^digits + n}: with the default 8
 * digits, {@code 2026112300000001}, {@code 2026112300000002}, ..., then on 2026-11-24 {@code 2026112400000001}. As the
 * period is part of the counter's name, nothing is ever reset, and a number is never issued twice: not across
 * periods, instances, restarts or clocks that disagree. (Resetting a live counter, the old way to get this, issues
 * every number of the day again to any instance that has not seen the reset yet.)
 *
 * <pre>{@code
 * PeriodicIdService invoices = PeriodicIdService.builder()
 *         .delegate(ticketIdService).period(Period.DAILY).zone(ZoneId.of("Asia/Shanghai")).build();
 * long id = invoices.nextId("invoice"); // 2026112300000042: the 42nd invoice of 2026-11-23 in Shanghai
 * }</pre>
 *
 * <p>A period that uses up its {@code digits} (10^8 - 1 numbers a day by default) is refused with
 * {@link LayoutExhaustedException} until it ends: its numbers never spill into the next period's. The name plus
 * {@code ':'} plus the key must fit the 64 characters of the name rule: names of up to 55 characters for
 * {@link Period#DAILY}, 57 for {@link Period#MONTHLY}, 59 for {@link Period#YEARLY}.
 *
 * <p><b>At midnight</b> (of the configured zone, which defaults to UTC; for a month or year, the midnight it starts
 * at): IDs issued before it carry the old key and IDs issued after it the new one, which is larger, so the last IDs
 * of one day and the first of the next are distinct and ordered. Days are midnight to midnight in local time, so a
 * day with a daylight-saving change lasts 23 or 25 hours, and in a zone whose clocks skip midnight the day starts at
 * the first local time it has. Each call reads the clock once; a batch takes all its numbers from the period of that
 * moment. Several instances whose clocks are a little apart do not switch at the same instant: for a moment one may
 * still issue numbers of the old day while another already issues numbers of the new one. Every ID stays unique (each
 * comes from its period's one counter); only the old day's count runs on a little past midnight.
 *
 * <p><b>A clock that moves backwards</b> across midnight makes the service use the earlier period's counter again:
 * its next numbers continue that period's count, so they are still unique, but they are then smaller than IDs issued
 * before the clock moved, so IDs are not ordered across such a move.
 *
 * <p><b>Different periods in one column.</b> IDs of different period types collide when they have the same length
 * (key digits plus {@code digits}: daily 8 + d, monthly 6 + d, yearly 4 + d; the defaults give 16 each) and the
 * coarser period's counter passes 10^(the finer one's digits): with daily digits 2 and monthly digits 4, the 2,301st
 * number of November 2026 is {@code 202611 * 10^4 + 2301 = 2026112301}, the 1st number of 2026-11-23; with the
 * defaults, a monthly counter past 100,000,000 meets the daily IDs of the 1st of its month. IDs of different lengths
 * never meet. Give each period type a column of its own, or digits that make the lengths differ.
 *
 * <p><b>What each delegate keeps per period.</b> Every period is a new name to the delegate.
 * <ul>
 * <li>A segment delegate leases a block for each period's name: the unused rest of yesterday's block is a gap (never
 * issued, never reused), and the first call of each period waits for that period's first lease. A delegate that keeps
 * state in memory per name ({@link ForgetsNames}: segment, Redis, ticket) is told to forget the names of passed
 * periods when the clock moves into a new period: all but the new period's and the one in use before it, which stays
 * (a whole period long) for calls that read the clock just before midnight. So its {@code maxNames} needs room for
 * names times two periods, not names times the periods of the uptime. The thread that moves the service into the new
 * period does the forgetting (one pass over the delegate's names). A forgotten name that is asked for again (a clock
 * set back a day) starts afresh and never repeats an ID: a segment delegate leases a new block, past every block the
 * store handed out, so the rest of the dropped block is a gap.</li>
 * <li>A ticket delegate inserts one row per name and period ({@code invoice:20261123}, {@code invoice:20261124},
 * ...); old rows stay. A segment delegate's table, and the database behind a Redis delegate's windows, likewise grow
 * a row per name and period.</li>
 * </ul>
 * <b>Pruning old rows</b> is safe only once no instance can reach their period again: a row deleted and then reached
 * again (an instance whose clock lags, a clock set back) is inserted afresh and counts from 1, issuing that period's
 * numbers a second time. So delete only the rows of periods that ended well before the current one began, never the
 * current or the previous period's; for a daily ticket table on 2026-11-23, for example, {@code DELETE FROM
 * idgen_ticket WHERE name LIKE 'invoice:________' AND name < 'invoice:20261122'} (keys have a fixed number of digits,
 * so they compare as strings).
 *
 * <p>Wrap the counting generator itself, not a {@link dev.idgen.core.RoutingIdService}: a router would route the
 * period's name ({@code invoice:20261123}), not the name it has a generator for.
 *
 * <p>Thread-safe. The hot path allocates nothing beyond what the delegate does: the period (its bounds, its key and
 * the counter names of the first {@value #MAX_CACHED_NAMES} names) is computed once and recomputed only when the clock
 * leaves it.
 */
public final class PeriodicIdService implements ForwardingIdService, AutoCloseable {

    /** How many names' counter names one period keeps; further names compose theirs on each call. */
    static final int MAX_CACHED_NAMES = 1024;

    private final IdService delegate;
    private final Period period;
    private final int digits;
    /** 10^digits: each period's numbers are 1 to limit - 1. */
    private final long limit;

    private final ZoneId zone;
    private final TimeSource timeSource;
    private final int maxNameLength;

    /** The period in use; starts as one that contains no time, so the first call computes the real one. */
    private volatile Window current = new Window(0, 0, 0, null, null);

    private PeriodicIdService(IdService delegate, Period period, int digits, ZoneId zone, TimeSource timeSource) {
        this.delegate = delegate;
        this.period = period;
        this.digits = digits;
        long powerOfTen = 1;
        for (int i = 0; i < digits; i++) {
            powerOfTen *= 10;
        }
        this.limit = powerOfTen;
        this.zone = zone;
        this.timeSource = timeSource;
        this.maxNameLength = IdArguments.MAX_NAME_LENGTH - 1 - period.keyDigits();
    }

    /**
     * @return a builder for the UTC zone and the system clock; {@link Builder#delegate} and {@link Builder#period}
     *         must be set
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return the delegate's strategy: a periodic ID's number comes from it
     */
    @Override
    public String strategy() {
        return delegate.strategy();
    }

    /**
     * {@inheritDoc}
     *
     * @param name the sequence: the name rule, but 64 characters less {@code ':'} and the key (55 for
     *        {@link Period#DAILY}, 57 for {@link Period#MONTHLY}, 59 for {@link Period#YEARLY})
     * @return the key of the current period times 10^digits plus the next number of the period's counter
     * @throws LayoutExhaustedException when the period has used up its digits
     */
    @Override
    public long nextId(String name) {
        Window window = window(timeSource.currentTimeMillis());
        String counter = counterName(window, name);
        return id(window, delegate.nextId(counter), counter, name);
    }

    /**
     * {@inheritDoc}
     *
     * <p>All {@code count} IDs carry the period current when the call began.
     *
     * @throws LayoutExhaustedException when the period runs out of digits within the batch
     */
    @Override
    public long[] nextIds(String name, int count) {
        IdArguments.checkCount(count);
        Window window = window(timeSource.currentTimeMillis());
        String counter = counterName(window, name);
        // The delegate's array is new and ours: its numbers become the IDs in place.
        long[] ids = delegate.nextIds(counter, count);
        for (int i = 0; i < ids.length; i++) {
            ids[i] = id(window, ids[i], counter, name);
        }
        return ids;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The delegate's future, with its number turned into the ID on whichever thread completes it: no thread hop of
     * its own, so over an in-memory delegate (segments) the future is complete when returned.
     */
    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        Window window;
        try {
            window = window(timeSource.currentTimeMillis());
        } catch (LayoutExhaustedException e) {
            return CompletableFuture.failedFuture(e);
        }
        String counter = counterName(window, name);
        return delegate.nextIdAsync(counter, blocking).thenApply(number -> id(window, number, counter, name));
    }

    /**
     * {@inheritDoc}
     *
     * <p>As {@link #nextIdAsync(String, Executor)}: all {@code count} IDs carry the period current when the call
     * began.
     */
    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        IdArguments.checkCount(count);
        Window window;
        try {
            window = window(timeSource.currentTimeMillis());
        } catch (LayoutExhaustedException e) {
            return CompletableFuture.failedFuture(e);
        }
        String counter = counterName(window, name);
        return delegate.nextIdsAsync(counter, count, blocking).thenApply(ids -> {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = id(window, ids[i], counter, name);
            }
            return ids;
        });
    }

    /**
     * @param id an ID this service issued, with the same period and digits
     * @return its period and number
     * @throws InvalidArgumentException naming {@code id} when it is not positive, its leading digits are not the key
     *         of a date of the years 1000 to 9999, or its number is 0
     */
    @Override
    public PeriodicDecodedId decode(long id) {
        IdArguments.checkId(id);
        long key = id / limit;
        long number = id % limit;
        LocalDate firstDay = period.firstDayOf(key);
        if (firstDay == null || number == 0) {
            throw new InvalidArgumentException(
                    "id",
                    id,
                    "id " + id + " is not a " + period + " ID with " + digits
                            + " digits: "
                            + (firstDay == null
                                    ? "its leading digits " + key + " are not the key of a date of" + " the years "
                                            + Period.FIRST_YEAR + " to " + Period.LAST_YEAR
                                    : "its number (the last " + digits + " digits) is 0"));
        }
        return new PeriodicDecodedId(delegate.strategy(), id, period, firstDay, number);
    }

    /**
     * @return the counting service the numbers come from
     */
    public IdService delegate() {
        return delegate;
    }

    public Period period() {
        return period;
    }

    /**
     * @return how many trailing digits of an ID hold its number
     */
    public int digits() {
        return digits;
    }

    /**
     * @return the zone whose midnight starts each period
     */
    public ZoneId zone() {
        return zone;
    }

    /**
     * Closes the delegate, when it is {@link AutoCloseable}.
     */
    @Override
    public void close() {
        if (delegate instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("Closing " + delegate + " failed: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public String toString() {
        return "PeriodicIdService[" + period + ", digits=" + digits + ", zone=" + zone + ", delegate=" + delegate + "]";
    }

    /**
     * @return the period {@code now} lies in
     */
    private Window window(long now) {
        Window window = current;
        if (now >= window.start && now < window.end) {
            return window;
        }
        // A thread that read the clock just before midnight may get here after another moved the service on: the
        // period before is kept, so such stragglers neither recompute it nor move every other thread back to it.
        Window before = window.before;
        if (before != null && now >= before.start && now < before.end) {
            return before;
        }
        boolean moved = window.start < window.end;
        Window next = periodOf(now, moved ? window : null);
        current = next;
        if (moved) {
            forgetPassedPeriods(next);
        }
        return next;
    }

    /**
     * Tells a delegate that keeps state per name to drop the counters of every period but {@code now} and the one in
     * use before it: those of the period before stay for stragglers that read the clock just before midnight.
     */
    private void forgetPassedPeriods(Window now) {
        if (!(delegate instanceof ForgetsNames forgetting)) {
            return;
        }
        String keep = now.suffix;
        String keepToo = now.before == null ? keep : now.before.suffix;
        int keyDigits = period.keyDigits();
        forgetting.forgetNames(counter ->
                isCounterOfPeriod(counter, keyDigits) && !counter.endsWith(keep) && !counter.endsWith(keepToo));
    }

    /**
     * @return whether {@code counter} ends with {@code ':'} and {@code keyDigits} digits: a counter of some period of
     *         this service's kind (a daily key has 8 digits, a monthly 6, a yearly 4)
     */
    static boolean isCounterOfPeriod(String counter, int keyDigits) {
        int colon = counter.length() - keyDigits - 1;
        if (colon < 1 || counter.charAt(colon) != ':') {
            return false;
        }
        for (int i = colon + 1; i < counter.length(); i++) {
            char c = counter.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * @param before the period in use so far, kept as the one before (without its own, so that no chain grows)
     */
    private Window periodOf(long now, Window before) {
        LocalDate date = LocalDate.ofInstant(Instant.ofEpochMilli(now), zone);
        if (date.getYear() < Period.FIRST_YEAR || date.getYear() > Period.LAST_YEAR) {
            throw new LayoutExhaustedException("The clock reads " + Instant.ofEpochMilli(now) + ", " + date + " in "
                    + zone + ": periodic IDs have keys for the years " + Period.FIRST_YEAR + " to " + Period.LAST_YEAR
                    + " only");
        }
        LocalDate firstDay = period.firstDay(date);
        long key = period.key(firstDay);
        return new Window(
                firstDay.atStartOfDay(zone).toInstant().toEpochMilli(),
                period.nextFirstDay(firstDay).atStartOfDay(zone).toInstant().toEpochMilli(),
                key * limit,
                ":" + key,
                before == null ? null : before.alone());
    }

    private String counterName(Window window, String name) {
        // A null name finds nothing and is then refused by the name rule.
        String counter = name == null ? null : window.counterNames.get(name);
        return counter != null ? counter : newCounterName(window, name);
    }

    private String newCounterName(Window window, String name) {
        IdArguments.checkName(name);
        if (name.length() > maxNameLength) {
            throw new InvalidArgumentException(
                    "name",
                    name,
                    "name must be at most " + maxNameLength
                            + " characters for " + period
                            + " IDs: the counter is named name + ':' + the period's key (for"
                            + " example invoice" + window.suffix + "), which must fit " + IdArguments.MAX_NAME_LENGTH
                            + " characters, but was '" + name + "' (" + name.length() + " characters)");
        }
        String counter = name + window.suffix;
        if (window.counterNames.size() < MAX_CACHED_NAMES) {
            // One string per name and period, so that the delegate's own lookups can match it by identity.
            String known = window.counterNames.putIfAbsent(name, counter);
            return known != null ? known : counter;
        }
        return counter;
    }

    private long id(Window window, long number, String counter, String name) {
        if (number >= limit) {
            throw new LayoutExhaustedException("The counter '" + counter + "' reached " + number + ": " + period
                    + " IDs with digits=" + digits + " hold at most " + (limit - 1) + " numbers a period, and its"
                    + " numbers never spill into another period's. '" + name + "' has no more IDs until the period"
                    + " ends; raise digits (at most " + period.maxDigits() + " for " + period + ") for more numbers"
                    + " a period");
        }
        if (number < 1) {
            // A number of 0 or less would give an ID of an earlier period.
            throw new IdGenerationException("The " + delegate.strategy() + " counter '" + counter + "' returned "
                    + number + ": a periodic ID needs a counter that counts from 1");
        }
        return window.base + number;
    }

    /**
     * One period: its bounds in epoch milliseconds, {@code [start, end)}, its key, and its counter names by name.
     * Its fields never change once made, so that it can be shared through a volatile field; the map only gains names.
     */
    private static final class Window {

        final long start;
        final long end;
        /** key * 10^digits. */
        final long base;
        /** {@code ':'} and the key. */
        final String suffix;

        final ConcurrentHashMap<String, String> counterNames;
        /** The period in use before this one, or null; its own {@code before} is always null. */
        final Window before;

        Window(long start, long end, long base, String suffix, Window before) {
            this.start = start;
            this.end = end;
            this.base = base;
            this.suffix = suffix;
            this.counterNames = new ConcurrentHashMap<>();
            this.before = before;
        }

        private Window(Window period) {
            this.start = period.start;
            this.end = period.end;
            this.base = period.base;
            this.suffix = period.suffix;
            this.counterNames = period.counterNames;
            this.before = null;
        }

        /**
         * @return this period without the one before it, sharing its counter names
         */
        Window alone() {
            return before == null ? this : new Window(this);
        }
    }

    /**
     * Builds a {@link PeriodicIdService}.
     */
    public static final class Builder {

        private IdService delegate;
        private Period period;
        /** Null for the period's default. */
        private Integer digits;

        private ZoneId zone = ZoneOffset.UTC;
        private TimeSource timeSource = TimeSource.system();

        private Builder() {}

        /**
         * @param delegate the counting service each period's numbers come from: any service whose
         *        {@code nextId(name)} counts each name from 1 (ticket, segment, redis); the built service closes it
         * @return this builder
         */
        public Builder delegate(IdService delegate) {
            this.delegate = delegate;
            return this;
        }

        /**
         * @param period how long one counter lasts
         * @return this builder
         */
        public Builder period(Period period) {
            this.period = period;
            return this;
        }

        /**
         * @param digits how many trailing digits of an ID hold its number, from 1 to {@link Period#maxDigits()}; by
         *        default {@link Period#defaultDigits()}, which keeps IDs below 2^53. Decoding needs the digits the
         *        IDs were issued with; IDs of this period issued with other digits differ in length, so they never
         *        collide; IDs of another period type may (see the class comment).
         * @return this builder
         */
        public Builder digits(int digits) {
            this.digits = digits;
            return this;
        }

        /**
         * @param zone the zone whose midnight starts each period; UTC by default. Every instance that shares the
         *        delegate's counters must use the same one.
         * @return this builder
         */
        public Builder zone(ZoneId zone) {
            this.zone = zone;
            return this;
        }

        /**
         * @param timeSource the clock that picks the period; the system clock by default
         * @return this builder
         */
        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @return the service
         * @throws InvalidArgumentException naming the setting that is missing or breaks its rule
         */
        public PeriodicIdService build() {
            if (delegate == null) {
                throw new InvalidArgumentException("delegate", null, "delegate must be set");
            }
            if (period == null) {
                throw new InvalidArgumentException("period", null, "period must be set");
            }
            int resolved = digits == null ? period.defaultDigits() : digits;
            if (resolved < 1 || resolved > period.maxDigits()) {
                throw new InvalidArgumentException(
                        "digits",
                        resolved,
                        "digits must be between 1 and "
                                + period.maxDigits() + " for " + period
                                + " IDs (more would not fit in 63 bits), but was "
                                + resolved);
            }
            if (zone == null) {
                throw new InvalidArgumentException("zone", null, "zone must be set");
            }
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            return new PeriodicIdService(delegate, period, resolved, zone, timeSource);
        }
    }
}
