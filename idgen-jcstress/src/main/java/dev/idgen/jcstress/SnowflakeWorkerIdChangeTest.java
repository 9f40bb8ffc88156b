package dev.idgen.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.core.LeaseLostException;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.spi.WorkerIdLease;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link SnowflakeGenerator#nextId()} racing a change of worker id. Both actors take IDs until they get one under the
 * new worker id; the second first loses worker id 1's lease, so the generator's own thread fences the state, records
 * the newest timestamp in use on the lost lease, and installs worker id 2 while both actors are issuing.
 *
 * <p>What the class documents and this checks, over every ID either actor got: each thread's IDs strictly increase;
 * no ID is issued twice; no ID under the lost worker id carries a timestamp after the one recorded for its next
 * holder (a caller that read the old state fails its compare-and-set); IDs keep increasing across the change (every
 * ID under worker id 1 is below every ID under worker id 2).
 *
 * <p>{@code r1} is the first broken rule (0: none), {@code r2} whether a caller was refused with
 * {@link LeaseLostException} between the loss and the new lease.
 */
@JCStressTest
@Description("SnowflakeGenerator.nextId racing the loss of its worker id lease and the install of a new worker id")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "No ID repeated or out of order; no caller saw the lease lost")
@Outcome(
        id = "0, 1",
        expect = ACCEPTABLE_INTERESTING,
        desc = "No ID repeated or out of order; a caller between the loss and the new lease was refused")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "A thread got an ID not above its previous one")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "An ID was issued twice")
@Outcome(
        id = "3, .*",
        expect = FORBIDDEN,
        desc = "An ID under the lost worker id is later than the timestamp recorded for its next holder")
@Outcome(id = "4, .*", expect = FORBIDDEN, desc = "An ID under the lost worker id is above one under the new")
@Outcome(id = "5, .*", expect = FORBIDDEN, desc = "The new worker id never came, or the loss was not recorded")
@Outcome(expect = FORBIDDEN, desc = "Anything else")
public class SnowflakeWorkerIdChangeTest {

    /** Held, so the level sticks: every change of worker id logs one line at INFO, thousands of them per run. */
    private static final Logger GENERATOR_LOG = Logger.getLogger(SnowflakeGenerator.class.getName());

    static {
        GENERATOR_LOG.setLevel(Level.WARNING);
    }

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.standard();

    private static final long OLD_WORKER_ID = 1;

    private static final long NEW_WORKER_ID = 2;

    /**
     * Far longer than the generator's own thread needs to install the new worker id, even on a loaded machine; a
     * generator that never installs it ends here (outcome 5) instead of hanging the run.
     */
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** A lease the test loses at will. */
    static final class TestLease implements WorkerIdLease {
        private final long workerId;
        private volatile boolean valid = true;
        private volatile Runnable onLost;
        volatile long recordedMillis = -1;

        TestLease(long workerId) {
            this.workerId = workerId;
        }

        @Override
        public long workerId() {
            return workerId;
        }

        @Override
        public OptionalLong lastUsedTimestamp() {
            return OptionalLong.empty();
        }

        @Override
        public void recordTimestamp(long epochMillis) {
            recordedMillis = epochMillis;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public void checkValid() {
            if (!valid) {
                throw new LeaseLostException("worker id " + workerId + " was lost");
            }
        }

        @Override
        public void whenLost(Runnable action) {
            onLost = action;
        }

        void lose() {
            valid = false;
            Runnable action = onLost;
            if (action != null) {
                action.run();
            }
        }

        @Override
        public void close() {
            valid = false;
        }
    }

    /** The IDs one actor got, in order. */
    static final class Issued {
        long[] ids = new long[64];
        int size;
        boolean refused;
        boolean gaveUp;

        void add(long id) {
            if (size == ids.length) {
                ids = Arrays.copyOf(ids, size * 2);
            }
            ids[size++] = id;
        }
    }

    @State
    public static class Generator {
        final TestLease oldLease = new TestLease(OLD_WORKER_ID);
        final TestLease newLease = new TestLease(NEW_WORKER_ID);
        /**
         * A clock that moves on by a millisecond every fourth reading: no caller waits on it for real, and IDs come
         * both from a new tick and from the next sequence of the same tick.
         */
        final AtomicLong readings = new AtomicLong();

        final long startMillis = System.currentTimeMillis();
        final AtomicInteger acquired = new AtomicInteger();
        final SnowflakeGenerator generator = SnowflakeGenerator.builder()
                .layout(LAYOUT)
                .timeSource(() -> startMillis + (readings.getAndIncrement() >>> 2))
                .workerIdAssigner(maxWorkerId -> acquired.getAndIncrement() == 0 ? oldLease : newLease)
                .build();
        final Issued first = new Issued();
        final Issued second = new Issued();
    }

    @Actor
    public void issuer(Generator state) {
        issueUntilTheNewWorkerId(state.generator, state.first);
    }

    @Actor
    public void loserAndIssuer(Generator state) {
        state.oldLease.lose();
        issueUntilTheNewWorkerId(state.generator, state.second);
    }

    @Arbiter
    public void check(Generator state, II_Result r) {
        r.r1 = brokenRule(state);
        r.r2 = state.first.refused || state.second.refused ? 1 : 0;
    }

    private static void issueUntilTheNewWorkerId(SnowflakeGenerator generator, Issued issued) {
        long giveUp = System.nanoTime() + GIVE_UP_NANOS;
        while (System.nanoTime() - giveUp < 0) {
            long id;
            try {
                id = generator.nextId();
            } catch (LeaseLostException e) {
                issued.refused = true;
                // The actors hold both CPUs: let the generator's own thread in to install the new worker id.
                Thread.yield();
                continue;
            }
            issued.add(id);
            if (workerId(id) == NEW_WORKER_ID) {
                return;
            }
        }
        issued.gaveUp = true;
    }

    private static int brokenRule(Generator state) {
        Issued first = state.first;
        Issued second = state.second;
        long recordedMillis = state.oldLease.recordedMillis;
        if (first.gaveUp || second.gaveUp || recordedMillis < 0) {
            return 5;
        }
        if (!increasing(first) || !increasing(second)) {
            return 1;
        }
        long[] all = new long[first.size + second.size];
        System.arraycopy(first.ids, 0, all, 0, first.size);
        System.arraycopy(second.ids, 0, all, first.size, second.size);
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                return 2;
            }
        }
        long highestOld = Long.MIN_VALUE;
        long lowestNew = Long.MAX_VALUE;
        for (long id : all) {
            long workerId = workerId(id);
            if (workerId == OLD_WORKER_ID) {
                if (LAYOUT.epoch().toEpochMilli() + tick(id) * LAYOUT.tickUnit().millis() > recordedMillis) {
                    return 3;
                }
                highestOld = Math.max(highestOld, id);
            } else if (workerId == NEW_WORKER_ID) {
                lowestNew = Math.min(lowestNew, id);
            } else {
                return 6;
            }
        }
        return highestOld < lowestNew ? 0 : 4;
    }

    private static boolean increasing(Issued issued) {
        for (int i = 1; i < issued.size; i++) {
            if (issued.ids[i] <= issued.ids[i - 1]) {
                return false;
            }
        }
        return true;
    }

    private static long workerId(long id) {
        return (id >>> LAYOUT.sequenceBits()) & LAYOUT.maxWorkerId();
    }

    private static long tick(long id) {
        return id >>> (LAYOUT.workerBits() + LAYOUT.sequenceBits());
    }
}
