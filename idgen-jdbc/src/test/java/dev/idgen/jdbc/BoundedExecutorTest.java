package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.StoreUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a ticket server's caller waits for work on the server's own executor, without a database: never past its
 * deadline, interrupted work is given up, and every failure names the server. Deadlines are either already passed or
 * far away, so nothing depends on how fast the machine is.
 */
class BoundedExecutorTest {

    private static final long FAR = TimeUnit.MINUTES.toNanos(10);

    private final BoundedExecutor executor =
            new BoundedExecutor("t1", Duration.ofMillis(250).toNanos());

    /** Holds blocked work until the test ends. */
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void stop() {
        never.countDown();
        executor.shutdownNow();
    }

    @Test
    void workThatDoesNotEndByTheDeadlineTellsTheCallerTheTimeout() {
        // Whether the work had started when it was cancelled is the machine's timing; the interrupted caller's test
        // checks that cancelling interrupts it.
        assertThatThrownBy(() -> executor.bounded(System.nanoTime() - 1, () -> never.await(1, TimeUnit.HOURS)))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("Ticket server t1 did not answer within 250 ms (idgen.jdbc.timeout)")
                .hasCauseInstanceOf(TimeoutException.class);

        // The executor still serves the next call.
        assertThat(executor.bounded(System.nanoTime() + FAR, () -> "next")).isEqualTo("next");
    }

    @Test
    void anInterruptedCallerGivesTheWorkUpAndKeepsItsInterrupt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch workInterrupted = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> callerInterrupted = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                executor.bounded(System.nanoTime() + FAR, () -> {
                    started.countDown();
                    try {
                        return never.await(1, TimeUnit.HOURS);
                    } catch (InterruptedException e) {
                        workInterrupted.countDown();
                        throw e;
                    }
                });
            } catch (Throwable e) {
                thrown.set(e);
            }
            callerInterrupted.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        assertThat(started.await(1, TimeUnit.MINUTES)).isTrue();

        caller.interrupt();
        caller.join(TimeUnit.MINUTES.toMillis(1));

        assertThat(thrown.get())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("Interrupted while waiting for ticket server t1")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(callerInterrupted.get()).isTrue();
        assertThat(workInterrupted.await(1, TimeUnit.MINUTES))
                .as("the work is interrupted too")
                .isTrue();
    }

    @Test
    void anUncheckedFailureOfTheWorkComesThroughAsItIsAndACheckedOneNamesTheServer() {
        IllegalStateException unchecked = new IllegalStateException("unchecked");

        assertThatThrownBy(() -> executor.bounded(System.nanoTime() + FAR, () -> {
                    throw unchecked;
                }))
                .isSameAs(unchecked);
        assertThatThrownBy(() -> executor.bounded(System.nanoTime() + FAR, () -> {
                    throw new IOException("checked");
                }))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("Ticket server t1 failed: checked")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void aShutDownServerRefusesWork() {
        executor.shutdownNow();

        assertThatThrownBy(() -> executor.bounded(System.nanoTime() + FAR, () -> "late"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("Ticket server t1 is shut down");
    }
}
