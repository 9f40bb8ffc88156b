package dev.idgen.core.coalesce;

import dev.idgen.core.StoreUnavailableException;

/**
 * A call's time ran out before anything was sent for it: it says nothing about the store. Thrown by a
 * {@link BatchCoalescer} to a caller that gave up in its queue or was handed the lead of a round trip too late, and
 * by a {@link BatchCoalescer.TimedBatchSource} (or {@link RangeCoalescer.TimedRangeSource}) that finds its deadline
 * passed before it sends the round trip: the coalescer then fails the leader only and passes the round trip's other
 * callers, who may still have time, on to the next leader.
 */
public class DeadlinePassedException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    public DeadlinePassedException(String message) {
        super(message);
    }
}
