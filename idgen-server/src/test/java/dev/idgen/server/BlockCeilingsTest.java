package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.server.BlockCeilings.Verdict;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What a block request's {@code above} may reach, on a clock the test moves. */
class BlockCeilingsTest {

    private static final long JUMP = 1_000_000;

    private static final long BLOCK = 1_000;

    private final AtomicLong nanos = new AtomicLong();

    private final InMemorySegmentStore store = new InMemorySegmentStore();

    private final BlockCeilings ceilings = new BlockCeilings(JUMP, BLOCK, (name, last) -> {}, nanos::get);

    @Test
    void withinOneBlockOfTheIdsIssuedAlwaysAndWithinTheJumpOnceAMinute() {
        ceilings.issued("orders", 5_000);
        assertThat(ceilings.judge("orders", 5_000 + BLOCK, store)).isEqualTo(Verdict.ALLOWED);
        assertThat(ceilings.judge("orders", 5_000 + BLOCK + JUMP, store)).isEqualTo(Verdict.ALLOWED);
        // The allowance is used: a client repeating such floors moves the name by one jump a minute at most.
        assertThat(ceilings.judge("orders", 5_000 + BLOCK + JUMP, store)).isEqualTo(Verdict.LATER);
        assertThat(ceilings.judge("payments", BLOCK + JUMP, store))
                .as("per name")
                .isEqualTo(Verdict.ALLOWED);
        nanos.addAndGet(BlockCeilings.JUMP_INTERVAL_NANOS);
        assertThat(ceilings.judge("orders", 5_000 + BLOCK + JUMP, store)).isEqualTo(Verdict.ALLOWED);
        assertThat(ceilings.judge("orders", 5_000 + BLOCK + JUMP + 1, store)).isEqualTo(Verdict.REFUSED);
        assertThat(ceilings.judge("orders", Long.MAX_VALUE, store)).isEqualTo(Verdict.REFUSED);
    }

    @Test
    void theStoreIsAskedBeforeAnAboveIsJudgedPastWhatThisServerSaw() {
        // Another server took the counter to 10^9; this one saw nothing of it.
        store.allocateAbove("orders", 10, 1_000_000_000L);
        assertThat(ceilings.judge("orders", 1_000_000_010L + BLOCK, store)).isEqualTo(Verdict.ALLOWED);
        assertThat(store.allocations()).isEqualTo(2); // the other server's and the probe of one ID
        // Now known: no probe for what lies within a block of it.
        assertThat(ceilings.judge("orders", 1_000_000_000L, store)).isEqualTo(Verdict.ALLOWED);
        assertThat(store.allocations()).isEqualTo(2);
    }
}
