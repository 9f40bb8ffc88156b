package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The members of a mixed fleet (a peer's servers replayed, idgen instances), each issuing in a loop on a thread of its
 * own until stopped, and the conditions a rolling replacement waits on: never a fixed time.
 */
final class MixedFleet implements AutoCloseable {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    /** One step of a member's loop. */
    @FunctionalInterface
    interface Step {
        void run(long n) throws Exception;
    }

    /** A member of the fleet. */
    static final class Member {
        final String issuer;
        final AtomicLong loads = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private Future<?> running;

        private Member(String issuer) {
            this.issuer = issuer;
        }

        void stopAndJoin() throws Exception {
            stop.set(true);
            running.get(60, TimeUnit.SECONDS);
        }

        private void failIfDead() throws Exception {
            if (running.isDone()) {
                running.get(); // a member that failed fails the test with its own exception
            }
        }
    }

    /** Starts a member that runs {@code step} with 0, 1, 2, ... until stopped, counting each run in its loads. */
    Member start(String issuer, Step step) {
        Member member = new Member(issuer);
        Callable<Void> loop = () -> {
            for (long n = 0; !member.stop.get(); n++) {
                step.run(n);
                member.loads.incrementAndGet();
            }
            return null;
        };
        member.running = threads.submit(loop);
        return member;
    }

    /** Waits up to two minutes for {@code condition}, failing at once when one of {@code members} died. */
    static void await(String what, BooleanSupplier condition, Member... members) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!condition.getAsBoolean()) {
            for (Member member : members) {
                member.failIfDead();
            }
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
