package dev.idgen.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.coalesce.BatchCoalescer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * {@link BatchCoalescer}'s hand-off of the lead: two callers of one coalescer (one round trip in flight at most) each
 * call twice, so a caller arrives while the other leads, queues, and is served by that round trip or handed the lead
 * of the next, and a second call arrives as a leader finishes and passes the lead on. The store is a counter; a round
 * trip of {@code n} takes the next {@code n} values.
 *
 * <p>Every call must get exactly one value, no value may go to two calls, no caller may be stranded in the queue (it
 * would give up when its wait runs out: {@code -1}), nothing may be taken from the store that no call got, and a
 * caller's second call gets a larger value than its first (it started after the first returned). So the only correct
 * outcomes are the six ways to share 1 to 4 between the two callers in order, with 4 taken.
 */
@JCStressTest
@Description("BatchCoalescer: two callers racing the hand-off of the lead each get values of their own, in order")
@Outcome(
        id = {"1, 2, 3, 4, 4", "1, 3, 2, 4, 4", "1, 4, 2, 3, 4", "2, 3, 1, 4, 4", "2, 4, 1, 3, 4", "3, 4, 1, 2, 4"},
        expect = ACCEPTABLE,
        desc = "Each call got one value of its own, each caller's in order; nothing else taken")
@Outcome(id = ".*-1.*", expect = FORBIDDEN, desc = "A caller was stranded in the queue until its wait ran out")
@Outcome(expect = FORBIDDEN, desc = "A value went to two calls, out of order, or was taken from the store and lost")
public class BatchCoalescerHandOffTest {

    /**
     * Far longer than any correct wait here (the store answers from memory), even with the leader descheduled on a
     * loaded machine, so only a caller nobody will serve runs out of it.
     */
    private static final Duration MAX_WAIT = Duration.ofSeconds(20);

    @State
    public static class Coalescer {
        final AtomicLong taken = new AtomicLong();
        final BatchCoalescer<Long> coalescer =
                new BatchCoalescer<>(n -> taken.getAndAdd(n) + 1, 16, MAX_WAIT, "the test counter");

        int next() {
            try {
                return (int) coalescer.nextLong((first, index) -> first + index);
            } catch (StoreUnavailableException e) {
                return -1;
            }
        }
    }

    @Actor
    public void first(Coalescer state, IIIII_Result r) {
        r.r1 = state.next();
        r.r2 = state.next();
    }

    @Actor
    public void second(Coalescer state, IIIII_Result r) {
        r.r3 = state.next();
        r.r4 = state.next();
    }

    @Arbiter
    public void taken(Coalescer state, IIIII_Result r) {
        r.r5 = (int) state.taken.get();
    }
}
