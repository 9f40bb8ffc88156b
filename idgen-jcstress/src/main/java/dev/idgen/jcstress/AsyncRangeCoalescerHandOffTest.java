package dev.idgen.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.coalesce.AsyncRangeCoalescer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * {@link AsyncRangeCoalescer}'s hand-off of the in-flight flag: two callers each call twice; the store answers at once,
 * so the round trip completes on the thread that sent it, which gives the flag back and looks at the queue while the
 * other caller queues and tries to take the flag. A caller that neither finds the flag free nor is seen by the
 * completing thread would be stranded (its wait runs out: {@code -1}).
 *
 * <p>Every call must get exactly one value, no value may go to two calls, nothing may be taken from the store that no
 * call got, and a caller's second call gets a larger value than its first. So the only correct outcomes are the six
 * ways to share 1 to 4 between the two callers in order, with 4 taken.
 */
@JCStressTest
@Description("AsyncRangeCoalescer: two callers racing the flag hand-off each get values of their own, in order")
@Outcome(
        id = {"1, 2, 3, 4, 4", "1, 3, 2, 4, 4", "1, 4, 2, 3, 4", "2, 3, 1, 4, 4", "2, 4, 1, 3, 4", "3, 4, 1, 2, 4"},
        expect = ACCEPTABLE,
        desc = "Each call got one value of its own, each caller's in order; nothing else taken")
@Outcome(id = ".*-1.*", expect = FORBIDDEN, desc = "A caller was stranded in the queue until its wait ran out")
@Outcome(expect = FORBIDDEN, desc = "A value went to two calls, out of order, or was taken from the store and lost")
public class AsyncRangeCoalescerHandOffTest {

    /** Far longer than any correct wait here (the store answers from memory), so only a stranded caller runs out. */
    private static final Duration MAX_WAIT = Duration.ofSeconds(20);

    @State
    public static class Coalescer {
        final AtomicLong taken = new AtomicLong();
        final AsyncRangeCoalescer coalescer = new AsyncRangeCoalescer(
                n -> CompletableFuture.completedFuture(taken.addAndGet(n)), 16, MAX_WAIT, "the test counter");

        int next() {
            try {
                return (int) coalescer.nextBlocking();
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
