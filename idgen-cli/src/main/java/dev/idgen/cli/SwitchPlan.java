package dev.idgen.cli;

import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The epoch of idgen's own layout that puts every new ID above everything another library's fleet has issued or can
 * still issue: the arithmetic behind {@code plan}'s way (b).
 */
final class SwitchPlan {

    /** How far ahead the old fleet's clocks may run: its bound is taken at {@code t + 1 minute}. */
    static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);

    /** A year of 365.25 days, the unit of the years a layout has left. */
    static final Duration YEAR = Duration.ofHours(365 * 24 + 6);

    /**
     * The latest epoch, or why there is none.
     *
     * @param epoch the epoch, rounded down to a whole second; empty when none works
     * @param exhaustedAt when idgen's layout with that epoch runs out
     * @param whyNone why no epoch works, or null
     */
    record EpochChoice(Optional<Instant> epoch, Optional<Instant> exhaustedAt, String whyNone) {

        static EpochChoice none(String why) {
            return new EpochChoice(Optional.empty(), Optional.empty(), why);
        }
    }

    private SwitchPlan() {}

    /**
     * The latest epoch, to the second, for idgen's standard layout (41 bits of milliseconds, 10 worker bits, 12
     * sequence bits) such that idgen's smallest ID at every time {@code t >= now} exceeds both {@code highest} and
     * {@code from.maxIdIssuedBy(t + 1 minute)}, with at least a year left.
     *
     * @param from the old fleet's library
     * @param highest the highest ID the old fleet has issued
     * @param now the time of the switch
     * @return the epoch and when it runs out, or why none works
     */
    static EpochChoice latestEpoch(SnowflakePreset from, long highest, Instant now) {
        SnowflakeLayout idgen = SnowflakeLayout.standard();
        int low = idgen.workerBits() + idgen.sequenceBits();
        long nowMillis = now.toEpochMilli();
        long margin = CLOCK_MARGIN.toMillis();
        if (from.maxIdIssuedBy(now.plus(CLOCK_MARGIN)) == Long.MAX_VALUE) {
            return EpochChoice.none(from.key() + "'s layout ran out at " + from.exhaustedAt()
                    + ": by its layout alone its IDs can be anything up to " + Long.MAX_VALUE);
        }
        int oldLow = from.workerBits() + from.sequenceBits();
        // IDs per millisecond: 2^oldLow per tick of the old layout against idgen's 2^low. Faster ones overtake any
        // epoch.
        if ((1L << oldLow) > (1L << low) * from.tickMillis()) {
            return EpochChoice.none(from.key() + "'s IDs grow by 2^" + oldLow + " every " + from.tickMillis()
                    + " ms, faster than idgen's 2^" + low + " every ms: they would overtake any epoch");
        }
        // idgen's smallest ID at t is (t - epoch) << low; it must exceed the old bound B: t - epoch >= (B >> low) + 1.
        // The old bound grows no faster than idgen's IDs, one tick at a time, so over its first tick from now each
        // later tick only widens the gap: the least t - ((B >> low) + 1) over that tick holds for every later t.
        long epoch = nowMillis - ((highest >> low) + 1);
        for (long t = nowMillis; t <= nowMillis + from.tickMillis(); t++) {
            long bound = from.maxIdIssuedBy(Instant.ofEpochMilli(t + margin));
            epoch = Math.min(epoch, t - ((bound >> low) + 1));
        }
        // From its last tick (less the ticks it borrows) the old layout's bound is every ID: idgen's layout has to
        // run out before that tick, less the margin.
        long oldUnbounded = from.exhaustedAt().toEpochMilli() - (from.aheadTicks() + 1) * from.tickMillis();
        long idgenSpan = (1L << idgen.timestampBits()) * idgen.tickUnit().millis();
        epoch = Math.min(epoch, oldUnbounded - margin - idgenSpan);
        epoch = Math.floorDiv(epoch, 1000) * 1000;
        Instant chosen = Instant.ofEpochMilli(epoch);
        Instant exhausted = Instant.ofEpochMilli(epoch + idgenSpan);
        if (epoch < 0) {
            return EpochChoice.none("the latest epoch that works, " + chosen + ", is before 1970 (idgen's layout would"
                    + " run out at " + exhausted + ")");
        }
        if (Duration.between(now, exhausted).compareTo(YEAR) < 0) {
            return EpochChoice.none("the latest epoch that works, " + chosen + ", leaves idgen's layout "
                    + years(now, exhausted) + " years (it runs out at " + exhausted + "), under a year");
        }
        return new EpochChoice(Optional.of(chosen), Optional.of(exhausted), null);
    }

    /** @return the years from {@code now} to {@code end}, one decimal, negative when {@code end} has passed */
    static String years(Instant now, Instant end) {
        double years = (double) Duration.between(now, end).toMillis() / YEAR.toMillis();
        return String.format(Locale.ROOT, "%.1f", years);
    }
}
