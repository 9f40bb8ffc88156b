package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.core.snowflake.WorkerIdRanges;
import dev.idgen.jdbc.ColumnMaximum;
import dev.idgen.spring.boot.autoconfigure.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The start-up checks of a switch to idgen's Snowflake from another Snowflake generator ({@code snowflake.switch.*}
 * and the peer presets of {@code snowflake.preset}). A fleet switches without a repeat in one of two ways:
 *
 * <ol>
 * <li><b>Rolling, in the old layout</b> ({@code switch.old-worker-ids}): idgen runs the old library's layout, epoch
 * included, under worker ids the old fleet does not use, so both issue at once and never the same ID. Disjoint worker
 * ids only separate IDs within one layout, so the layouts must be equal.</li>
 * <li><b>Above the old IDs</b> ({@code switch.start-above}, {@code switch.start-above-max-of}, {@code switch.from}):
 * idgen's smallest ID now (this tick, worker 0, sequence 0) is above the bound. With {@code switch.from} it is also
 * above every ID the old generator can issue from now on, for as long as idgen's layout lasts: see
 * {@link #checkAboveOld}. idgen's generator never goes back in time (it waits out, or fails on, a clock that steps
 * back), so IDs above the bound at start stay above it.</li>
 * </ol>
 */
final class SnowflakeSwitch {

    /** A peer preset with less left than this is refused: a fleet would have to switch again within the year. */
    static final Duration MIN_PEER_LIFETIME = Duration.ofDays(365);

    private SnowflakeSwitch() {}

    /**
     * @return the library layout a peer preset stands for, or null for idgen's own presets
     */
    static SnowflakePreset peer(SnowflakeProperties.Preset preset) {
        return switch (preset) {
            case STANDARD, JAVASCRIPT_SAFE -> null;
            default -> SnowflakePreset.valueOf(preset.name());
        };
    }

    /**
     * Refuses {@code preset=sonyflake}: idgen's generator puts the worker id above the sequence, Sonyflake below it, in
     * 10-millisecond ticks, so idgen cannot issue Sonyflake's IDs.
     */
    static void refuseUnproducible(IdgenGenerators.Definition definition) {
        SnowflakeProperties.Preset preset =
                definition.properties().getSnowflake().getPreset();
        SnowflakePreset peer = preset == null ? null : peer(preset);
        if (peer != null && peer.layout().isEmpty()) {
            String prefix = definition.property("snowflake");
            throw new IdgenPropertyValueException(
                    prefix + ".preset",
                    peer.key(),
                    "idgen cannot produce " + peer.key() + "'s IDs: it puts the machine id below the sequence, in "
                            + peer.tickMillis() + "-millisecond ticks",
                    "Switch above its highest ID instead: keep idgen's own preset and set " + prefix
                            + ".switch.from=" + peer.key() + " with " + prefix + ".switch.start-above or " + prefix
                            + ".switch.start-above-max-of");
        }
    }

    /**
     * Refuses a peer preset whose layout has less than a year left (uid-generator's ran out on 2024-11-20).
     */
    static void refuseShortLived(IdgenGenerators.Definition definition, SnowflakeLayout layout, long nowMillis) {
        SnowflakeProperties.Preset preset =
                definition.properties().getSnowflake().getPreset();
        SnowflakePreset peer = preset == null ? null : peer(preset);
        if (peer == null || layout.remainingLifetime(nowMillis).compareTo(MIN_PEER_LIFETIME) >= 0) {
            return;
        }
        String prefix = definition.property("snowflake");
        boolean over = layout.remainingLifetime(nowMillis).compareTo(Duration.ZERO) <= 0;
        throw new IdgenPropertyValueException(
                prefix + ".preset",
                peer.key(),
                "the " + peer.key() + " layout (" + layout.timestampBits() + " timestamp bits of "
                        + layout.tickUnit().name().toLowerCase(Locale.ROOT) + ") "
                        + (over ? "ran out on " : "runs out on ") + layout.exhaustedAt()
                        + (over ? "" : ", less than a year from now"),
                "Leave the layout instead of keeping it: keep idgen's own preset and set " + prefix + ".switch.from="
                        + peer.key() + " with " + prefix + ".switch.start-above or " + prefix
                        + ".switch.start-above-max-of");
    }

    /**
     * @return the generator the fleet switches from, or null
     */
    static SnowflakePreset from(IdgenGenerators.Definition definition) {
        String from = definition.properties().getSnowflake().getSwitch().getFrom();
        if (from == null || from.isBlank()) {
            return null;
        }
        try {
            return SnowflakePreset.parse(from);
        } catch (InvalidArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("snowflake.switch.from"),
                    from,
                    "must be one of " + SnowflakePreset.knownNames());
        }
    }

    /**
     * The old fleet's worker ids, for a rolling switch; checked against the layout: the old generator's layout must be
     * idgen's, and the ids within it.
     *
     * @return the ids, empty when {@code switch.old-worker-ids} is not set
     */
    static WorkerIdRanges oldWorkerIds(IdgenGenerators.Definition definition, SnowflakeLayout layout) {
        String property = definition.property("snowflake.switch.old-worker-ids");
        String text = definition.properties().getSnowflake().getSwitch().getOldWorkerIds();
        WorkerIdRanges old;
        try {
            old = WorkerIdRanges.parse(property, text);
        } catch (InvalidArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(property, text, e.getMessage());
        }
        if (old.isEmpty()) {
            return old;
        }
        SnowflakePreset from = from(definition);
        String fromProperty = definition.property("snowflake.switch.from");
        String presetProperty = definition.property("snowflake.preset");
        if (from == null) {
            throw new IdgenPropertyValueException(
                    property,
                    text,
                    "names the old fleet's worker ids, but not its layout: " + fromProperty + " is not set",
                    "Set " + fromProperty + " to the generator the fleet runs, and " + presetProperty + " to the same");
        }
        SnowflakeLayout fromLayout = from.layout().orElse(null);
        if (!layout.equals(fromLayout)) {
            throw new IdgenPropertyValueException(
                    property,
                    text,
                    "disjoint worker ids keep IDs apart only within one layout, but idgen runs " + layout + " and "
                            + fromProperty + "=" + from.key() + " runs "
                            + (fromLayout == null ? "a layout idgen cannot produce" : fromLayout.toString()),
                    fromLayout == null
                            ? "Switch above its highest ID instead: remove " + property + " and set "
                                    + definition.property("snowflake.switch.start-above") + " or "
                                    + definition.property("snowflake.switch.start-above-max-of")
                            : "Set " + presetProperty + "=" + from.key() + " (and no epoch, time-unit or bits of"
                                    + " your own) to keep its layout; or remove " + property
                                    + " and switch above its IDs with "
                                    + definition.property("snowflake.switch.start-above"));
        }
        if (old.max() > layout.maxWorkerId()) {
            throw new InvalidConfigurationPropertyValueException(
                    property,
                    text,
                    "the layout's worker ids are 0 to " + layout.maxWorkerId() + ", but " + old.max() + " is not");
        }
        return old;
    }

    /** @return whether {@code switch.old-worker-ids} is set: a rolling switch in the old layout */
    static boolean rolling(IdgenGenerators.Definition definition) {
        String text = definition.properties().getSnowflake().getSwitch().getOldWorkerIds();
        return text != null && !text.isBlank();
    }

    /**
     * Refuses a static worker id that the old fleet uses.
     */
    static void refuseOldWorkerId(IdgenGenerators.Definition definition, SnowflakeLayout layout, long workerId) {
        WorkerIdRanges old = oldWorkerIds(definition, layout);
        if (old.contains(workerId)) {
            String source = definition.property("snowflake.worker-id");
            String property = definition.property("snowflake.switch.old-worker-ids");
            throw new IdgenPropertyValueException(
                    source,
                    workerId,
                    "worker id " + workerId + " is one the old fleet uses (" + property + "=" + old + "): both would"
                            + " issue the same IDs",
                    "Give this instance a worker id outside " + old + " (" + source + "), or lease one ("
                            + definition.property("snowflake.worker-id-assigner") + "), which keeps out of them");
        }
    }

    /**
     * Refuses an ordinal worker id that the old fleet uses: it comes from the host name, not from one property, so the
     * failure names the assigner and the offset that moves it.
     */
    static void refuseOldOrdinal(IdgenGenerators.Definition definition, SnowflakeLayout layout, long workerId) {
        WorkerIdRanges old = oldWorkerIds(definition, layout);
        if (old.contains(workerId)) {
            String property = definition.property("snowflake.switch.old-worker-ids");
            throw new IdgenStartupException(
                    definition.workerIdAssignerSetting() + " gave worker id " + workerId + ", one the old fleet uses ("
                            + property + "=" + old + "): both would issue the same IDs",
                    "Set " + definition.property("snowflake.ordinal.offset") + " so that every ordinal lands above "
                            + old.max() + ", or lease worker ids ("
                            + definition.property("snowflake.worker-id-assigner")
                            + "), which keep out of them");
        }
    }

    /**
     * The way above the old IDs: refuses to start while idgen's smallest ID now is not above
     * {@code switch.start-above} and the MAX of {@code switch.start-above-max-of}, or, with {@code switch.from} (and
     * no {@code old-worker-ids}), not above every ID the old generator can issue from now on ({@link #checkAboveOld}).
     *
     * @param dataSource the application's single DataSource, or null when there is none
     */
    static void checkStartAbove(
            IdgenGenerators.Definition definition,
            SnowflakeLayout layout,
            TimeSource timeSource,
            Supplier<DataSource> dataSource) {
        SnowflakeProperties.Switch settings =
                definition.properties().getSnowflake().getSwitch();
        SnowflakePreset from = from(definition);
        boolean rolling =
                rolling(definition) && !oldWorkerIds(definition, layout).isEmpty();
        checkDuration(definition, "clock-margin", settings.getClockMargin(), Duration.ZERO, Duration.ofHours(1));
        checkDuration(
                definition,
                "recheck-interval",
                settings.getRecheckInterval(),
                Duration.ofMillis(10),
                Duration.ofMinutes(1));
        // The old generator first: its refusal reports the latest epoch that works from now on, not only now.
        if (from != null && !rolling) {
            checkAboveOld(definition, layout, from, timeSource.currentTimeMillis(), settings.getClockMargin());
        }
        if (settings.getStartAbove() != null) {
            checkAbove(definition, layout, timeSource.currentTimeMillis(), "start-above", settings.getStartAbove());
        }
        if (settings.getStartAboveMaxOf() != null) {
            long max = readMax(definition, settings, from == null, dataSource);
            checkAbove(definition, layout, timeSource.currentTimeMillis(), "start-above-max-of", max);
        }
    }

    /** Refuses when idgen's smallest ID now is not above {@code bound}. */
    private static void checkAbove(
            IdgenGenerators.Definition definition, SnowflakeLayout layout, long now, String key, long bound) {
        long smallest = smallestId(layout, now);
        if (smallest > bound) {
            return;
        }
        String property = definition.property("snowflake.switch." + key);
        int low = layout.workerBits() + layout.sequenceBits();
        // floorDiv(now - epoch, tick) << low > bound  <=>  ticks >= bound / 2^low + 1  <=>  epoch <= now - ticks*tick
        BigInteger ticks = BigInteger.valueOf(bound).shiftRight(low).add(BigInteger.ONE);
        BigInteger latest = BigInteger.valueOf(now).subtract(ticks.multiply(BigInteger.valueOf(tickMillis(layout))));
        throw new IdgenPropertyValueException(
                property,
                bound,
                "idgen's smallest ID now (this tick, worker 0, sequence 0) is " + smallest + ", not above " + bound,
                ticks.bitLength() > layout.timestampBits()
                        ? "No epoch of this layout reaches above it: use more timestamp bits or fewer worker and"
                                + " sequence bits (" + definition.property("snowflake.timestamp-bits") + ")"
                        : "Choose an earlier " + definition.property("snowflake.epoch") + ": at most "
                                + Instant.ofEpochMilli(latest.longValueExact()) + " for this layout");
    }

    /**
     * Refuses unless idgen's smallest ID exceeds {@code from.maxIdIssuedBy(t + margin)} at every time {@code t} from
     * {@code now} until idgen's layout runs out: the old fleet, whose hosts' clocks may be up to {@code margin} ahead
     * of this one, may keep issuing all that time.
     *
     * <p>Why two points suffice. Let idgen's layout have epoch {@code Ei}, tick {@code ui} ms and {@code Li} worker and
     * sequence bits, and the old one {@code Eo}, {@code uo}, {@code Lo}, running up to {@code ao} ticks ahead. For a
     * whole millisecond {@code t}:
     * <ul>
     * <li>idgen's smallest ID {@code floor((t - Ei) / ui) * 2^Li} is at least {@code S(t) = (t - Ei - ui + 1) / ui *
     * 2^Li} (a tick's first ID, for millisecond ticks exactly);</li>
     * <li>the old bound {@code (floor((t + margin - Eo) / uo) + ao + 1) * 2^Lo - 1} is at most {@code B(t) = ((t +
     * margin - Eo) / uo + ao + 1) * 2^Lo - 1}.</li>
     * </ul>
     * Both are linear in {@code t}, so {@code S - B} is too: positive at both ends of an interval, it is positive all
     * through it, whichever grows faster (the slopes are {@code 2^Li / ui} and {@code 2^Lo / uo} IDs per millisecond;
     * where the old one grows faster, idgen stays above only until a time that must lie beyond idgen's own end). The
     * interval ends where idgen's layout runs out, or earlier where the old one does: after that the old library
     * issues nothing higher than its largest ID ({@code 2^(its bits) - 1}), which idgen's ever-growing smallest ID must
     * then be above. For two layouts of one shape in milliseconds (same worker and sequence bits, and no more timestamp
     * bits for idgen) this is exact: it holds iff {@code Ei <= Eo - margin - (ao + 1)}, the latest epoch the refusal
     * reports (found by bisection for any layout); for a tick of {@code ui > 1} ms, {@code S} gives away less than one
     * tick. The comparison is in exact integers, multiplied through by {@code ui * uo}.
     */
    static void checkAboveOld(
            IdgenGenerators.Definition definition,
            SnowflakeLayout layout,
            SnowflakePreset from,
            long now,
            Duration clockMargin) {
        if (aboveOld(layout, from, now, clockMargin.toMillis())) {
            return;
        }
        String property = definition.property("snowflake.switch.from");
        long oldBound = from.maxIdIssuedBy(Instant.ofEpochMilli(now).plus(clockMargin));
        long smallest = smallestId(layout, now);
        String reason = smallest <= oldBound
                ? "idgen's smallest ID now (this tick, worker 0, sequence 0) is " + smallest + ", not above "
                        + (oldBound == Long.MAX_VALUE
                                ? "every ID " + from.key() + " can have issued: its layout ran out on "
                                        + from.exhaustedAt() + ", its IDs may reach " + Long.MAX_VALUE
                                : oldBound + ", the highest ID " + from.key() + " can have issued by now plus "
                                        + definition.property("snowflake.switch.clock-margin") + "=" + clockMargin)
                : "idgen's IDs grow by 2^" + (layout.workerBits() + layout.sequenceBits()) + " per "
                        + tickMillis(layout) + " ms, " + from.key() + "'s by 2^"
                        + (from.workerBits() + from.sequenceBits()) + " per " + from.tickMillis()
                        + " ms: the old IDs would"
                        + " overtake idgen's before idgen's layout runs out at " + layout.exhaustedAt();
        Instant latest = latestEpoch(layout, from, now, clockMargin.toMillis());
        throw new IdgenPropertyValueException(
                property,
                from.key(),
                reason,
                latest != null
                        ? "Choose an earlier " + definition.property("snowflake.epoch") + ": at most " + latest
                                + " for this layout (" + from.key() + "'s epoch " + from.epoch() + " minus the clock"
                                + " margin" + (from.aheadTicks() > 0 ? " and the ticks it runs ahead" : "") + " for a"
                                + " layout of its shape)"
                        : "No epoch of this layout stays above it: choose a layout whose IDs grow at least as fast"
                                + " (" + definition.property("snowflake.time-unit") + ", worker and sequence bits)");
    }

    /** Whether idgen's IDs stay above {@code from}'s from {@code now} on: see {@link #checkAboveOld}. */
    static boolean aboveOld(SnowflakeLayout layout, SnowflakePreset from, long now, long marginMillis) {
        long epoch = layout.epoch().toEpochMilli();
        if (epoch > now || smallestId(layout, now) <= from.maxIdIssuedBy(Instant.ofEpochMilli(now + marginMillis))) {
            return false;
        }
        long idgenEnd = layout.exhaustedAt().toEpochMilli() - 1;
        // The last millisecond at which the old bound is below the end of the old layout: the tick of t + margin, plus
        // the ticks it runs ahead, plus one, is below 2^bits.
        BigInteger oldEndTick =
                BigInteger.ONE.shiftLeft(from.timestampBits()).subtract(BigInteger.valueOf(from.aheadTicks() + 1));
        BigInteger oldEnd = BigInteger.valueOf(from.epoch().toEpochMilli())
                .add(oldEndTick.multiply(BigInteger.valueOf(from.tickMillis())))
                .subtract(BigInteger.valueOf(marginMillis + 1));
        long end = oldEnd.compareTo(BigInteger.valueOf(idgenEnd)) < 0 ? oldEnd.longValueExact() : idgenEnd;
        if (end >= now && !linearAbove(layout, from, end, marginMillis)) {
            return false;
        }
        if (end < idgenEnd) {
            // The old layout ends first: from then on idgen must be above its largest ID.
            int oldBits = from.timestampBits() + from.workerBits() + from.sequenceBits();
            long oldMax = oldBits >= 63 ? Long.MAX_VALUE : (1L << oldBits) - 1;
            return smallestId(layout, Math.max(end + 1, now)) > oldMax;
        }
        return true;
    }

    /** {@code S(t) > B(t)} of {@link #checkAboveOld}, times {@code ui * uo}. */
    private static boolean linearAbove(SnowflakeLayout layout, SnowflakePreset from, long t, long marginMillis) {
        BigInteger ui = BigInteger.valueOf(tickMillis(layout));
        BigInteger uo = BigInteger.valueOf(from.tickMillis());
        BigInteger idgen = BigInteger.valueOf(t)
                .subtract(BigInteger.valueOf(layout.epoch().toEpochMilli()))
                .subtract(ui)
                .add(BigInteger.ONE)
                .shiftLeft(layout.workerBits() + layout.sequenceBits())
                .multiply(uo);
        BigInteger old = BigInteger.valueOf(t)
                .add(BigInteger.valueOf(marginMillis))
                .subtract(BigInteger.valueOf(from.epoch().toEpochMilli()))
                .add(BigInteger.valueOf(from.aheadTicks() + 1).multiply(uo))
                .shiftLeft(from.workerBits() + from.sequenceBits())
                .subtract(uo)
                .multiply(ui);
        return idgen.compareTo(old) > 0;
    }

    /**
     * The latest epoch at which this layout's IDs stay above {@code from}'s: earlier epochs only raise idgen's IDs (and
     * end its layout sooner, shortening what must hold), so the answer is a bisection.
     *
     * @return the epoch, or null when none does
     */
    static Instant latestEpoch(SnowflakeLayout layout, SnowflakePreset from, long now, long marginMillis) {
        long span = BigInteger.ONE
                .shiftLeft(layout.timestampBits())
                .multiply(BigInteger.valueOf(tickMillis(layout)))
                .min(BigInteger.valueOf(now))
                .longValueExact();
        // The earliest epoch whose layout has not run out by now, and not before 1970 (the layout's own rule).
        long lo = now - span + 1;
        long hi = now;
        if (!aboveOld(withEpoch(layout, lo), from, now, marginMillis)) {
            return null;
        }
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (aboveOld(withEpoch(layout, mid), from, now, marginMillis)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return Instant.ofEpochMilli(lo);
    }

    private static SnowflakeLayout withEpoch(SnowflakeLayout layout, long epochMillis) {
        return layout.toBuilder().epoch(Instant.ofEpochMilli(epochMillis)).build();
    }

    /** idgen's smallest ID at {@code now}: this tick, worker 0, sequence 0. */
    static long smallestId(SnowflakeLayout layout, long now) {
        long ticks = Math.floorDiv(now - layout.epoch().toEpochMilli(), tickMillis(layout));
        return ticks << (layout.workerBits() + layout.sequenceBits());
    }

    private static long tickMillis(SnowflakeLayout layout) {
        return layout.tickUnit().millis();
    }

    /**
     * Reads {@code SELECT MAX(column) FROM table}; without {@code switch.from}, twice, {@code recheck-interval} apart,
     * refusing when it moved: a maximum read once is stale while old writers still insert, and without
     * {@code switch.from} nothing bounds what they insert next.
     *
     * @return the maximum, 0 for an empty table
     */
    private static long readMax(
            IdgenGenerators.Definition definition,
            SnowflakeProperties.Switch settings,
            boolean recheck,
            Supplier<DataSource> dataSources) {
        String property = definition.property("snowflake.switch.start-above-max-of");
        String target = settings.getStartAboveMaxOf().trim();
        ColumnMaximum column;
        try {
            column = ColumnMaximum.parse("start-above-max-of", target);
        } catch (InvalidArgumentException e) {
            throw new InvalidConfigurationPropertyValueException(property, target, e.getMessage());
        }
        DataSource dataSource = dataSources.get();
        if (dataSource == null) {
            throw IdgenStartupException.missingDataSource(
                    property + "=" + target, "set " + definition.property("snowflake.switch.start-above") + " instead");
        }
        Duration timeout = definition.properties().getJdbc().checkedTimeout(definition.property("jdbc"));
        long first = max(column, dataSource, timeout, property, target);
        if (!recheck) {
            return first;
        }
        try {
            Thread.sleep(settings.getRecheckInterval().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IdgenStartupException(
                    "Interrupted while " + property + " waited to read the maximum again", "Start again", e);
        }
        long second = max(column, dataSource, timeout, property, target);
        if (second != first) {
            throw new IdgenPropertyValueException(
                    property,
                    target,
                    "its maximum moved from " + first + " to " + second + " within "
                            + definition.property("snowflake.switch.recheck-interval") + "="
                            + settings.getRecheckInterval() + ": old writers still insert, and a maximum read once is"
                            + " stale",
                    "Stop the old writers before idgen starts, or set " + definition.property("snowflake.switch.from")
                            + " to the generator they run, so that start-up bounds every ID it can still issue");
        }
        return second;
    }

    private static long max(
            ColumnMaximum column, DataSource dataSource, Duration timeout, String property, String target) {
        try {
            return column.read(dataSource, timeout);
        } catch (StoreUnavailableException e) {
            throw new IdgenStartupException(
                    property + "=" + target + " could not be read: " + e.getMessage(),
                    "Check that the table and column exist on the application's DataSource, or set the bound"
                            + " itself with " + property.replace("start-above-max-of", "start-above"),
                    e);
        }
    }

    private static void checkDuration(
            IdgenGenerators.Definition definition, String key, Duration value, Duration min, Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("snowflake.switch." + key), value, "must be between " + min + " and " + max);
        }
    }
}
