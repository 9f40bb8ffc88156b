package dev.idgen.core.period;

import dev.idgen.core.InvalidArgumentException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.YearMonth;

/**
 * How long one counter of a {@link PeriodicIdService} lasts, and the key that names it: a day ({@code 20261123}), a
 * month ({@code 202611}) or a year ({@code 2026}), read in the service's zone.
 *
 * <p>A periodic ID is {@code key * 10^digits + n}. Keys are written for the years {@value #FIRST_YEAR} to
 * {@value #LAST_YEAR} only, so that every key of a period has the same number of digits: the key is then the ID's
 * leading digits, IDs sort by period first, and IDs issued with different {@code digits} differ in length, so they
 * never collide.
 */
public enum Period {

    /** A counter per calendar day, keyed {@code yyyyMMdd}, for example {@code 20261123}. */
    DAILY(8, 8, 10),

    /** A counter per calendar month, keyed {@code yyyyMM}, for example {@code 202611}. */
    MONTHLY(6, 10, 12),

    /** A counter per calendar year, keyed {@code yyyy}, for example {@code 2026}. */
    YEARLY(4, 12, 14);

    /** The first year a key is written for: earlier years would have keys with fewer digits. */
    static final int FIRST_YEAR = 1000;

    /** The last year a key is written for: later years would have keys with more digits. */
    static final int LAST_YEAR = 9999;

    private final int keyDigits;
    private final int defaultDigits;
    private final int maxDigits;

    Period(int keyDigits, int defaultDigits, int maxDigits) {
        this.keyDigits = keyDigits;
        this.defaultDigits = defaultDigits;
        this.maxDigits = maxDigits;
    }

    /**
     * The key of the period a date lies in.
     *
     * @param date a date of the years {@value #FIRST_YEAR} to {@value #LAST_YEAR}
     * @return {@code yyyyMMdd}, {@code yyyyMM} or {@code yyyy} of that date
     * @throws InvalidArgumentException naming {@code date} when it lies outside those years
     */
    public long key(LocalDate date) {
        if (date == null || date.getYear() < FIRST_YEAR || date.getYear() > LAST_YEAR) {
            throw new InvalidArgumentException(
                    "date",
                    date,
                    "date must lie in the years " + FIRST_YEAR + " to " + LAST_YEAR + ", but was " + date);
        }
        return switch (this) {
            case DAILY -> date.getYear() * 10_000L + date.getMonthValue() * 100L + date.getDayOfMonth();
            case MONTHLY -> date.getYear() * 100L + date.getMonthValue();
            case YEARLY -> date.getYear();
        };
    }

    /**
     * The {@code digits} a {@link PeriodicIdService} of this period has unless told otherwise: the most that keep its
     * IDs below 2^53, which JavaScript numbers (and JSON read by JavaScript) hold exactly, for every date up to the
     * year 9006. That is 10^8 numbers a day, 10^10 a month or 10^12 a year; one digit more would pass 2^53 in any year.
     *
     * @return 8 for {@link #DAILY}, 10 for {@link #MONTHLY}, 12 for {@link #YEARLY}
     */
    public int defaultDigits() {
        return defaultDigits;
    }

    /**
     * The most {@code digits} this period allows: with more, the IDs of the year 9999 would not fit in 63 bits.
     *
     * @return 10 for {@link #DAILY}, 12 for {@link #MONTHLY}, 14 for {@link #YEARLY}
     */
    public int maxDigits() {
        return maxDigits;
    }

    /**
     * @return how many digits every key has: 8, 6 or 4
     */
    int keyDigits() {
        return keyDigits;
    }

    /**
     * @return the first day of the period {@code date} lies in
     */
    LocalDate firstDay(LocalDate date) {
        return switch (this) {
            case DAILY -> date;
            case MONTHLY -> date.withDayOfMonth(1);
            case YEARLY -> date.withDayOfYear(1);
        };
    }

    /**
     * @param firstDay the first day of a period
     * @return the first day of the period after it
     */
    LocalDate nextFirstDay(LocalDate firstDay) {
        return switch (this) {
            case DAILY -> firstDay.plusDays(1);
            case MONTHLY -> firstDay.plusMonths(1);
            case YEARLY -> firstDay.plusYears(1);
        };
    }

    /**
     * Reads a key back.
     *
     * @param key a key of this period
     * @return the first day of its period, or {@code null} when {@code key} is not the key of a date of the years
     *         {@value #FIRST_YEAR} to {@value #LAST_YEAR}
     */
    LocalDate firstDayOf(long key) {
        long year = switch (this) {
            case DAILY -> key / 10_000;
            case MONTHLY -> key / 100;
            case YEARLY -> key;
        };
        if (key < 0 || year < FIRST_YEAR || year > LAST_YEAR) {
            return null;
        }
        try {
            return switch (this) {
                case DAILY -> LocalDate.of((int) year, (int) (key / 100 % 100), (int) (key % 100));
                case MONTHLY -> LocalDate.of((int) year, (int) (key % 100), 1);
                case YEARLY -> LocalDate.of((int) year, 1, 1);
            };
        } catch (DateTimeException e) {
            return null;
        }
    }

    /**
     * @param firstDay the first day of a period
     * @return the period as people write it: {@code 2026-11-23}, {@code 2026-11} or {@code 2026}
     */
    String label(LocalDate firstDay) {
        return switch (this) {
            case DAILY -> firstDay.toString();
            case MONTHLY -> YearMonth.from(firstDay).toString();
            case YEARLY -> Integer.toString(firstDay.getYear());
        };
    }
}
