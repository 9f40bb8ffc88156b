package dev.idgen.jdbc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What every member of a mixed fleet handed out, as ranges of a name with their issuer, checked for overlap at the
 * end: a sweep over the sorted ranges keeps the check cheap whatever the blocks' sizes. A range may hold only the IDs
 * of one residue (Tinyid's {@code delta} and {@code remainder}).
 */
final class IssuedRanges {

    private record Range(String name, long first, long last, int modulus, int residue, String issuer) {

        /** @return whether the two share an ID; moduli are 1 or one and the same */
        boolean sharesAnIdWith(Range other) {
            long from = Math.max(first, other.first);
            long to = Math.min(last, other.last);
            if (from > to) {
                return false;
            }
            if (modulus > 1 && other.modulus > 1) {
                if (modulus != other.modulus) {
                    throw new IllegalStateException("ranges of moduli " + modulus + " and " + other.modulus);
                }
                return residue == other.residue && holdsResidue(from, to, modulus, residue);
            }
            Range strided = modulus > 1 ? this : other;
            return holdsResidue(from, to, strided.modulus, strided.residue);
        }

        private static boolean holdsResidue(long from, long to, int modulus, int residue) {
            long firstMatch = from + Math.floorMod(residue - from, (long) modulus);
            return firstMatch <= to;
        }

        @Override
        public String toString() {
            return issuer + " issued [" + first + ", " + last + "]"
                    + (modulus > 1 ? " (those ≡ " + residue + " mod " + modulus + ")" : "");
        }
    }

    private final List<Range> ranges = new ArrayList<>();

    synchronized void add(String name, long first, long last, String issuer) {
        ranges.add(new Range(name, first, last, 1, 0, issuer));
    }

    /** Adds the IDs from {@code first} to {@code last} that leave {@code residue} divided by {@code modulus}. */
    synchronized void addResidues(String name, long first, long last, int modulus, int residue, String issuer) {
        ranges.add(new Range(name, first, last, modulus, residue, issuer));
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
        List<Range> open = new ArrayList<>();
        for (Range range : sorted) {
            open.removeIf(earlier -> !earlier.name().equals(range.name()) || earlier.last() < range.first());
            for (Range earlier : open) {
                if (earlier.sharesAnIdWith(range)) {
                    return range.name() + ": " + earlier + " and " + range;
                }
            }
            open.add(range);
        }
        return null;
    }
}
