package dev.idgen.jdbc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What every member of a mixed fleet handed out, as ranges of a name with their issuer, checked for overlap at the end: sorting
 * the ranges keeps the check cheap whatever the blocks' sizes.
 */
final class IssuedRanges {

    private record Range(String name, long first, long last, String issuer) {}

    private final List<Range> ranges = new ArrayList<>();

    synchronized void add(String name, long first, long last, String issuer) {
        ranges.add(new Range(name, first, last, issuer));
    }

    synchronized int size() {
        return ranges.size();
    }

    /**
     * @return a description of the first two ranges that share an ID, or {@code null} when none do
     */
    synchronized String firstOverlap() {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparing(Range::name).thenComparingLong(Range::first));
        for (int i = 1; i < sorted.size(); i++) {
            Range before = sorted.get(i - 1);
            Range after = sorted.get(i);
            if (after.name().equals(before.name()) && after.first() <= before.last()) {
                return before.name() + ": " + before.issuer() + " issued [" + before.first() + ", " + before.last()
                        + "] and " + after.issuer() + " issued [" + after.first() + ", " + after.last() + "]";
            }
        }
        return null;
    }
}
