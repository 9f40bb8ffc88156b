package dev.idgen.core.coalesce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdGenerationException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A test store's round trips, as the coalescer tests drive them: each records its size, waits at the gate a test may
 * hold shut, fails when it is the chosen one, and takes a little while, so that callers pile up behind it. The
 * blocking coalescers' tests share it; what a round trip returns is each store's own.
 */
abstract class GatedRoundTrips {

    final List<Integer> sizes = new CopyOnWriteArrayList<>();

    volatile CountDownLatch gate;

    /** Which round trip (1 = the first) fails with {@link #failure}; 0: none. */
    volatile int failAt;

    volatile RuntimeException failure;

    /**
     * One round trip of {@code n}, up to the store's answer.
     *
     * @throws IdGenerationException when the wait at the gate is interrupted, as a store's client fails the round trip
     */
    final void roundTrip(int n) {
        // The gate is read before the round trip shows in sizes: a test that waits for sizes and then clears the
        // gate must not find this round trip still about to read it.
        CountDownLatch g = gate;
        sizes.add(n);
        int roundTrip = sizes.size();
        if (g != null) {
            try {
                g.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IdGenerationException("Interrupted while waiting for the store", e);
            }
        }
        if (roundTrip == failAt) {
            throw failure;
        }
        LockSupport.parkNanos(20_000);
    }

    /** Waits, spinning, until {@code condition} holds; fails the test after 60 s. */
    static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.onSpinWait();
        }
    }
}
