package dev.idgen.spring.boot.autoconfigure.snowflake;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.core.snowflake.WorkerIdRanges;
import dev.idgen.jdbc.ColumnMaximum;
import dev.idgen.spring.boot.autoconfigure.core.IdgenGenerators;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.jdbc.JdbcProperties;
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
 * above every ID the old generator can issue up to the time it stops ({@code switch.old-writers-stop-by}, default: it
 * has stopped already), plus the clock margin: see {@link #checkAboveOld}. idgen's generator never goes back in time
 * (it waits out, or fails on, a clock that steps back), so IDs above the bound at start stay above it. Old writers
 * that run on past that time may repeat idgen's IDs.</li>
 * </ol>
 *
 * <p>Only the rolling way suits an open-ended side-by-side run: both sides' IDs grow, and an old writer keeps reaching
 * values idgen issued earlier, unless their worker ids are apart.
 */
final class SnowflakeSwitch {

    /** A peer preset with less left than this is refused: a fleet would have to switch again within the year. */
    static final Duration MIN_PEER_LIFETIME = Duration.ofDays(365);

    /** The furthest ahead {@code switch.old-writers-stop-by} may be. */
    static final Duration MAX_STOP_BY_AHEAD = Duration.ofDays(366);

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
                definition.settings(SnowflakeProperties.SECTION).getPreset();
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
                definition.settings(SnowflakeProperties.SECTION).getPreset();
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
        String from =
                definition.settings(SnowflakeProperties.SECTION).getSwitch().getFrom();
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
        String text =
                definition.settings(SnowflakeProperties.SECTION).getSwitch().getOldWorkerIds();
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
        String text =
                definition.settings(SnowflakeProperties.SECTION).getSwitch().getOldWorkerIds();
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
                    SnowflakeStrategy.workerIdAssignerSetting(definition) + " gave worker id " + workerId
                            + ", one the old fleet uses (" + property + "=" + old + "): both would issue the same IDs",
                    "Set " + definition.property("snowflake.ordinal.offset") + " so that every ordinal lands above "
                            + old.max() + ", or lease worker ids ("
                            + definition.property("snowflake.worker-id-assigner")
                            + "), which keep out of them");
        }
    }

    /**
     * The way above the old IDs: refuses to start while idgen's smallest ID now is not above
     * {@code switch.start-above} and the MAX of {@code switch.start-above-max-of}, or, with {@code switch.from} (and
     * no {@code old-worker-ids}), not above every ID the old generator can issue up to {@code old-writers-stop-by}
     * ({@link #checkAboveOld}).
     *
     * @param dataSource the application's single DataSource, or null when there is none
     */
    static void checkStartAbove(
            IdgenGenerators.Definition definition,
            SnowflakeLayout layout,
            TimeSource timeSource,
            Supplier<DataSource> dataSource) {
        SnowflakeProperties.Switch settings =
                definition.settings(SnowflakeProperties.SECTION).getSwitch();
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
        // The old generator first: its refusal reports the latest epoch that works up to the time the old fleet stops.
        if (from != null && !rolling) {
            long now = timeSource.currentTimeMillis();
            Instant stopBy = settings.getOldWritersStopBy();
            checkStopBy(definition, now, stopBy);
            checkAboveOld(definition, layout, from, now, settings.getClockMargin(), stopBy);
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
     * Refuses unless idgen's smallest ID now (this tick, worker 0, sequence 0) is above
     * {@code from.maxIdIssuedBy(max(now, stopBy) + margin)}: the highest ID the old fleet, whose hosts' clocks may be
     * up to {@code margin} ahead of this one, can issue up to the time it stops. After {@code stopBy} the old fleet
     * issues nothing, so its IDs are frozen, and idgen's never go back in time: above the bound now, above it later.
     * Old writers still running after {@code stopBy} may repeat idgen's IDs: an open-ended side-by-side run is the
     * rolling way ({@code switch.old-worker-ids}).
     *
     * <p>Exact: {@code floor((now - E) / u) * 2^L > B} holds iff {@code E <= now - (floor(B / 2^L) + 1) * u}, the
     * latest epoch the refusal reports.
     *
     * @param stopBy when the old fleet issues its last ID ({@code switch.old-writers-stop-by}), or null when it has
     *     already stopped
     */
    static void checkAboveOld(
            IdgenGenerators.Definition definition,
            SnowflakeLayout layout,
            SnowflakePreset from,
            long now,
            Duration clockMargin,
            Instant stopBy) {
        long oldBound = oldBound(from, now, clockMargin.toMillis(), stopBy);
        long smallest = smallestId(layout, now);
        if (smallest > oldBound) {
            return;
        }
        String property = definition.property("snowflake.switch.from");
        String stopProperty = definition.property("snowflake.switch.old-writers-stop-by");
        boolean later = stopBy != null && stopBy.isAfter(Instant.ofEpochMilli(now));
        String by = later ? "by " + stopProperty + "=" + stopBy : "by now";
        String reason = "idgen's smallest ID now (this tick, worker 0, sequence 0) is " + smallest + ", not above "
                + (oldBound == Long.MAX_VALUE
                        ? "every ID " + from.key() + " can have issued " + by + ": its layout ran out on "
                                + from.exhaustedAt() + ", its IDs may reach " + Long.MAX_VALUE
                        : oldBound + ", the highest ID " + from.key() + " can have issued " + by + " plus "
                                + definition.property("snowflake.switch.clock-margin") + "=" + clockMargin);
        Instant latest = latestEpoch(layout, now, oldBound);
        throw new IdgenPropertyValueException(
                property,
                from.key(),
                reason,
                latest != null
                        ? "Choose an earlier " + definition.property("snowflake.epoch") + ": at most " + latest
                                + " for this layout (above " + from.key() + "'s IDs up to " + by.substring(3)
                                + " plus the clock margin)"
                                + (later
                                        ? ", or an earlier " + stopProperty
                                        : "; if old writers still run, set " + stopProperty + " to when they stop"
                                                + (stopBy == null ? "" : " (" + stopBy + " has passed)"))
                        : "No epoch of this layout reaches above it: use more timestamp bits or fewer worker and"
                                + " sequence bits (" + definition.property("snowflake.timestamp-bits") + ")");
    }

    /**
     * @return the highest ID {@code from} can issue by {@code max(now, stopBy) + margin}
     */
    static long oldBound(SnowflakePreset from, long now, long marginMillis, Instant stopBy) {
        long last = stopBy == null ? now : Math.max(now, stopBy.toEpochMilli());
        return from.maxIdIssuedBy(Instant.ofEpochMilli(last + marginMillis));
    }

    /**
     * The latest epoch at which this layout's smallest ID at {@code now} is above {@code bound}.
     *
     * @return the epoch, or null when none is
     */
    static Instant latestEpoch(SnowflakeLayout layout, long now, long bound) {
        int low = layout.workerBits() + layout.sequenceBits();
        // floorDiv(now - epoch, tick) << low > bound  <=>  ticks >= bound / 2^low + 1  <=>  epoch <= now - ticks*tick
        BigInteger ticks = BigInteger.valueOf(bound).shiftRight(low).add(BigInteger.ONE);
        if (bound == Long.MAX_VALUE || ticks.bitLength() > layout.timestampBits()) {
            return null;
        }
        BigInteger latest = BigInteger.valueOf(now).subtract(ticks.multiply(BigInteger.valueOf(tickMillis(layout))));
        return latest.signum() < 0 ? null : Instant.ofEpochMilli(latest.longValueExact());
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
        Duration timeout = definition.settings(JdbcProperties.SECTION).checkedTimeout(definition.property("jdbc"));
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
                            + " to the generator they run and "
                            + definition.property("snowflake.switch.old-writers-stop-by")
                            + " to when they stop, so that start-up bounds every ID they can issue until then");
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

    /** Refuses an {@code old-writers-stop-by} more than {@link #MAX_STOP_BY_AHEAD} ahead of now. */
    private static void checkStopBy(IdgenGenerators.Definition definition, long now, Instant stopBy) {
        if (stopBy != null && stopBy.isAfter(Instant.ofEpochMilli(now).plus(MAX_STOP_BY_AHEAD))) {
            throw new InvalidConfigurationPropertyValueException(
                    definition.property("snowflake.switch.old-writers-stop-by"),
                    stopBy,
                    "must be at most " + MAX_STOP_BY_AHEAD.toDays() + " days from now (up to "
                            + Instant.ofEpochMilli(now).plus(MAX_STOP_BY_AHEAD) + "); an earlier time is taken as now");
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
