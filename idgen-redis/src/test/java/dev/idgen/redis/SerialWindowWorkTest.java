package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.StoreUnavailableException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link SerialWindowWork}, without Redis or a database: one name's work in order, and its failures as thrown. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class SerialWindowWorkTest {

    @Test
    void runsOffTheCallersThreadAndHandsBackTheResult() throws Exception {
        SerialWindowWork work = new SerialWindowWork("orders");
        Thread caller = Thread.currentThread();

        assertThat(work.run(() -> Thread.currentThread() == caller ? -1L : 42L).get(30, TimeUnit.SECONDS))
                .isEqualTo(42L);
    }

    @Test
    void aFailureReachesTheCallerAsThrownAndTheNextWorkStillRuns() throws Exception {
        SerialWindowWork work = new SerialWindowWork("orders");
        StoreUnavailableException thrown = new StoreUnavailableException("the database is down");

        CompletableFuture<Long> failed = work.run(() -> {
            throw thrown;
        });
        CompletableFuture<Long> next = work.run(() -> 7L);

        assertThatThrownBy(() -> failed.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isSameAs(thrown);
        assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo(7L);
    }

    @Test
    void workAskedForLaterStartsOnlyAfterTheEarlierEnded() throws Exception {
        SerialWindowWork work = new SerialWindowWork("orders");
        List<String> steps = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Long> first = work.run(() -> {
            steps.add("first started");
            firstStarted.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            steps.add("first ended");
            return 1L;
        });
        firstStarted.await();
        // While the first is held, the later ones are asked for; they must wait for it (another name's would not).
        List<CompletableFuture<Long>> later = new ArrayList<>();
        for (long i = 2; i <= 5; i++) {
            long value = i;
            later.add(work.run(() -> {
                steps.add("work " + value);
                return value;
            }));
        }
        CompletableFuture<Long> otherName = new SerialWindowWork("invoices").run(() -> 9L);
        assertThat(otherName.get(30, TimeUnit.SECONDS)).isEqualTo(9L);
        boolean laterRanWhileHeld = steps.size() > 1;
        release.countDown();

        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(1L);
        for (CompletableFuture<Long> each : later) {
            each.get(30, TimeUnit.SECONDS);
        }
        assertThat(laterRanWhileHeld)
                .as("later work ran while the first was held")
                .isFalse();
        assertThat(steps).containsExactly("first started", "first ended", "work 2", "work 3", "work 4", "work 5");
    }
}
