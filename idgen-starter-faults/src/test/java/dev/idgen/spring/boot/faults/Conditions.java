package dev.idgen.spring.boot.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits on conditions for the fault tests, with a deadline generous enough for a loaded machine. */
final class Conditions {

    private Conditions() {}

    /** Polls {@code condition} until it holds; fails naming {@code what} after a minute. */
    static void eventually(String what, BooleanSupplier condition) {
        eventually(what, Duration.ofMinutes(1), condition);
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after {@code within}. */
    static void eventually(String what, Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline)
                    .as(what + " within " + within)
                    .isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a poll interval, not a wait for something
        }
    }
}
