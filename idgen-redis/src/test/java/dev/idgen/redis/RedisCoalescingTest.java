package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.test.CallOrder;
import dev.idgen.test.CallOrder.Call;
import dev.idgen.test.services.OwnRedis;
import dev.idgen.test.services.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Concurrent {@code nextId} callers of one name share round trips ({@code INCRBY n}) on the real Redis: every ID once,
 * a call that started after another returned gets a larger ID, fewer round trips than calls, and a Redis that stops
 * answering fails queued callers within a bound, without a repeat after it answers again.
 */
class RedisCoalescingTest {

    private static final int THREADS = 16;

    private final String prefix = "c" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        executor.shutdownNow();
        executor.awaitTermination(60, TimeUnit.SECONDS);
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private static void until(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
            Thread.onSpinWait();
        }
    }

    /**
     * Checks that no ID repeats and that every call got an ID larger than every call that returned before it started.
     */
    static void assertDistinctAndOrdered(List<Call> calls) {
        long[] ids = calls.stream().mapToLong(Call::id).sorted().toArray();
        for (int i = 1; i < ids.length; i++) {
            assertThat(ids[i]).as("ID %d of %d, sorted", i, ids.length).isNotEqualTo(ids[i - 1]);
        }
        int checked = CallOrder.assertLaterCallsGetLargerIds(calls);
        assertThat(checked).as("calls that started after others returned").isGreaterThan(calls.size() / 2);
    }

    @Test
    void concurrentCallersOfANameShareRoundTripsWithEveryIdOnceAndLaterCallsLarger() throws Exception {
        LettuceConnectionFactory factory = OwnRedis.connectionFactory(
                TestServices.redis().host(), TestServices.redis().port());
        toClose.add(factory::destroy);
        toClose.add(() -> OwnRedis.deleteKeys(factory, prefix));
        RedisScriptExecutor redis = RedisTests.ready(new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofSeconds(5), new RedisRoundTrips()));
        // Two instances on one prefix and one "database", as two processes: small windows, so that batches meet window
        // ends and refills race between the instances.
        InMemorySegmentStore database = new InMemorySegmentStore();
        RedisWindowedCounter[] counters = {
            new RedisWindowedCounter(redis, database, prefix, 500),
            new RedisWindowedCounter(redis, database, prefix, 500)
        };
        RedisIdService[] services = {new RedisIdService(counters[0]), new RedisIdService(counters[1])};
        int perThread = 1_500;
        long roundTripsBefore = redis.roundTrips().count(RedisRoundTrips.Outcome.SUCCESS);
        CountDownLatch start = new CountDownLatch(1);
        // Threads alternate the instance, all on one name.
        List<Future<List<Call>>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            RedisIdService service = services[t % 2];
            futures.add(executor.submit(() -> {
                start.await();
                List<Call> calls = new ArrayList<>(perThread);
                for (int i = 0; i < perThread; i++) {
                    long started = System.nanoTime();
                    long id = service.nextId("orders");
                    calls.add(new Call(started, System.nanoTime(), id));
                }
                return calls;
            }));
        }
        start.countDown();
        List<Call> calls = new ArrayList<>();
        for (Future<List<Call>> future : futures) {
            calls.addAll(future.get(5, TimeUnit.MINUTES));
        }
        assertThat(calls).hasSize(THREADS * perThread);
        assertDistinctAndOrdered(calls);

        long coalescedCalls = counters[0].coalescedCalls() + counters[1].coalescedCalls();
        long coalescedRoundTrips = counters[0].coalescedRoundTrips() + counters[1].coalescedRoundTrips();
        assertThat(coalescedCalls).as("calls through the coalescers").isEqualTo(calls.size());
        // Each round trip serves the callers that queued while the ones before it were in flight: how many depends on
        // the scheduler and, since up to four round trips are in flight at once, fewer queue behind each. On a quiet
        // machine most round trips serve several; under stress-ng --cpu 4 one run had 18,779 round trips for 24,000
        // calls. Without coalescing there is one per call (and window installs on top), so at most 9 in 10 still
        // shows that calls share.
        assertThat(coalescedRoundTrips)
                .as("round trips that served them")
                .isPositive()
                .isLessThan(coalescedCalls * 9 / 10);
        long redisRoundTrips = redis.roundTrips().count(RedisRoundTrips.Outcome.SUCCESS) - roundTripsBefore;
        assertThat(redisRoundTrips)
                .as("Redis round trips, window installs included")
                .isLessThan(coalescedCalls * 9 / 10);
        assertThat(counters[0].windowsReserved() + counters[1].windowsReserved())
                .as("windows reserved")
                .isGreaterThan(2);
    }

    @Test
    void aStoppedRedisFailsQueuedCallersWithinTheBoundAndNothingRepeatsAfterItAnswersAgain() throws Exception {
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
        assertThat(counter.maxQueueWait()).isEqualTo(timeout.multipliedBy(2));
        // What a call may take while Redis does not answer: its wait in the queue, then its round trip (the executor's
        // timeout), plus scheduling slack for a loaded machine.
        long boundNanos = counter.maxQueueWait().plus(timeout).plusSeconds(3).toNanos();

        List<Call> succeeded = java.util.Collections.synchronizedList(new ArrayList<>());
        List<RuntimeException> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> failureNanos = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        List<Future<?>> callers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            callers.add(executor.submit(() -> {
                while (running.get()) {
                    long started = System.nanoTime();
                    try {
                        long id = ids.nextId("orders");
                        succeeded.add(new Call(started, System.nanoTime(), id));
                    } catch (RuntimeException e) {
                        failureNanos.add(System.nanoTime() - started);
                        failures.add(e);
                    }
                }
                return null;
            }));
        }
        until(
                () -> succeeded.size() > 2_000 && counter.coalescedRoundTrips() < counter.coalescedCalls(),
                "IDs from Redis, round trips shared");
        assertThat(failures).as("failures while Redis answers").isEmpty();

        ownRedis.signal("STOP");
        int succeededBeforeStop = succeeded.size();
        // Every caller queued behind a round trip that cannot return; each must come back, failing.
        until(() -> failures.size() >= 3 * THREADS, "callers failing while Redis is stopped");
        long answeredAfterStop = succeeded.size() - succeededBeforeStop;
        ownRedis.signal("CONT");
        int failed = failures.size();
        until(() -> succeeded.size() > succeededBeforeStop + answeredAfterStop + 2_000, "IDs from Redis again");
        running.set(false);
        for (Future<?> caller : callers) {
            caller.get(2, TimeUnit.MINUTES);
        }

        assertThat(answeredAfterStop)
                .as("calls answered after the stop (round trips already answered)")
                .isLessThanOrEqualTo(THREADS);
        List<RuntimeException> whileStopped = new ArrayList<>(failures.subList(0, failed));
        assertThat(whileStopped)
                .allSatisfy(failure -> assertThat(failure)
                        .isInstanceOf(StoreUnavailableException.class)
                        .message()
                        .satisfiesAnyOf(
                                message -> assertThat(message)
                                        .contains("did not answer idgen-increment within " + timeout),
                                message ->
                                        assertThat(message).contains("No round trip to the Redis counter 'orders'")));
        assertThat(failureNanos.subList(0, failed))
                .as("how long each failing call took, ns")
                .allSatisfy(nanos -> assertThat(nanos).isLessThan(boundNanos));
        // Every call that failed was a caller; most of them shared a round trip with others.
        assertThat(failed).isGreaterThan(THREADS);
        assertDistinctAndOrdered(succeeded);
    }

    /** One readable-ID call: when it started and returned, its bucket, and its (ms, seq) as one number. */
    record ReadableCall(long start, long end, String id, int bucket, long position) {}

    private static List<ReadableCall> drawReadable(BucketedRedisSequence sequence, String bizCode, int calls) {
        List<ReadableCall> drawn = new ArrayList<>(calls);
        long sequences = sequence.maxSequence() + 1;
        for (int i = 0; i < calls; i++) {
            long started = System.nanoTime();
            String id = sequence.nextReadableId(bizCode);
            long ended = System.nanoTime();
            BucketedDecodedId decoded = sequence.decodeReadable(id);
            drawn.add(new ReadableCall(
                    started,
                    ended,
                    id,
                    decoded.bucket(),
                    decoded.timestamp().toEpochMilli() * sequences + decoded.sequence()));
        }
        return drawn;
    }

    /** Per bucket, a call that started after another call returned got a later (ms, seq); no ID twice. */
    private static void assertReadableDistinctAndOrderedPerBucket(List<ReadableCall> calls, int buckets) {
        assertThat(calls.stream().map(ReadableCall::id).distinct().count())
                .as("distinct IDs")
                .isEqualTo(calls.size());
        for (int bucket = 0; bucket < buckets; bucket++) {
            int b = bucket;
            List<Call> inBucket = calls.stream()
                    .filter(call -> call.bucket() == b)
                    .map(call -> new Call(call.start(), call.end(), call.position()))
                    .toList();
            assertThat(inBucket).as("calls served by bucket %d", bucket).isNotEmpty();
            assertDistinctAndOrdered(inBucket);
        }
    }

    @Test
    void concurrentReadableCallersOfACodeShareRoundTripsWithEveryIdOnceAndLaterCallsLaterInTheirBucket()
            throws Exception {
        LettuceConnectionFactory factory = OwnRedis.connectionFactory(
                TestServices.redis().host(), TestServices.redis().port());
        toClose.add(factory::destroy);
        toClose.add(() -> OwnRedis.deleteKeys(factory, prefix));
        RedisScriptExecutor redis = RedisTests.ready(new RedisScriptExecutor(
                new SpringLettuceConnectionSource(factory), Duration.ofSeconds(5), new RedisRoundTrips()));
        // Few buckets with few sequences: round trips often find a bucket running out and go on to the next, and
        // buckets wrap; 12 threads on one code and 4 on another.
        int buckets = 4;
        BucketedRedisSequence sequence = new BucketedRedisSequence(
                redis,
                prefix,
                buckets,
                99,
                java.time.ZoneOffset.UTC,
                Duration.ofSeconds(5),
                dev.idgen.core.TimeSource.system());
        int perThread = 1_500;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<ReadableCall>>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            String bizCode = t % 4 == 3 ? "INV" : "ORD";
            futures.add(executor.submit(() -> {
                start.await();
                return drawReadable(sequence, bizCode, perThread);
            }));
        }
        start.countDown();
        List<ReadableCall> calls = new ArrayList<>();
        for (Future<List<ReadableCall>> future : futures) {
            calls.addAll(future.get(5, TimeUnit.MINUTES));
        }
        assertThat(calls).hasSize(THREADS * perThread);
        assertReadableDistinctAndOrderedPerBucket(calls, buckets);
        assertThat(sequence.coalescedCalls()).isEqualTo(calls.size());
        assertThat(sequence.coalescedRoundTrips())
                .as("round trips that served them")
                .isPositive()
                .isLessThan(sequence.coalescedCalls() * 3 / 4);
        assertThat(sequence.wraps()).as("buckets that ran out and wrapped").isPositive();
        assertThat(sequence.failures()).isZero();
    }

    @Test
    void aStoppedRedisFailsQueuedReadableCallersWithinTheBoundAndNothingRepeatsAfterItAnswersAgain() throws Exception {
        OwnRedis ownRedis = OwnRedis.start();
        toClose.add(ownRedis);
        toClose.add(() -> ownRedis.signal("CONT"));
        LettuceConnectionFactory factory = ownRedis.connectionFactory();
        toClose.add(factory::destroy);
        Duration timeout = Duration.ofMillis(300);
        RedisScriptExecutor redis = RedisTests.ready(
                new RedisScriptExecutor(new SpringLettuceConnectionSource(factory), timeout, new RedisRoundTrips()));
        int buckets = 8;
        BucketedRedisSequence sequence = new BucketedRedisSequence(
                redis,
                prefix,
                buckets,
                99_999,
                java.time.ZoneOffset.UTC,
                Duration.ofMillis(200),
                dev.idgen.core.TimeSource.system());
        assertThat(sequence.maxQueueWait()).isEqualTo(timeout.multipliedBy(2));
        // A call's bound while Redis does not answer: its wait in the queue, then its round trip (the executor's
        // timeout, and the last command's own), plus scheduling slack for a loaded machine.
        long boundNanos = sequence.maxQueueWait()
                .plus(timeout.multipliedBy(2))
                .plusSeconds(3)
                .toNanos();

        List<ReadableCall> succeeded = java.util.Collections.synchronizedList(new ArrayList<>());
        List<RuntimeException> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> failureNanos = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        List<Future<?>> callers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            callers.add(executor.submit(() -> {
                while (running.get()) {
                    long started = System.nanoTime();
                    try {
                        succeeded.addAll(drawReadable(sequence, "ORD", 1));
                    } catch (RuntimeException e) {
                        failureNanos.add(System.nanoTime() - started);
                        failures.add(e);
                    }
                }
                return null;
            }));
        }
        until(
                () -> succeeded.size() > 2_000 && sequence.coalescedRoundTrips() < sequence.coalescedCalls(),
                "readable IDs from Redis, round trips shared");
        assertThat(failures).as("failures while Redis answers").isEmpty();

        ownRedis.signal("STOP");
        int succeededBeforeStop = succeeded.size();
        until(() -> failures.size() >= 3 * THREADS, "callers failing while Redis is stopped");
        long answeredAfterStop = succeeded.size() - succeededBeforeStop;
        ownRedis.signal("CONT");
        int failed = failures.size();
        until(() -> succeeded.size() > succeededBeforeStop + answeredAfterStop + 2_000, "readable IDs again");
        running.set(false);
        for (Future<?> caller : callers) {
            caller.get(2, TimeUnit.MINUTES);
        }

        assertThat(answeredAfterStop)
                .as("calls answered after the stop (round trips already answered)")
                .isLessThanOrEqualTo(THREADS);
        assertThat(failures.subList(0, failed))
                .allSatisfy(failure -> assertThat(failure)
                        .isInstanceOf(StoreUnavailableException.class)
                        .message()
                        .satisfiesAnyOf(
                                message -> assertThat(message)
                                        .contains("No readable ID from")
                                        .contains("within " + timeout),
                                message -> assertThat(message)
                                        .contains("buckets of the readable IDs")
                                        .contains("are open"),
                                message -> assertThat(message).contains("No round trip to the readable IDs")));
        assertThat(failureNanos.subList(0, failed))
                .as("how long each failing call took, ns")
                .allSatisfy(nanos -> assertThat(nanos).isLessThan(boundNanos));
        assertReadableDistinctAndOrderedPerBucket(new ArrayList<>(succeeded), buckets);
    }
}
