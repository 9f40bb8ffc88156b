package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.segment.SegmentBufferStats;
import java.util.Map;

/**
 * How health and the endpoint show one segment name's buffers. A name whose first block has not loaded yet (a named
 * generator's name, registered at start-up before any ID is drawn) has no IDs left because it has none yet, not
 * because it ran out: it shows {@code "loaded": false} instead of {@code "remaining": 0} and the step of a fetch that
 * never happened.
 */
public final class SegmentNameState {

    private SegmentNameState() {}

    /** Whether the name's first block has not loaded yet. */
    public static boolean notLoadedYet(SegmentBufferStats stats) {
        return stats.lastLoadMillis() < 0 && stats.currentRemaining() == 0 && stats.nextRemaining() == 0;
    }

    /** Puts {@code remaining} and {@code step}, or {@code loaded: false} before the first block. */
    public static void putRemaining(Map<String, Object> detail, SegmentBufferStats stats) {
        if (notLoadedYet(stats)) {
            detail.put("loaded", false);
            return;
        }
        detail.put("remaining", stats.remaining());
        detail.put("step", stats.step());
    }
}
