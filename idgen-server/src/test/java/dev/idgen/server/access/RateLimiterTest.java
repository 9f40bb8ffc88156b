package dev.idgen.server.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L); // below zero: differences, not comparisons

    @Test
    void aBurstOfOneSecondsWorthThenOneRequestPerInterval() {
        RateLimiter limiter = new RateLimiter(10, nanos::get);
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.tryAcquire()).as("request " + i).isNull();
        }
        Duration wait = limiter.tryAcquire();
        assertThat(wait).isEqualTo(Duration.ofMillis(100));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(99));
        assertThat(limiter.tryAcquire()).isEqualTo(Duration.ofMillis(1));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(limiter.tryAcquire()).isNull();
        assertThat(limiter.tryAcquire()).isNotNull();
        // A long pause refills the bucket to its burst, no further.
        nanos.addAndGet(TimeUnit.HOURS.toNanos(1));
        int passed = 0;
        while (limiter.tryAcquire() == null) {
            passed++;
        }
        assertThat(passed).isEqualTo(10);
    }

    @Test
    void belowOneRequestPerSecondTheBurstIsOneRequest() {
        RateLimiter limiter = new RateLimiter(0.5, nanos::get);
        assertThat(limiter.tryAcquire()).isNull();
        assertThat(limiter.tryAcquire()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void concurrentRequestsTakeExactlyTheBurst() throws Exception {
        RateLimiter limiter = new RateLimiter(1000, nanos::get);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> counts = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                counts.add(threads.submit(() -> {
                    start.await();
                    int passed = 0;
                    for (int i = 0; i < 500; i++) {
                        if (limiter.tryAcquire() == null) {
                            passed++;
                        }
                    }
                    return passed;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> count : counts) {
                total += count.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(1000);
        } finally {
            threads.shutdownNow();
        }
    }
}
