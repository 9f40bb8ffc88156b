package dev.idgen.cli;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code plan}: the years the old layout has left and the settings of each way to switch to idgen, with the years each
 * leaves.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "Prints the years the old layout has left and the idgen.* settings of each way to switch from it,"
                + " with the years each new layout has left.")
final class PlanCommand implements Callable<Integer> {

    @Option(
            names = "--from",
            required = true,
            paramLabel = "<preset>",
            description = "The library the fleet runs: twitter, hutool, mybatis-plus, leaf, cosid, uid-generator,"
                    + " sonyflake, sonyflake-v2, yitter.")
    private String from;

    @Option(
            names = "--highest",
            required = true,
            paramLabel = "<id>",
            description = "The highest ID the old fleet has issued (SELECT MAX of the ID column).")
    private String highest;

    @Option(
            names = "--old-worker-ids",
            paramLabel = "<ranges>",
            description = "The worker ids the old fleet used, e.g. 0-31,40: for keeping the old layout.")
    private String oldWorkerIds;

    @Option(names = "--now", paramLabel = "<instant>", description = "The time of the switch; default: now.")
    private String now;

    @Option(
            names = "--old-writers-stop-by",
            paramLabel = "<instant>",
            description = "For a new epoch: when the old fleet issues its last ID, at most 366 days after --now;"
                    + " default: --now (the old writers have stopped).")
    private String oldWritersStopBy;

    private final PrintStream out;
    private final Clock clock;

    PlanCommand(PrintStream out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    @Override
    public Integer call() {
        SnowflakePreset preset;
        try {
            preset = SnowflakePreset.parse(from);
        } catch (InvalidArgumentException e) {
            throw new UsageException("invalid value for --from: " + e.getMessage());
        }
        long highestId = parseHighest();
        Instant at = parseNow();
        Instant stopBy = parseStopBy(at);
        Optional<WorkerIdRanges> old = Optional.ofNullable(oldWorkerIds)
                .map(text -> WorkerIdRanges.parse(text, "--old-worker-ids", preset.maxWorkerId()));
        String key = preset.key();

        out.println(key + "'s layout: " + preset.timestampBits() + " bits of " + preset.tickMillis() + " ms since "
                + preset.epoch() + ", " + preset.workerBits() + " worker bits, " + preset.sequenceBits()
                + " sequence bits.");
        if (at.isBefore(preset.exhaustedAt())) {
            out.println("It runs out at " + preset.exhaustedAt() + ": " + SwitchPlan.years(at, preset.exhaustedAt())
                    + " years left at " + at + ".");
        } else {
            out.println("It ran out at " + preset.exhaustedAt() + ", " + SwitchPlan.years(preset.exhaustedAt(), at)
                    + " years before " + at + ": no year left.");
        }
        if (highestId > preset.maxIdIssuedBy(at.plus(SwitchPlan.CLOCK_MARGIN))) {
            out.println("Note: --highest " + highestId + " is above any ID " + key + " can have issued by " + at
                    + ": is --from right?");
        }
        out.println("The old fleet's clocks are taken to be up to " + SwitchPlan.CLOCK_MARGIN.toSeconds()
                + " s ahead"
                + (preset.aheadTicks() > 0
                        ? ", plus the " + preset.aheadTicks() * preset.tickMillis() + " ms " + key + " borrows"
                        : "")
                + ".");
        out.println();
        printKeep(preset, at, old);
        out.println();
        boolean newEpoch = printNewEpoch(preset, highestId, at, stopBy);
        if (!newEpoch) {
            out.println();
            printSegments(preset, highestId, at);
        }
        return IdgenCli.OK;
    }

    /** Way (a): idgen's generator in the old layout, on worker ids the old fleet never used. */
    private void printKeep(SnowflakePreset preset, Instant at, Optional<WorkerIdRanges> old) {
        String key = preset.key();
        out.print("(a) Keep " + key + "'s layout, on worker ids the old fleet never used: ");
        if (preset.layout().isEmpty()) {
            out.println("not possible: idgen's generator cannot produce " + key + "'s layout (" + preset.tickMillis()
                    + " ms ticks, the machine id in the lowest bits).");
            return;
        }
        if (!at.isBefore(preset.exhaustedAt())) {
            out.println("not possible: the layout ran out at " + preset.exhaustedAt() + ".");
            return;
        }
        if (Duration.between(at, preset.exhaustedAt()).compareTo(SwitchPlan.YEAR) < 0) {
            out.println("not possible: " + SwitchPlan.years(at, preset.exhaustedAt()) + " years left, under a year.");
            return;
        }
        out.println(SwitchPlan.years(at, preset.exhaustedAt()) + " years left (until " + preset.exhaustedAt() + ").");
        out.println("    idgen.snowflake.preset=" + key);
        out.println("    idgen.snowflake.switch.from=" + key);
        if (old.isEmpty()) {
            out.println("    idgen.snowflake.switch.old-worker-ids=<the worker ids the old fleet used, e.g. 0-31>");
            out.println("  idgen then uses only the other worker ids. Give --old-worker-ids for the check to run.");
            return;
        }
        out.println("    idgen.snowflake.switch.old-worker-ids=" + old.get());
        Optional<WorkerIdRanges> others = old.get().complement(preset.maxWorkerId());
        if (others.isEmpty()) {
            out.println("  But the old fleet used every worker id (0-" + preset.maxWorkerId()
                    + "): none is left for idgen; take way (b).");
            return;
        }
        out.println("  idgen then uses only the other " + others.get().count() + " of the " + (preset.maxWorkerId() + 1)
                + " worker ids (" + others.get() + "). Check first that the table holds none of them:");
        out.println("    idgen-cli check --jdbc-url <url> --table <table> --column <column> --preset " + key
                + " --worker-ids " + others.get());
    }

    /**
     * Way (b): idgen's standard layout with an epoch that puts every new ID above the old fleet's, up to the time the
     * old fleet stops.
     */
    private boolean printNewEpoch(SnowflakePreset preset, long highestId, Instant at, Instant stopBy) {
        SnowflakeLayout standard = SnowflakeLayout.standard();
        boolean given = oldWritersStopBy != null;
        Instant last = stopBy.isAfter(at) ? stopBy : at;
        out.print("(b) idgen's layout (" + standard.timestampBits() + " bits of ms, " + standard.workerBits()
                + " worker bits, " + standard.sequenceBits() + " sequence bits) with every new ID above every ID the"
                + " old fleet issues by " + last + ": ");
        SwitchPlan.EpochChoice choice = SwitchPlan.latestEpoch(preset, highestId, at, stopBy);
        if (choice.epoch().isEmpty()) {
            out.println("not possible: " + choice.whyNone() + ". " + (Long.MAX_VALUE - highestId)
                    + " IDs are left above --highest " + highestId + ".");
            return false;
        }
        Instant exhausted = choice.exhaustedAt().orElseThrow();
        out.println(SwitchPlan.years(at, exhausted) + " years left (until " + exhausted + ").");
        out.println("    idgen.snowflake.epoch=" + choice.epoch().get());
        out.println("    idgen.snowflake.switch.from=" + preset.key());
        if (given) {
            out.println("    idgen.snowflake.switch.old-writers-stop-by=" + stopBy);
        }
        out.println("    idgen.snowflake.switch.start-above=" + highestId);
        out.println(
                "  The epoch is the latest whole second at which idgen's smallest ID at " + at + " exceeds --highest"
                        + " and the highest ID " + preset.key() + " can issue by " + last + " with its clock "
                        + SwitchPlan.CLOCK_MARGIN.toSeconds() + " s ahead.");
        out.println("  The old writers must "
                + (given
                        ? "stop by " + last
                        : "have stopped by " + at + ", when idgen" + " starts (or give --old-writers-stop-by)")
                + ": IDs they issue after it may repeat idgen's. For a"
                + " side-by-side run with no end, take way (a).");
        return true;
    }

    /** Way (c): segments, counted from above the old IDs. */
    private void printSegments(SnowflakePreset preset, long highestId, Instant at) {
        out.println("(c) Segments (IDs from a database counter), above the old IDs: " + (Long.MAX_VALUE - highestId)
                + " IDs left.");
        out.println("    idgen.segment.start-above=" + highestId);
        if (at.isBefore(preset.exhaustedAt())) {
            out.println("  The old fleet must stop before idgen issues its first segment: its IDs keep growing.");
        }
    }

    private long parseHighest() {
        long id;
        try {
            id = Long.parseLong(highest.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("invalid value for --highest '" + highest
                    + "': expected a decimal number from 0 to " + Long.MAX_VALUE);
        }
        if (id < 0) {
            throw new UsageException("invalid value for --highest '" + highest + "': IDs are never negative");
        }
        return id;
    }

    private Instant parseStopBy(Instant at) {
        if (oldWritersStopBy == null) {
            return at;
        }
        Instant stopBy;
        try {
            stopBy = Instant.parse(oldWritersStopBy.trim());
        } catch (DateTimeParseException e) {
            throw new UsageException("invalid value for --old-writers-stop-by '" + oldWritersStopBy
                    + "': expected an instant such as 2026-01-01T00:00:00Z");
        }
        if (stopBy.isAfter(at.plus(SwitchPlan.MAX_STOP_BY_AHEAD))) {
            throw new UsageException("invalid value for --old-writers-stop-by '" + oldWritersStopBy + "': at most "
                    + SwitchPlan.MAX_STOP_BY_AHEAD.toDays() + " days after --now (" + at + ")");
        }
        return stopBy;
    }

    private Instant parseNow() {
        if (now == null) {
            return clock.instant();
        }
        try {
            return Instant.parse(now.trim());
        } catch (DateTimeParseException e) {
            throw new UsageException(
                    "invalid value for --now '" + now + "': expected an instant such as 2026-01-01T00:00:00Z");
        }
    }
}
