package dev.idgen.core.snowflake;

import dev.idgen.core.InvalidArgumentException;
import java.util.ArrayList;
import java.util.List;

/**
 * A set of worker ids written as ranges, {@code 0-31,40}: the worker ids another fleet uses, which idgen's generators
 * must keep out of while both run in one layout.
 */
public final class WorkerIdRanges {

    private static final WorkerIdRanges NONE = new WorkerIdRanges(new long[0], "");

    /** Sorted, non-overlapping: from, to, from, to, ... (both inclusive). */
    private final long[] bounds;

    private final String text;

    private WorkerIdRanges(long[] bounds, String text) {
        this.bounds = bounds;
        this.text = text;
    }

    /** @return the empty set */
    public static WorkerIdRanges none() {
        return NONE;
    }

    /**
     * Reads {@code 0-31,40}: comma-separated worker ids and inclusive ranges, blanks ignored.
     *
     * @param argument the argument or property to name in the error
     * @param text the ranges, or null or blank for none
     * @return the set
     * @throws InvalidArgumentException naming {@code argument} for a part that is not a number or a range from low to
     *     high, or a negative id
     */
    public static WorkerIdRanges parse(String argument, String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        List<long[]> ranges = new ArrayList<>();
        for (String part : text.split(",")) {
            String trimmed = part.trim();
            int dash = trimmed.indexOf('-', 1);
            try {
                long from = Long.parseLong((dash < 0 ? trimmed : trimmed.substring(0, dash)).trim());
                long to = dash < 0
                        ? from
                        : Long.parseLong(trimmed.substring(dash + 1).trim());
                if (from < 0 || to < from) {
                    throw new NumberFormatException();
                }
                ranges.add(new long[] {from, to});
            } catch (NumberFormatException e) {
                throw new InvalidArgumentException(
                        argument,
                        text,
                        argument + " must be worker ids and ranges such as 0-31,40 (each from 0, a range from low to"
                                + " high), but '" + trimmed + "' is not");
            }
        }
        ranges.sort((a, b) -> Long.compare(a[0], b[0]));
        List<long[]> merged = new ArrayList<>();
        for (long[] range : ranges) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && range[0] <= last[1] + 1) {
                last[1] = Math.max(last[1], range[1]);
            } else {
                merged.add(range);
            }
        }
        long[] bounds = new long[merged.size() * 2];
        for (int i = 0; i < merged.size(); i++) {
            bounds[2 * i] = merged.get(i)[0];
            bounds[2 * i + 1] = merged.get(i)[1];
        }
        return new WorkerIdRanges(bounds, text.replace(" ", ""));
    }

    /** @return whether the set holds no worker id */
    public boolean isEmpty() {
        return bounds.length == 0;
    }

    /**
     * @param workerId a worker id
     * @return whether the set holds it
     */
    public boolean contains(long workerId) {
        for (int i = 0; i < bounds.length; i += 2) {
            if (workerId >= bounds[i] && workerId <= bounds[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param maxWorkerId the largest worker id of a layout
     * @return how many of the ids from 0 to {@code maxWorkerId} the set holds
     */
    public long countUpTo(long maxWorkerId) {
        long count = 0;
        for (int i = 0; i < bounds.length && bounds[i] <= maxWorkerId; i += 2) {
            count += Math.min(bounds[i + 1], maxWorkerId) - bounds[i] + 1;
        }
        return count;
    }

    /** @return the highest worker id in the set, or -1 when it is empty */
    public long max() {
        return bounds.length == 0 ? -1 : bounds[bounds.length - 1];
    }

    /** @return the set as it was written, e.g. {@code 0-31,40} */
    @Override
    public String toString() {
        return text;
    }
}
