package dev.idgen.core.period;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.math.BigInteger;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PeriodTest {

    private static final LocalDate DAY = LocalDate.of(2026, 11, 23);

    private static final BigInteger TWO_TO_53 = BigInteger.ONE.shiftLeft(53);

    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    @Test
    void theKeyOfADateIsItsDayMonthOrYearAsDigits() {
        assertThat(Period.DAILY.key(DAY)).isEqualTo(20261123L);
        assertThat(Period.MONTHLY.key(DAY)).isEqualTo(202611L);
        assertThat(Period.YEARLY.key(DAY)).isEqualTo(2026L);
        assertThat(Period.DAILY.key(LocalDate.of(1000, 1, 1))).isEqualTo(10000101L);
        assertThat(Period.DAILY.key(LocalDate.of(9999, 12, 31))).isEqualTo(99991231L);
    }

    @ParameterizedTest
    @EnumSource(Period.class)
    void keysAreWrittenForTheYears1000To9999Only(Period period) {
        for (LocalDate date : new LocalDate[] {LocalDate.of(999, 12, 31), LocalDate.of(10_000, 1, 1), null}) {
            assertThatThrownBy(() -> period.key(date))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("date"))
                    .hasMessage("date must lie in the years 1000 to 9999, but was " + date);
        }
    }

    @Test
    void eachPeriodHasItsDefaultAndLargestDigits() {
        assertThat(Period.DAILY.maxDigits()).isEqualTo(10);
        assertThat(Period.MONTHLY.maxDigits()).isEqualTo(12);
        assertThat(Period.YEARLY.maxDigits()).isEqualTo(14);
        assertThat(Period.DAILY.defaultDigits()).isEqualTo(8);
        assertThat(Period.MONTHLY.defaultDigits()).isEqualTo(10);
        assertThat(Period.YEARLY.defaultDigits()).isEqualTo(12);
    }

    /** The largest ID of a period is its key times 10^k plus 10^k - 1: (key + 1) * 10^k - 1. */
    private static BigInteger largestId(Period period, LocalDate date, int digits) {
        return BigInteger.valueOf(period.key(date) + 1)
                .multiply(BigInteger.TEN.pow(digits))
                .subtract(BigInteger.ONE);
    }

    @ParameterizedTest
    @EnumSource(Period.class)
    void maxDigitsIsTheMostThatKeepTheLastDateOfTheYear9999Within63Bits(Period period) {
        LocalDate last = LocalDate.of(9999, 12, 31);
        assertThat(largestId(period, last, period.maxDigits())).isLessThanOrEqualTo(LONG_MAX);
        assertThat(largestId(period, last, period.maxDigits() + 1)).isGreaterThan(LONG_MAX);
    }

    @ParameterizedTest
    @EnumSource(Period.class)
    void defaultDigitsKeepEveryIdUpToTheYear9006Below2To53AndOneMoreWouldNotInAnyYear(Period period) {
        assertThat(largestId(period, LocalDate.of(9006, 12, 31), period.defaultDigits()))
                .isLessThan(TWO_TO_53);
        BigInteger smallestWithOneMore = BigInteger.valueOf(period.key(LocalDate.of(1000, 1, 1)))
                .multiply(BigInteger.TEN.pow(period.defaultDigits() + 1));
        assertThat(smallestWithOneMore).isGreaterThan(TWO_TO_53);
    }

    @Test
    void everyKeyOfAPeriodHasTheSameNumberOfDigits() {
        for (Period period : Period.values()) {
            for (LocalDate date : new LocalDate[] {LocalDate.of(1000, 1, 1), DAY, LocalDate.of(9999, 12, 31)}) {
                assertThat(Long.toString(period.key(date))).hasSize(period.keyDigits());
            }
        }
    }

    @Test
    void aKeyReadsBackAsTheFirstDayOfItsPeriodAndNothingElseDoes() {
        assertThat(Period.DAILY.firstDayOf(20261123)).isEqualTo(DAY);
        assertThat(Period.MONTHLY.firstDayOf(202611)).isEqualTo(LocalDate.of(2026, 11, 1));
        assertThat(Period.YEARLY.firstDayOf(2026)).isEqualTo(LocalDate.of(2026, 1, 1));
        assertThat(Period.DAILY.firstDayOf(20280229)).isEqualTo(LocalDate.of(2028, 2, 29));
        for (long key : new long[] {20261131, 20261300, 20261100, 20270229, 9991231, 100000101, 0, -20261123}) {
            assertThat(Period.DAILY.firstDayOf(key)).as("DAILY %d", key).isNull();
        }
        for (long key : new long[] {202613, 202600, 99912, 1000001, -202611}) {
            assertThat(Period.MONTHLY.firstDayOf(key)).as("MONTHLY %d", key).isNull();
        }
        for (long key : new long[] {999, 10_000, 0, -2026}) {
            assertThat(Period.YEARLY.firstDayOf(key)).as("YEARLY %d", key).isNull();
        }
    }

    @Test
    void periodsFollowOneAnotherAndHaveTheirUsualLabels() {
        assertThat(Period.DAILY.firstDay(DAY)).isEqualTo(DAY);
        assertThat(Period.MONTHLY.firstDay(DAY)).isEqualTo(LocalDate.of(2026, 11, 1));
        assertThat(Period.YEARLY.firstDay(DAY)).isEqualTo(LocalDate.of(2026, 1, 1));
        assertThat(Period.DAILY.nextFirstDay(LocalDate.of(2026, 12, 31))).isEqualTo(LocalDate.of(2027, 1, 1));
        assertThat(Period.MONTHLY.nextFirstDay(LocalDate.of(2026, 12, 1))).isEqualTo(LocalDate.of(2027, 1, 1));
        assertThat(Period.YEARLY.nextFirstDay(LocalDate.of(2026, 1, 1))).isEqualTo(LocalDate.of(2027, 1, 1));
        assertThat(Period.DAILY.label(DAY)).isEqualTo("2026-11-23");
        assertThat(Period.MONTHLY.label(LocalDate.of(2026, 11, 1))).isEqualTo("2026-11");
        assertThat(Period.YEARLY.label(LocalDate.of(2026, 1, 1))).isEqualTo("2026");
    }
}
