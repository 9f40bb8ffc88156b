package dev.idgen.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Worker ids as people list them, {@code 0-31,40}: ranges and single ids, comma-separated. */
final class WorkerIdRanges {

    private final List<long[]> ranges;

    private WorkerIdRanges(List<long[]> ranges) {
        this.ranges = ranges;
    }

    /**
     * @param text the list, e.g. {@code 0-31,40}
     * @param argument the option it came from, named in the message of bad input
     * @param maxWorkerId the largest worker id the layout holds
     * @return the ranges, sorted, overlapping ones merged
     * @throws UsageException naming the argument when a part is not a number or range, is reversed or out of bounds
     */
    static WorkerIdRanges parse(String text, String argument, long maxWorkerId) {
        List<long[]> parsed = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String[] ends = part.trim().split("-", -1);
            if (ends.length > 2) {
                throw bad(argument, text, "'" + part.trim() + "' is not a number or a range such as 0-31");
            }
            long low = number(argument, text, ends[0]);
            long high = ends.length == 2 ? number(argument, text, ends[1]) : low;
            if (low > high) {
                throw bad(argument, text, "the range '" + part.trim() + "' ends below its start");
            }
            if (high > maxWorkerId) {
                throw bad(argument, text, high + " is above the layout's largest worker id " + maxWorkerId);
            }
            parsed.add(new long[] {low, high});
        }
        parsed.sort(Comparator.comparingLong(r -> r[0]));
        List<long[]> merged = new ArrayList<>();
        for (long[] range : parsed) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && range[0] <= last[1] + 1) {
                last[1] = Math.max(last[1], range[1]);
            } else {
                merged.add(range);
            }
        }
        return new WorkerIdRanges(merged);
    }

    boolean contains(long workerId) {
        for (long[] range : ranges) {
            if (workerId >= range[0] && workerId <= range[1]) {
                return true;
            }
        }
        return false;
    }

    /** @return how many worker ids the ranges hold */
    long count() {
        return ranges.stream().mapToLong(r -> r[1] - r[0] + 1).sum();
    }

    /** @return the ranges as {@link #parse} reads them, sorted and merged: {@code 0-31,40} */
    @Override
    public String toString() {
        return ranges.stream()
                .map(r -> r[0] == r[1] ? Long.toString(r[0]) : r[0] + "-" + r[1])
                .collect(Collectors.joining(","));
    }

    /**
     * @param maxWorkerId the largest worker id the layout holds
     * @return the worker ids from 0 to {@code maxWorkerId} these ranges do not hold, or empty when they hold all
     */
    Optional<WorkerIdRanges> complement(long maxWorkerId) {
        List<long[]> others = new ArrayList<>();
        long next = 0;
        for (long[] range : ranges) {
            if (range[0] > next) {
                others.add(new long[] {next, range[0] - 1});
            }
            next = range[1] + 1;
        }
        if (next <= maxWorkerId) {
            others.add(new long[] {next, maxWorkerId});
        }
        return others.isEmpty() ? Optional.empty() : Optional.of(new WorkerIdRanges(others));
    }

    private static long number(String argument, String text, String digits) {
        String trimmed = digits.trim();
        if (trimmed.isEmpty() || !trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw bad(argument, text, "'" + trimmed + "' is not a worker id (a number from 0)");
        }
        try {
            return Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
            throw bad(argument, text, "'" + trimmed + "' is too large for a worker id");
        }
    }

    private static UsageException bad(String argument, String text, String why) {
        return new UsageException(
                "invalid value for " + argument + " '" + text + "': " + why + " (expected ranges such as 0-31,40)");
    }
}
