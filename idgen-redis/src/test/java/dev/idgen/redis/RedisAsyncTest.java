package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.test.CallOrder.Call;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The redis strategy's non-blocking calls on the real Redis: {@code nextIdAsync} completes on Lettuce's event loop
 * (or, after a new window, on idgen's window thread), never on the executor meant for blocking calls; concurrent
 * callers share round trips; every ID once and later calls larger; a stopped Redis fails the futures within the
 * bound and nothing repeats after it answers again.
 */
class RedisAsyncTest {

    /** Fails the test if a call is handed to it: the redis strategy must not need an executor for blocking calls. */
    private static final Executor NO_BLOCKING_CALLS = task -> {
        throw new AssertionError("the redis strategy handed a call to the executor for blocking calls");
    };

    private final String prefix = "a" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final ExecutorService executor =
            Executors.newCachedThreadPool(runnable -> new Thread(runnable, "caller-" + CALLERS.incrementAndGet()));

    private static final AtomicInteger CALLERS = new AtomicInteger();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        executor.shutdownNow();
        executor.awaitTermination(60, TimeUnit.SECONDS);
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.sleep(5);
        }
    }

    private RedisScriptExecutor sharedRedis(Duration timeout) {
        LettuceConnectionFactory factory = OwnRedis.connectionFactory(
                TestServices.redis().host(), TestServices.redis().port());
        toClose.add(factory::destroy);
        toClose.add(() -> OwnRedis.deleteKeys(factory, prefix));
        return RedisTests.ready(
                new RedisScriptExecutor(new SpringLettuceConnectionSource(factory), timeout, new RedisRoundTrips()));
    }

    /**
     * @param caller the thread that called and attached the stage: a future that completed before its stage was
     *        attached runs the stage there, which says nothing about the thread that completed it
     * @return "event loop" for Lettuce's event loop, "another caller" for a caller's thread other than
     *     {@code caller} (its round trip was answered before it attached to it, so it handed the values out itself),
     *     the thread's name without its number otherwise
     */
    private static String completedOn(Thread caller) {
        String thread = Thread.currentThread().getName();
        if (Thread.currentThread() == caller) {
            return "done before attached to";
        }
        if (thread.startsWith("caller-")) {
            return "another caller";
        }
        return thread.startsWith("lettuce-") && thread.contains("EventLoop")
                ? "event loop"
                : thread.replaceAll("-\\d+$", "");
    }

    @Test
    void asyncCallsCompleteOnTheEventLoopShareRoundTripsAndGiveEveryIdOnceLaterCallsLarger() throws Exception {
        RedisScriptExecutor redis = sharedRedis(Duration.ofSeconds(5));
        // Two instances on one prefix and one "database", as two processes; small windows, so that round trips meet
        // window ends and the window work runs often.
        InMemorySegmentStore database = new InMemorySegmentStore();
        RedisWindowedCounter[] counters = {
            new RedisWindowedCounter(redis, database, prefix, 700),
            new RedisWindowedCounter(redis, database, prefix, 700)
        };
        RedisIdService[] services = {new RedisIdService(counters[0]), new RedisIdService(counters[1])};
        int submitters = 4;
        int perSubmitter = 6_000;
        // Up to 64 calls in flight per submitter, as a reactive server's concurrent requests.
        List<Call> calls = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicInteger> completedOn = new ConcurrentHashMap<>();
        Set<Throwable> failures = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            RedisIdService service = services[s % 2];
            futures.add(executor.submit(() -> {
                Semaphore inFlight = new Semaphore(64);
                start.await();
                for (int i = 0; i < perSubmitter; i++) {
                    inFlight.acquire();
                    long started = System.nanoTime();
                    CompletableFuture<Long> next = service.nextIdAsync("orders", NO_BLOCKING_CALLS);
                    Thread caller = Thread.currentThread();
                    next.whenComplete((id, failure) -> {
                        long ended = System.nanoTime();
                        if (failure != null) {
                            failures.add(failure);
                        } else {
                            calls.add(new Call(started, ended, id));
                        }
                        completedOn
                                .computeIfAbsent(completedOn(caller), key -> new AtomicInteger())
                                .incrementAndGet();
                        inFlight.release();
                    });
                }
                assertThat(inFlight.tryAcquire(64, 2, TimeUnit.MINUTES))
                        .as("every call completed")
                        .isTrue();
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get(5, TimeUnit.MINUTES);
        }
        assertThat(failures).as("failed calls").isEmpty();
        assertThat(calls).hasSize(submitters * perSubmitter);
        RedisCoalescingTest.assertDistinctAndOrdered(calls);
        assertThat(completedOn.keySet())
                .as("threads the futures completed on")
                .isSubsetOf("event loop", "idgen-redis-window", "done before attached to", "another caller")
                .contains("event loop");
        assertThat(completedOn.get("event loop").get())
                .as("calls completed on the event loop")
                .isGreaterThan(calls.size() / 2);
        long roundTrips = counters[0].coalescedRoundTrips() + counters[1].coalescedRoundTrips();
        assertThat(roundTrips).as("round trips for %d calls", calls.size()).isLessThan(calls.size() / 2);
        assertThat(counters[0].windowsReserved() + counters[1].windowsReserved())
                .as("windows reserved")
                .isGreaterThan(10);
    }

    @Test
    void asyncBatchesAreConsecutiveRangesWithoutRepeatsAcrossInstances() throws Exception {
        RedisScriptExecutor redis = sharedRedis(Duration.ofSeconds(5));
        InMemorySegmentStore database = new InMemorySegmentStore();
        RedisWindowedCounter[] counters = {
            new RedisWindowedCounter(redis, database, prefix, 1_000),
            new RedisWindowedCounter(redis, database, prefix, 1_000)
        };
        RedisIdService[] services = {new RedisIdService(counters[0]), new RedisIdService(counters[1])};
        List<CompletableFuture<long[]>> batches = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            batches.add(services[i % 2].nextIdsAsync("invoices", 1 + i % 97, NO_BLOCKING_CALLS));
        }
        Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < batches.size(); i++) {
            long[] ids = batches.get(i).get(2, TimeUnit.MINUTES);
            assertThat(ids).hasSize(1 + i % 97);
            for (int k = 1; k < ids.length; k++) {
                assertThat(ids[k]).as("batch %d, index %d", i, k).isEqualTo(ids[k - 1] + 1);
            }
            for (long id : ids) {
                assertThat(seen.add(id)).as("ID %d once", id).isTrue();
            }
        }
        // Batches that found a window full while another batch of their instance was refilling it use that new
        // window rather than each reserving one more: about one window per 1,000 IDs, one more per instance at most
        // each time both run out together.
        long windows = counters[0].windowsReserved() + counters[1].windowsReserved();
        assertThat(windows)
                .as("windows reserved for %d IDs in windows of 1,000", seen.size())
                .isLessThanOrEqualTo(2 * (seen.size() / 1_000 + 2));
    }

    @Test
    void blockingAndAsyncCallersOfOneNameShareRoundTripsWithEveryIdOnceAndLaterCallsLarger() throws Exception {
        RedisScriptExecutor redis = sharedRedis(Duration.ofSeconds(5));
        RedisWindowedCounter counter = new RedisWindowedCounter(redis, new InMemorySegmentStore(), prefix, 900);
        RedisIdService ids = new RedisIdService(counter);
        List<Call> calls = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            boolean blocking = t % 2 == 0;
            futures.add(executor.submit(() -> {
                start.await();
                for (int i = 0; i < 2_000; i++) {
                    long started = System.nanoTime();
                    long id = blocking
                            ? ids.nextId("mixed")
                            : ids.nextIdAsync("mixed", NO_BLOCKING_CALLS).get(1, TimeUnit.MINUTES);
                    calls.add(new Call(started, System.nanoTime(), id));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get(5, TimeUnit.MINUTES);
        }
        assertThat(calls).hasSize(16_000);
        RedisCoalescingTest.assertDistinctAndOrdered(calls);
        assertThat(counter.coalescedRoundTrips()).as("round trips").isLessThan(16_000);
        assertThat(ids.generatedCount()).as("IDs counted").isEqualTo(16_000);
    }

    @Test
    void aStoppedRedisFailsTheFuturesWithinTheBoundAndNothingRepeatsAfterItAnswersAgain() throws Exception {
        OwnRedis ownRedis = OwnRedis.start();
        toClose.add(ownRedis);
        toClose.add(() -> ownRedis.signal("CONT"));
        LettuceConnectionFactory factory = ownRedis.connectionFactory();
        toClose.add(factory::destroy);
        Duration timeout = Duration.ofMillis(300);
        RedisScriptExecutor redis = RedisTests.ready(
                new RedisScriptExecutor(new SpringLettuceConnectionSource(factory), timeout, new RedisRoundTrips()));
        RedisWindowedCounter counter = new RedisWindowedCounter(redis, new InMemorySegmentStore(), prefix, 100_000);
        RedisIdService ids = new RedisIdService(counter);
        // A future waits for the round trip in flight (the timeout) and then its own (the timeout again), plus
        // scheduling slack for a loaded machine.
        long boundNanos = timeout.multipliedBy(2).plusSeconds(3).toNanos();

        // The first window's reservation first: on a cold JVM it can outlast the queue's bound (twice the timeout),
        // which would fail the first callers while Redis answers.
        for (int i = 0; i < 3; i++) {
            ids.nextId("orders");
        }

        List<Call> succeeded = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Long> failureNanos = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        Future<?> submitter = executor.submit(() -> {
            Semaphore inFlight = new Semaphore(32);
            while (running.get()) {
                inFlight.acquire();
                long started = System.nanoTime();
                ids.nextIdAsync("orders", NO_BLOCKING_CALLS).whenComplete((id, failure) -> {
                    if (failure == null) {
                        succeeded.add(new Call(started, System.nanoTime(), id));
                    } else {
                        failureNanos.add(System.nanoTime() - started);
                        failures.add(failure);
                    }
                    inFlight.release();
                });
            }
            assertThat(inFlight.tryAcquire(32, 2, TimeUnit.MINUTES)).isTrue();
            return null;
        });
        until(() -> succeeded.size() > 2_000, "IDs from Redis");
        assertThat(failures).as("failures while Redis answers").isEmpty();

        ownRedis.signal("STOP");
        int succeededBeforeStop = succeeded.size();
        until(() -> failures.size() >= 100, "futures failing while Redis is stopped");
        long answeredAfterStop = succeeded.size() - succeededBeforeStop;
        ownRedis.signal("CONT");
        int failed = failures.size();
        until(() -> succeeded.size() > succeededBeforeStop + answeredAfterStop + 2_000, "IDs from Redis again");
        running.set(false);
        submitter.get(2, TimeUnit.MINUTES);

        assertThat(answeredAfterStop)
                .as("calls answered after the stop (round trips already answered)")
                .isLessThanOrEqualTo(64);
        // A call fails on its own round trip's timeout, or on the bound of its wait behind round trips in flight.
        assertThat(new ArrayList<>(failures.subList(0, failed)))
                .allSatisfy(failure -> assertThat(failure)
                        .isInstanceOf(StoreUnavailableException.class)
                        .satisfiesAnyOf(
                                f -> assertThat(f)
                                        .isInstanceOf(RedisUnavailableException.class)
                                        .hasMessageContaining("did not answer idgen-increment within " + timeout),
                                f -> assertThat(f)
                                        .hasMessageContaining("No round trip to the Redis counter 'orders'")
                                        .hasMessageContaining("within " + timeout.multipliedBy(2))));
        assertThat(new ArrayList<>(failureNanos.subList(0, failed)))
                .as("how long each failing future took, ns")
                .allSatisfy(nanos -> assertThat(nanos).isLessThan(boundNanos));
        RedisCoalescingTest.assertDistinctAndOrdered(succeeded);
    }

    @Test
    void asyncReadableIdsCompleteOnTheEventLoopAndGoTheBlockingWayOnlyForBusyBuckets() throws Exception {
        RedisScriptExecutor redis = sharedRedis(Duration.ofSeconds(5));
        // Few sequences per bucket and millisecond: buckets wrap often, and those calls go the blocking way.
        BucketedRedisSequence sequence = new BucketedRedisSequence(
                redis,
                prefix,
                4,
                99,
                java.time.ZoneOffset.UTC,
                Duration.ofSeconds(5),
                dev.idgen.core.TimeSource.system());
        AtomicInteger blockingCalls = new AtomicInteger();
        ExecutorService blockingPool = Executors.newFixedThreadPool(4, runnable -> new Thread(runnable, "blocking"));
        toClose.add(blockingPool::shutdownNow);
        Executor blocking = task -> {
            blockingCalls.incrementAndGet();
            blockingPool.execute(task);
        };
        int calls = 20_000;
        Set<String> ids = ConcurrentHashMap.newKeySet();
        Map<String, AtomicInteger> completedOn = new ConcurrentHashMap<>();
        Set<Throwable> failures = ConcurrentHashMap.newKeySet();
        Semaphore inFlight = new Semaphore(64);
        for (int i = 0; i < calls; i++) {
            inFlight.acquire();
            CompletableFuture<String> next = sequence.nextReadableIdAsync(i % 2 == 0 ? "ORD" : "", blocking);
            Thread caller = Thread.currentThread();
            next.whenComplete((id, failure) -> {
                if (failure != null) {
                    failures.add(failure);
                } else {
                    ids.add(id);
                }
                completedOn
                        .computeIfAbsent(completedOn(caller), key -> new AtomicInteger())
                        .incrementAndGet();
                inFlight.release();
            });
        }
        assertThat(inFlight.tryAcquire(64, 2, TimeUnit.MINUTES))
                .as("every call completed")
                .isTrue();
        assertThat(failures).as("failed calls").isEmpty();
        assertThat(ids).as("distinct readable IDs").hasSize(calls);
        assertThat(ids)
                .allSatisfy(
                        id -> assertThat(sequence.decodeReadable(id).bucket()).isBetween(0, 3));
        assertThat(completedOn.keySet())
                .as("threads the futures completed on")
                .isSubsetOf("event loop", "blocking", "done before attached to")
                .contains("event loop");
        assertThat(completedOn.get("event loop").get())
                .as("calls completed on the event loop")
                .isGreaterThan(calls / 2);
        // A call sent the blocking way may still complete on another thread: when the blocking thread finishes before
        // the next stage is attached, that stage runs where it is attached (the caller, or the event loop).
        assertThat(completedOn.getOrDefault("blocking", new AtomicInteger()).get())
                .as("calls completed on a blocking thread, against calls sent there")
                .isLessThanOrEqualTo(blockingCalls.get());
        assertThat(sequence.failures())
                .as("failed round trips (a local Redis, a 5 s timeout)")
                .isZero();
        // Every call sent the blocking way met a busy bucket first (each such meeting is a busy skip; the blocking way
        // counts the ones it meets too, so this is a bound, not an equality).
        assertThat(blockingCalls.get())
                .as("calls that went the blocking way (a bucket busy after a wrap)")
                .isPositive()
                .isLessThanOrEqualTo((int) sequence.busySkips())
                .isLessThan(calls / 2);
        assertThat(sequence.wraps()).as("wraps").isPositive();
    }
}
