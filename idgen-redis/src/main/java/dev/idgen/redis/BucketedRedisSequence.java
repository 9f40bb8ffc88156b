package dev.idgen.redis;

import dev.idgen.core.AsyncCalls;
import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ReadableIdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.coalesce.BatchCoalescer;
import dev.idgen.core.readable.ReadableIdFormat;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Readable IDs such as {@code 250314093015123ORD04200017} from {@code N} independent counters ("buckets") in Redis,
 * one script round trip per ID for a lone caller, and one for many concurrent callers of a business code (see
 * <em>Round trips</em>).
 *
 * <h2>Format</h2>
 * {@link ReadableIdFormat}: {@code yyMMddHHmmssSSS} of the Redis server time the ID was issued at, in {@link #zone()}
 * (default UTC); then the caller's business code, 0 to 4 characters of {@code [A-Za-z0-9]}; then the bucket,
 * zero-padded to the digits of {@code N - 1} (3 for the default 256 buckets); then the sequence, zero-padded to the
 * digits of {@code maxSequence} (5 for the default 99,999). The years 2000 to 2099 can be written.
 *
 * <h2>Buckets</h2>
 * Bucket {@code i} is the Redis hash {@code prefix + "bucket:{i}"} with the fields {@code ms} (the last millisecond it
 * issued at), {@code seq} (the last sequence it issued) and {@code wrap} (the millisecond its sequence last ran out
 * in). The hash tag puts the buckets on different Redis Cluster slots, so a cluster spreads them over its primaries.
 * Round trips take turns over the buckets ({@code getAndIncrement} of one counter per round trip), and one script
 * per round trip, for {@code n} callers, does, atomically on the bucket (Redis runs a script alone, start to end, which
 * is the lock):
 * <ol>
 * <li>{@code now} = the Redis server's {@code TIME} in milliseconds, raised to the bucket's {@code ms} if the Redis
 * clock is behind it: per bucket, time never goes backwards, even when the Redis clock steps back;</li>
 * <li>if {@code now <= wrap}, the bucket already used up its sequences in this millisecond: the answer is
 * <em>busy</em> and the caller tries the next bucket (busy is no failure);</li>
 * <li>if {@code seq} already is {@code maxSequence}, the bucket wraps: {@code seq = -1}, {@code wrap = now}, and the
 * answer is busy; otherwise it takes {@code k = min(n, maxSequence - seq)} sequences: {@code seq += k},
 * {@code ms = now}, and the answer is {@code (now, seq - k + 1 .. seq)}. With {@code n = 1} that is one
 * {@code HINCRBY seq 1} per ID, as before this took {@code n}.</li>
 * </ol>
 * When {@code k < n} the round trip goes on to the next bucket for the rest.
 *
 * <h2>Round trips</h2>
 * Concurrent callers of one business code share round trips ({@link BatchCoalescer}): while a round trip of the code
 * is in flight, callers queue; when it returns, the next one takes sequences for all of them (at most
 * {@value #MAX_COALESCED}), and each caller formats its own ID from its share. A lone caller runs its round trip on its
 * own thread, as before. Codes are spread over {@value #LANES} coalescers by hash, so codes may share one too (the
 * sequences do not depend on the code). A round trip serves only callers queued before it started, so a call that
 * started after another call of this instance returned gets its sequence from a later script run; on the same bucket
 * that is a larger {@code (ms, seq)}. IDs of different buckets are still ordered only by their time part.
 * {@link #coalescedCalls()} over {@link #coalescedRoundTrips()} is how many callers a round trip served on
 * average.
 *
 * <h2>Why no two IDs are equal</h2>
 * Within one bucket no pair {@code (ms, seq)} is issued twice. Between two wraps (one <em>cycle</em>) {@code seq}
 * only grows, so the pairs of a cycle differ in {@code seq}. Across cycles they differ in {@code ms}: every pair of a
 * cycle has {@code ms <= wrap}, because {@code ms} never goes backwards in a bucket and the wrap happens at the
 * bucket's latest {@code ms}; and every pair of the next cycle has {@code ms > wrap}, because the script answers busy
 * until then. Different buckets write different bucket digits. The time part comes from the Redis server's clock, not
 * from the callers' clocks, so no bound on the skew between application instances is needed, and a caller whose clock
 * jumps changes nothing.
 *
 * <p>What remains assumed, plainly:
 * <ul>
 * <li><b>Redis losing its data.</b> A Redis that restarts without persistence (or with an older snapshot) brings a
 * bucket back at {@code seq 0} with the clock's current millisecond. That repeats an earlier pair only if the Redis
 * clock went back by more than the restart took: a restart of 2 s is safe unless the clock also stepped back by 2 s
 * or more over it.</li>
 * <li><b>Failover.</b> A replica promoted to primary may lack the latest writes of the old primary (replication is
 * asynchronous). Each bucket records the replication id of the master that wrote it; a bucket found written under
 * another one (a promoted replica takes a new id) is fenced: it answers busy until its clock passes
 * {@link #FAILOVER_FENCE} beyond anything its copy or the new clock knows, and goes on at sequence 0 from there. So
 * it repeats an earlier pair only if the new primary's clock is behind the old one's by more than the failover took
 * (from the old primary's last ID to the new one's first) plus the fence. An old primary that still takes writes
 * after a new one was promoted (a real network partition with clients on its side) issues at the same times and
 * can repeat pairs: {@code min-replicas-to-write 1} on the masters stops it.</li>
 * <li><b>One configuration per prefix.</b> Every instance that shares the prefix must use the same number of buckets,
 * {@code maxSequence} and zone: the widths of the ID's parts and its time part depend on them.</li>
 * </ul>
 * The zone must not set its clocks back between 2000 and 2099 ({@link ReadableIdFormat} refuses such zones): the
 * repeated hour would write two different milliseconds as the same time part.
 *
 * <h2>When Redis fails</h2>
 * Each bucket has a {@link CircuitBreaker}. A bucket whose command fails ({@link RedisUnavailableException}) opens
 * and is skipped; {@code openDuration} after it opened, exactly one caller (the winner of a compare-and-set) sends it
 * a probe, which closes it on any answer (busy included) and opens it again, for another {@code openDuration}, on a
 * failure. A probe that ends for another reason (an interrupt) gives the bucket back, so that the next caller probes
 * it at once; one still unanswered {@code openDuration} after it started is presumed lost, and the next caller probes
 * too. The failover fence above is no part of the breaker: a fenced bucket answers, busy. One round trip tries the
 * buckets in turn until it has the sequences for its callers, until it has tried every bucket, or until it has spent
 * the executor's timeout (a round trip costs at most about twice the timeout: the last command started within it may
 * take its own timeout). A busy answer says how long the bucket stays busy (until the next millisecond after a
 * wrap, or until a failover fence ends); round trips skip it until then rather than ask again, and a pass in which
 * every bucket that answered was busy waits until the first of them frees up, or fails at once when that lies beyond
 * the timeout (a fence longer than the timeout). So the second after a failover costs one script per bucket, not a
 * sweep of every bucket every fraction of a millisecond. When no bucket answered, every caller of the round trip gets
 * {@link StoreUnavailableException}. A caller queued behind a round trip gives up after twice the timeout with a
 * {@link StoreUnavailableException} of its own, so a call costs at most about four times the timeout; a non-blocking call
 * ({@link #nextReadableIdAsync}) whose first bucket failed or timed out goes on this way after it, one or two timeouts
 * later.
 *
 * <p>Thread-safe. Besides the round trip (and, when it queues, a record of its own), a call allocates only the ID's
 * bytes and its string (see {@link ReadableIdFormat#format}).
 *
 * <p><b>Why one class.</b> What a round trip took for its callers, and which caller gets which sequence, is
 * {@link SequenceBatch}; the IDs' text is {@link ReadableIdFormat}, and a bucket's breaker {@link CircuitBreaker}. What
 * stays here is one pass over the buckets ({@code take}, and its first step without blocking in
 * {@link #nextReadableIdAsync}), and it moves the cursor that picks the next bucket together with, per bucket, the
 * breaker, until when the bucket said it stays busy ({@code busyUntil}) and the fence it answered ({@code fenceMillis},
 * {@code fenceUntil}). Per bucket the order is fixed: an open breaker means a probe, and only a probe reports its
 * answer to the breaker (an ordinary call's answer, older than a failure, must not close a bucket someone else probes);
 * a closed bucket still busy is skipped without a command, and counted as a busy skip as if it had answered; an answer
 * is first given to the breaker, then, if busy, recorded with how long; and the pass's deadline, its wait for the first
 * bucket to free up and its failure message (open buckets, the fence, or used-up sequences) are read from what this
 * same pass saw. Both paths keep the same rules on the same state, so that either way the same script runs under the
 * same breaker and busy times. Split into a breaker set and a busy-time table, each step of the pass would reach into
 * both and the order above would be stated in neither; here it is stated once, in {@code take}.
 */
public final class BucketedRedisSequence implements ReadableIdService {

    /** The default number of buckets. */
    public static final int DEFAULT_BUCKETS = 256;

    /** The most buckets: beyond this a failed Redis costs a caller too many skipped tries. */
    public static final int MAX_BUCKETS = 1024;

    /** The default largest sequence of a bucket within one millisecond. */
    public static final long DEFAULT_MAX_SEQUENCE = 99_999;

    /** The default time a failed bucket is skipped before it is probed. */
    public static final Duration DEFAULT_OPEN_DURATION = Duration.ofSeconds(5);

    /** The longest {@code openDuration} accepted. */
    public static final Duration MAX_OPEN_DURATION = Duration.ofHours(1);

    private static final System.Logger LOG = System.getLogger(BucketedRedisSequence.class.getName());

    // ARGV[3] is n, how many sequences the caller wants. The answer is {ms, last, k}: the sequences last - k + 1 to
    // last
    // of millisecond ms, k from 1 to n (fewer than n when the bucket reached maxSequence: its next call wraps it);
    // {-1, wrap, wait} when this call wrapped the bucket (it found the last sequence taken) and {-2, wrap, wait} while
    // the bucket is still in the millisecond it wrapped in: both are busy, for wait more microseconds (until the Redis
    // clock passes wrap). With n = 1 this is exactly what one HINCRBY per ID did, so instances of either version may
    // share the buckets. {-3, fence, wait} when the bucket was last written under another replication id (a failover),
    // or found without one on a node that was promoted at some time (it may have been lost with the lag, or written by
    // an older idgen): it is fenced, busy until the clock passes the fence, wait microseconds from now. A new (or lost)
    // bucket starts at seq -1, so its first sequence is 0, as after a wrap. Milliseconds have 13 digits until 2286:
    // exact in Lua's doubles and in the number-to-string conversion of HSET's arguments. ARGV: maxSequence, fence ms,
    // n.
    //
    // Why a second run is harmless (Lettuce resends an unanswered command after a reconnect): every run takes fresh
    // sequences under the bucket's rules and never moves seq, ms or wrap back, so a second run on the same dataset
    // takes the next pair, and the first run's pair, whose answer was lost, is a gap. A run on a promoted replica finds
    // the bucket written under another replication id and fences it (a second run then finds it fenced: busy). A run on
    // a node that restarted empty is what any call after such a restart is (see "Redis losing its data" below): a
    // replayed command adds nothing to it.
    static final RedisScript NEXT = RedisScript.of("idgen-bucket-next-n", RedisScript.REPLICATION + """
            local time = redis.call('TIME')
            local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
            local now = math.floor(micros / 1000)
            local state = redis.call('HMGET', KEYS[1], 'ms', 'wrap', 'seq', 'replid')
            local last = tonumber(state[1])
            if last and last > now then now = last end
            if state[4] ~= replid then
              if state[4] or string.match(replication, 'second_repl_offset:(-?%d+)') ~= '-1' then
                local fence = now + tonumber(ARGV[2])
                redis.call('HSET', KEYS[1], 'seq', -1, 'wrap', fence, 'ms', fence, 'replid', replid)
                return {-3, fence, (fence + 1) * 1000 - micros}
              end
              redis.call('HSET', KEYS[1], 'replid', replid)
            end
            local wrap = tonumber(state[2])
            if wrap and now <= wrap then return {-2, wrap, (wrap + 1) * 1000 - micros} end
            local seq = tonumber(state[3] or '-1')
            local max = tonumber(ARGV[1])
            if seq >= max then
              redis.call('HSET', KEYS[1], 'seq', -1, 'wrap', now, 'ms', now)
              return {-1, now, (now + 1) * 1000 - micros}
            end
            local n = math.min(tonumber(ARGV[3]), max - seq)
            seq = seq + n
            redis.call('HSET', KEYS[1], 'seq', seq, 'ms', now)
            return {now, seq, n}
            """);

    /**
     * How long a bucket found written under another master stays busy: its next IDs carry a time at least this far
     * past anything it or the new master's clock knows, so a lagging copy repeats nothing unless the new master's
     * clock is behind the old one's by more than the failover took plus this.
     */
    public static final Duration FAILOVER_FENCE = Duration.ofSeconds(1);

    private static final byte[] FENCE_ARGUMENT =
            Long.toString(FAILOVER_FENCE.toMillis()).getBytes(StandardCharsets.US_ASCII);

    private static final long FENCED = -3;

    private static final long WRAPPED = -1;

    private static final byte[] ONE = {'1'};

    /**
     * How long a pass of busy buckets waits before the next when no bucket said how long it stays busy: well under the
     * millisecond that frees them.
     */
    private static final long BUSY_PAUSE_NANOS = 100_000;

    /**
     * Per bucket, until when (nanoTime) it said it stays busy (its wrap's millisecond, or a failover fence): round trips
     * skip it until then instead of asking again, and a pass in which every bucket is busy waits for the first to free
     * up. Skipping a bucket before then only avoids a script that would answer busy.
     */
    private final AtomicLongArray busyUntil;

    /** Per bucket, the fence (Redis ms) it answered last, and until when (nanoTime) that fence lasts: for messages. */
    private final AtomicLongArray fenceMillis;

    private final AtomicLongArray fenceUntil;

    private final RedisScriptExecutor redis;
    private final String prefix;
    private final int buckets;
    private final ReadableIdFormat format;
    private final Duration openDuration;
    private final long timeoutNanos;
    private final byte[][][] keys;
    private final byte[] maxSequenceArgument;
    private final AtomicInteger cursor = new AtomicInteger();
    /**
     * One per bucket, without padding: a breaker is written only on its transitions and read on every call, and false
     * sharing costs only when neighbours are written often.
     */
    private final CircuitBreaker[] breakers;

    private final LongAdder busySkips = new LongAdder();
    private final LongAdder wraps = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder fences = new LongAdder();
    private final LongAdder coalescedCalls = new LongAdder();
    private final LongAdder coalescedRoundTrips = new LongAdder();

    /**
     * How many coalescers the business codes are spread over: callers of one code always share one, and codes whose
     * hashes collide share one too (a bucket's sequences do not depend on the code).
     */
    static final int LANES = 16;

    /** The most callers one round trip serves. */
    public static final int MAX_COALESCED = 1024;

    private final BatchCoalescer<SequenceBatch>[] lanes;

    /** Writes a batch's IDs; one for all calls, so that a call allocates no writer of its own. */
    private final SequenceBatch.IdWriter idWriter = this::readableId;

    private final Duration maxQueueWait;

    /**
     * With {@value #DEFAULT_BUCKETS} buckets, {@code maxSequence} {@value #DEFAULT_MAX_SEQUENCE}, UTC, an
     * {@code openDuration} of 5 s and the system clock.
     *
     * @param redis runs the scripts; its timeout bounds each call
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     */
    public BucketedRedisSequence(RedisScriptExecutor redis, String prefix) {
        this(
                redis,
                prefix,
                DEFAULT_BUCKETS,
                DEFAULT_MAX_SEQUENCE,
                ZoneOffset.UTC,
                DEFAULT_OPEN_DURATION,
                TimeSource.system());
    }

    /**
     * @param redis runs the scripts; its timeout bounds each call
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     * @param buckets how many buckets, from 1 to {@value #MAX_BUCKETS}
     * @param maxSequence the largest sequence of a bucket within one millisecond, from
     *        {@value ReadableIdFormat#MIN_MAX_SEQUENCE} to {@value ReadableIdFormat#MAX_MAX_SEQUENCE}; its digits are
     *        the width of the sequence part
     * @param zone the zone of the time part; it must not set its clocks back between 2000 and 2099
     * @param openDuration how long a failed bucket is skipped before one caller probes it, from 1 ms to 1 hour
     * @param timeSource measures {@code openDuration}, with {@link TimeSource#nanoTime()}
     * @throws InvalidArgumentException naming the argument that breaks its rule
     */
    public BucketedRedisSequence(
            RedisScriptExecutor redis,
            String prefix,
            int buckets,
            long maxSequence,
            ZoneId zone,
            Duration openDuration,
            TimeSource timeSource) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.prefix = RedisKeys.checkPrefix(prefix);
        if (buckets < 1 || buckets > MAX_BUCKETS) {
            throw new InvalidArgumentException(
                    "buckets", buckets, "buckets must be between 1 and " + MAX_BUCKETS + ", but was " + buckets);
        }
        this.format = new ReadableIdFormat(buckets, maxSequence, zone);
        if (openDuration == null || openDuration.toMillis() < 1 || openDuration.compareTo(MAX_OPEN_DURATION) > 0) {
            throw new InvalidArgumentException(
                    "openDuration", openDuration, "openDuration must be between 1ms and 1h, but was " + openDuration);
        }
        this.buckets = buckets;
        this.openDuration = openDuration;
        this.timeoutNanos = redis.timeout().toNanos();
        this.keys = new byte[buckets][][];
        for (int i = 0; i < buckets; i++) {
            keys[i] = new byte[][] {(prefix + "bucket:{" + i + "}").getBytes(StandardCharsets.UTF_8)};
        }
        this.maxSequenceArgument = Long.toString(maxSequence).getBytes(StandardCharsets.US_ASCII);
        this.busyUntil = new AtomicLongArray(buckets);
        this.fenceMillis = new AtomicLongArray(buckets);
        this.fenceUntil = new AtomicLongArray(buckets);
        long past = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
        for (int i = 0; i < buckets; i++) {
            busyUntil.set(i, past);
            fenceUntil.set(i, past);
        }
        this.breakers = new CircuitBreaker[buckets];
        for (int i = 0; i < buckets; i++) {
            breakers[i] = new CircuitBreaker(openDuration, timeSource);
        }
        this.maxQueueWait = redis.timeout().multipliedBy(2);
        @SuppressWarnings("unchecked")
        BatchCoalescer<SequenceBatch>[] created = (BatchCoalescer<SequenceBatch>[]) new BatchCoalescer<?>[LANES];
        String what = "the readable IDs on " + redis.describe();
        for (int i = 0; i < LANES; i++) {
            created[i] = new BatchCoalescer<>(this::take, MAX_COALESCED, maxQueueWait, what);
        }
        this.lanes = created;
    }

    /**
     * @throws StoreUnavailableException when no bucket answered (all open, or every try failed), when the executor's
     *         timeout was spent in the round trip that served this call, or when this call waited in the queue for
     *         twice the executor's timeout without a round trip taking it
     */
    @Override
    public String nextReadableId(String bizCode) {
        ReadableIdFormat.checkBizCode(bizCode);
        return lanes[(bizCode.hashCode() & 0x7fff_ffff) % LANES].next(
                (batch, index) -> batch.id(index, bizCode, idWriter));
    }

    /**
     * Counts a busy answer and, when it says for how long ({@code answer.size() > 2}), skips the bucket until then.
     *
     * @return until when (nanoTime) the bucket stays busy; meaningful only when the answer said it
     */
    private long markBusy(int bucket, long ms, List<Object> answer) {
        busySkips.increment();
        if (ms == WRAPPED) {
            wraps.increment();
        } else if (ms == FENCED) {
            fences.increment();
        }
        if (answer.size() <= 2) {
            return 0;
        }
        long until = System.nanoTime() + ((Number) answer.get(2)).longValue() * 1_000L;
        busyUntil.set(bucket, until);
        if (ms == FENCED) {
            fenceMillis.set(bucket, ((Number) answer.get(1)).longValue());
            fenceUntil.set(bucket, until);
        }
        return until;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here the common case completes on Lettuce's event loop: the call sends one script for one sequence to the
     * next bucket in turn, if that bucket is closed and not known to be busy, and formats the ID when the answer comes
     * back. Only when that bucket is skipped, answers busy (a wrap, a failover fence) or fails (which counts against
     * its breaker, as in the blocking call) does the call go the blocking way, {@link #nextReadableId}, on
     * {@code blocking}: every bucket in turn, waiting for busy ones within the timeout. Either way the same script
     * runs under the same rules, so IDs of both ways never repeat one another.
     */
    @Override
    public CompletableFuture<String> nextReadableIdAsync(String bizCode, Executor blocking) {
        ReadableIdFormat.checkBizCode(bizCode);
        int bucket = Math.floorMod(cursor.getAndIncrement(), buckets);
        CircuitBreaker breaker = breakers[bucket];
        if (breaker.isOpen()) {
            return AsyncCalls.offload(() -> nextReadableId(bizCode), blocking, "readable IDs");
        }
        if (busyUntil.get(bucket) - System.nanoTime() > 0) {
            // Counted as the blocking way counts a bucket it skips for what it said earlier.
            busySkips.increment();
            return AsyncCalls.offload(() -> nextReadableId(bizCode), blocking, "readable IDs");
        }
        return redis.evalListAsync(NEXT, keys[bucket], maxSequenceArgument, FENCE_ARGUMENT, ONE)
                .handle((answer, thrown) -> {
                    if (thrown != null) {
                        Throwable cause = thrown instanceof CompletionException && thrown.getCause() != null
                                ? thrown.getCause()
                                : thrown;
                        if (cause instanceof RedisUnavailableException e) {
                            failures.increment();
                            if (breaker.onFailure()) {
                                LOG.log(
                                        System.Logger.Level.DEBUG,
                                        () -> "Bucket " + bucketName(bucket) + " failed, open for " + openDuration
                                                + ": " + e.getMessage());
                            }
                        }
                        return AsyncCalls.offload(() -> nextReadableId(bizCode), blocking, "readable IDs");
                    }
                    long ms = ((Number) answer.get(0)).longValue();
                    if (ms < 0) {
                        markBusy(bucket, ms, answer);
                        return AsyncCalls.offload(() -> nextReadableId(bizCode), blocking, "readable IDs");
                    }
                    coalescedRoundTrips.increment();
                    coalescedCalls.increment();
                    return CompletableFuture.completedFuture(
                            readableId(ms, bizCode, bucket, ((Number) answer.get(1)).longValue()));
                })
                .thenCompose(id -> id);
    }

    /**
     * One round trip for {@code n} callers: takes {@code n} sequences from the buckets in turn, starting at the next
     * bucket of the cursor.
     */
    private SequenceBatch take(int n) {
        SequenceBatch batch = new SequenceBatch();
        byte[] wanted = n == 1 ? ONE : Integer.toString(n).getBytes(StandardCharsets.US_ASCII);
        int start = Math.floorMod(cursor.getAndIncrement(), buckets);
        // The budget is real time, as the executor's timeout is; the TimeSource only measures openDuration.
        long started = System.nanoTime();
        RedisUnavailableException lastFailure = null;
        long fencedUntil = -1;
        while (true) {
            boolean anyAnswered = false;
            boolean anyTaken = false;
            // The earliest time (nanoTime) a bucket that answered busy frees up; started + a day when none said.
            long earliestFree = started + TimeUnit.DAYS.toNanos(1);
            boolean anyBusyUntil = false;
            for (int k = 0; k < buckets; k++) {
                int bucket = start + k < buckets ? start + k : start + k - buckets;
                CircuitBreaker breaker = breakers[bucket];
                // A closed bucket is called without asking its breaker, so that only a probe reports an answer: an
                // ordinary call's answer, older than a failure, must not close a bucket someone else is probing.
                boolean probe = breaker.isOpen();
                if (!probe) {
                    long until = busyUntil.get(bucket);
                    long now = System.nanoTime();
                    if (until - now > 0) {
                        // It said it stays busy until then (a wrap, a failover fence): asking again would only hear it.
                        anyAnswered = true;
                        busySkips.increment();
                        if (until - earliestFree < 0) {
                            earliestFree = until;
                        }
                        anyBusyUntil = true;
                        if (fenceUntil.get(bucket) - now > 0) {
                            fencedUntil = Math.max(fencedUntil, fenceMillis.get(bucket));
                        }
                        continue;
                    }
                }
                if (probe && !breaker.tryProbe()) {
                    continue;
                }
                List<Object> answer;
                try {
                    answer = redis.evalList(NEXT, keys[bucket], maxSequenceArgument, FENCE_ARGUMENT, wanted);
                } catch (RedisUnavailableException e) {
                    failures.increment();
                    lastFailure = e;
                    if (breaker.onFailure()) {
                        LOG.log(
                                System.Logger.Level.DEBUG,
                                () -> "Bucket " + bucketName(bucket) + " failed, open for " + openDuration + ": "
                                        + e.getMessage());
                    }
                    if (System.nanoTime() - started >= timeoutNanos) {
                        throw new StoreUnavailableException(
                                "No readable ID from " + redis.describe() + " within "
                                        + redis.timeout() + " (idgen.redis.timeout): " + openBuckets() + " of "
                                        + buckets
                                        + " buckets are open; last failure: " + e.getMessage(),
                                e);
                    }
                    continue;
                } catch (RuntimeException | Error e) {
                    // Not Redis's fault (for example an interrupt): let someone else probe at once.
                    if (probe) {
                        breaker.onAbandoned();
                    }
                    throw e;
                }
                // Busy is an answer too: the breaker judges whether Redis answers, not whether it had a sequence.
                if (probe && breaker.onSuccess()) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "Bucket " + bucketName(bucket) + " answers again: closed");
                }
                anyAnswered = true;
                long ms = ((Number) answer.get(0)).longValue();
                if (ms >= 0) {
                    int taken = ((Number) answer.get(2)).intValue();
                    batch.add(bucket, ms, ((Number) answer.get(1)).longValue(), taken);
                    if (batch.size() == n) {
                        coalescedRoundTrips.increment();
                        coalescedCalls.add(n);
                        return batch;
                    }
                    // The bucket ran out of sequences for the rest: its next call wraps it, so go on to the next.
                    anyTaken = true;
                    wanted = Integer.toString(n - batch.size()).getBytes(StandardCharsets.US_ASCII);
                } else {
                    long busyMillis = ((Number) answer.get(1)).longValue();
                    if (ms == FENCED || fencedUntil >= 0) {
                        fencedUntil = Math.max(fencedUntil, busyMillis);
                    }
                    long until = markBusy(bucket, ms, answer);
                    if (answer.size() > 2) {
                        if (until - earliestFree < 0) {
                            earliestFree = until;
                        }
                        anyBusyUntil = true;
                    }
                }
                if (System.nanoTime() - started >= timeoutNanos) {
                    throw busyTooLong(lastFailure, fencedUntil);
                }
            }
            if (!anyAnswered) {
                throw new StoreUnavailableException(
                        "All " + buckets + " buckets of the readable IDs on "
                                + redis.describe() + " are open: their commands failed"
                                + (lastFailure != null ? " (last: " + lastFailure.getMessage() + ")" : "")
                                + "; each is tried again " + openDuration + " after it failed",
                        lastFailure);
            }
            if (!anyTaken) {
                // Every bucket that answered is busy: wait until the first of them frees up (the next millisecond
                // after a wrap, the end of a failover fence), or fail now if that is past the budget.
                long now = System.nanoTime();
                long wait = anyBusyUntil ? earliestFree - now : BUSY_PAUSE_NANOS;
                if (now - started + wait >= timeoutNanos) {
                    throw busyTooLong(lastFailure, fencedUntil);
                }
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (System.nanoTime() - started >= timeoutNanos) {
                    throw busyTooLong(lastFailure, fencedUntil);
                }
            }
        }
    }

    /**
     * @throws InvalidArgumentException naming {@code id} when it is not an ID of this sequence's
     *         {@link ReadableIdFormat} (see {@link ReadableIdFormat#parse})
     */
    @Override
    public BucketedDecodedId decodeReadable(String id) {
        return BucketedDecodedId.of(format.parse(id));
    }

    /**
     * @return how many buckets there are
     */
    public int bucketCount() {
        return buckets;
    }

    /**
     * @param bucket a bucket, from 0 to {@link #bucketCount()} - 1
     * @return its breaker's state: {@link CircuitBreaker.State#CLOSED} while the bucket is used,
     *         {@link CircuitBreaker.State#OPEN} while it is skipped after a failure,
     *         {@link CircuitBreaker.State#HALF_OPEN} while one caller probes it
     */
    public CircuitBreaker.State circuitState(int bucket) {
        Objects.checkIndex(bucket, buckets);
        return breakers[bucket].state();
    }

    /**
     * @return how many buckets are not closed (open, or being probed)
     */
    public int openBuckets() {
        int open = 0;
        for (CircuitBreaker breaker : breakers) {
            if (breaker.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /**
     * @return whether no bucket is closed, so that calls fail until a probe succeeds
     */
    public boolean allOpen() {
        return openBuckets() == buckets;
    }

    /**
     * @return how many times a call moved on from a bucket that was busy (it had used up its sequences of the
     *         millisecond, or was fenced after a failover): because the bucket answered so, or had said until when
     */
    public long busySkips() {
        return busySkips.sum();
    }

    /**
     * @return how many times a call of this instance wrapped a bucket's sequence (each is also a busy skip)
     */
    public long wraps() {
        return wraps.sum();
    }

    /**
     * @return how many times a call of this instance found a bucket written under another replication id (a
     *         failover) and fenced it for {@link #FAILOVER_FENCE}
     */
    public long failovers() {
        return fences.sum();
    }

    /**
     * @return how many readable IDs were handed out: one per call that got one
     */
    public long coalescedCalls() {
        return coalescedCalls.sum();
    }

    /**
     * @return how many round trips served those calls (each takes its callers' sequences from one bucket, from the
     *         next when a bucket runs out); {@link #coalescedCalls()} over this is how many callers one served on
     *         average
     */
    public long coalescedRoundTrips() {
        return coalescedRoundTrips.sum();
    }

    /**
     * @return how long a caller waits in the queue for a round trip before it gives up: twice the executor's timeout
     */
    public Duration maxQueueWait() {
        return maxQueueWait;
    }

    /**
     * @return how many bucket commands failed
     */
    public long failures() {
        return failures.sum();
    }

    /**
     * @return the largest sequence of a bucket within one millisecond
     */
    public long maxSequence() {
        return format.maxSequence();
    }

    /**
     * @return the zone of the time part
     */
    public ZoneId zone() {
        return format.zone();
    }

    /**
     * @return how long a failed bucket is skipped before it is probed
     */
    public Duration openDuration() {
        return openDuration;
    }

    /**
     * @return what runs the scripts
     */
    public RedisScriptExecutor redis() {
        return redis;
    }

    @Override
    public String toString() {
        return "BucketedRedisSequence[" + buckets + " buckets under '" + prefix + "', " + redis.describe() + "]";
    }

    private StoreUnavailableException busyTooLong(RedisUnavailableException lastFailure, long fencedUntil) {
        if (fencedUntil >= 0) {
            return new StoreUnavailableException(
                    "No readable ID from " + redis.describe() + " within "
                            + redis.timeout()
                            + " (idgen.redis.timeout): buckets were found written under another master (a"
                            + " failover) and are fenced until " + Instant.ofEpochMilli(fencedUntil)
                            + ", so that a replica"
                            + " that missed writes repeats no ID; they serve again after that",
                    lastFailure);
        }
        return new StoreUnavailableException(
                "No readable ID from " + redis.describe() + " within " + redis.timeout()
                        + " (idgen.redis.timeout): every bucket that answered had used up its "
                        + (format.maxSequence() + 1)
                        + " sequences of the millisecond; use more buckets or a larger maxSequence",
                lastFailure);
    }

    private String readableId(long ms, String bizCode, int bucket, long sequence) {
        try {
            return format.format(ms, bizCode, bucket, sequence);
        } catch (InvalidArgumentException e) {
            // The time and the sequence come from Redis, not from the caller: say where they came from.
            throw new IdGenerationException(
                    redis.describe() + " answered " + Instant.ofEpochMilli(ms) + ", sequence "
                            + sequence + " for bucket " + bucketName(bucket) + ", which no readable ID can carry: "
                            + e.getMessage(),
                    e);
        }
    }

    private String bucketName(int bucket) {
        return prefix + "bucket:{" + bucket + "}";
    }
}
