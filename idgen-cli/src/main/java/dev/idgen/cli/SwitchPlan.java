package dev.idgen.cli;

import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The epoch of idgen's own layout that puts every new ID above everything another library's fleet has issued or can
 * still issue before it stops: the arithmetic behind {@code plan}'s way (b).
 */
final class SwitchPlan {

    /** How far ahead the old fleet's clocks may run: its bound is taken at {@code stopBy + 1 minute}. */
    static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);

    /** The furthest after the switch that {@code --old-writers-stop-by} may be. */
    static final Duration MAX_STOP_BY_AHEAD = Duration.ofDays(366);

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
     * sequence bits) such that idgen's smallest ID at {@code now} exceeds both {@code highest} and
     * {@code from.maxIdIssuedBy(max(now, stopBy) + 1 minute)}, with at least a year left. idgen's IDs never go back in
     * time, and the old fleet issues nothing after {@code stopBy}, so above at {@code now} is above for good; old
     * writers still running after {@code stopBy} may repeat idgen's IDs.
     *
     * @param from the old fleet's library
     * @param highest the highest ID the old fleet has issued
     * @param now the time of the switch
     * @param stopBy when the old fleet issues its last ID; a time before {@code now} counts as {@code now}
     * @return the epoch and when it runs out, or why none works
     */
    static EpochChoice latestEpoch(SnowflakePreset from, long highest, Instant now, Instant stopBy) {
        SnowflakeLayout idgen = SnowflakeLayout.standard();
        int low = idgen.workerBits() + idgen.sequenceBits();
        Instant last = stopBy.isAfter(now) ? stopBy : now;
        long bound = from.maxIdIssuedBy(last.plus(CLOCK_MARGIN));
        if (bound == Long.MAX_VALUE) {
            return EpochChoice.none(from.key() + "'s layout runs out by " + last.plus(CLOCK_MARGIN) + " (it ran out at "
                    + from.exhaustedAt() + "): by its layout alone its IDs can be anything up to " + Long.MAX_VALUE);
        }
        // idgen's smallest ID at now is (now - epoch) << low; it must exceed both: now - epoch >= (max >> low) + 1.
        long epoch = now.toEpochMilli() - ((Math.max(highest, bound) >> low) + 1);
        long idgenSpan = (1L << idgen.timestampBits()) * idgen.tickUnit().millis();
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
