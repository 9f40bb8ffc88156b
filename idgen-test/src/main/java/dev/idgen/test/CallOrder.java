package dev.idgen.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Checks idgen's order guarantee on recorded calls: an ID issued to a call that started after another call returned is
 * larger. Calls that overlap in time may get their IDs in either order.
 */
public final class CallOrder {

    /**
     * One recorded call.
     *
     * @param start {@link System#nanoTime()} before the call
     * @param end {@link System#nanoTime()} after it returned
     * @param id what it returned
     */
    public record Call(long start, long end, long id) {}

    private CallOrder() {}

    /**
     * Asserts that every call got a larger ID than each call that had returned before it started.
     *
     * @param recorded the calls, in any order
     * @return how many calls started after some other call had returned (and so were checked)
     */
    public static int assertLaterCallsGetLargerIds(List<Call> recorded) {
        List<Call> calls = new ArrayList<>(recorded);
        calls.sort(Comparator.comparingLong(Call::end));
        long[] ends = calls.stream().mapToLong(Call::end).toArray();
        long[] highestBefore = new long[calls.size()];
        long highest = Long.MIN_VALUE;
        for (int i = 0; i < calls.size(); i++) {
            highest = Math.max(highest, calls.get(i).id());
            highestBefore[i] = highest;
        }
        int checked = 0;
        for (Call call : calls) {
            int returnedBefore = lowerBound(ends, call.start());
            if (returnedBefore > 0) {
                checked++;
                assertThat(call.id())
                        .as("a call that started after %d calls had returned", returnedBefore)
                        .isGreaterThan(highestBefore[returnedBefore - 1]);
            }
        }
        return checked;
    }

    /** How many of the sorted {@code values} are below {@code key}. */
    private static int lowerBound(long[] values, long key) {
        int index = Arrays.binarySearch(values, key);
        if (index < 0) {
            return -index - 1;
        }
        while (index > 0 && values[index - 1] == key) {
            index--;
        }
        return index;
    }
}
