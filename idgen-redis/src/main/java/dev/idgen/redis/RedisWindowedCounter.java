package dev.idgen.redis;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.NameLimit;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.coalesce.AsyncRangeCoalescer;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.segment.SegmentStore;
import io.lettuce.core.RedisCommandExecutionException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Per-name counters in Redis that survive Redis losing its data, and a failover to a replica that missed writes,
 * without ever repeating a value.
 *
 * <p>Each name has a counter key {@code prefix{name}} and a window key {@code prefix{name}:window}. Redis only counts
 * within a <em>window</em> {@code (start, limit]} that was first reserved in a durable {@link SegmentStore} (the
 * database). The window key holds {@code start:limit:replid}: the window and the replication id ({@code INFO
 * replication}'s {@code master_replid}) of the master it was installed on. An ID is one script, {@link #INCREMENT},
 * that increments the counter only if the window key exists, was written under the replication id the node answering
 * has now, and has room; otherwise it changes nothing and says why, and the caller reserves the next window from the
 * database and installs it with {@link #INSTALL}. The counter holds the value plus {@link #OFFSET}, so a counter that
 * Redis lost is recognised by its small (or missing) value. So:
 * <ul>
 * <li>every value handed out lies in a window the database reserved, windows never overlap, and the counter never
 * moves backwards (an install sets it to the new window's start or leaves it where it is, if that is higher), so on
 * one dataset the counter never repeats;</li>
 * <li>a Redis that restarts empty has no keys: the next call reserves a fresh window above everything the database
 * ever gave out, rather than counting again from zero;</li>
 * <li><b>a failover</b> changes the replication id: a promoted replica takes a new one (Redis 4 and later), and so
 * does a master that restarted with an older dataset. Its copy of the window key still names the old one, so the
 * first call on it finds the window <em>unverified</em>: the counter may lag behind what the old master handed out,
 * by as many writes as replication lagged. The caller then reserves a fresh window above the database's maximum
 * (above every window the old master ever counted in) and installs it under the new replication id. The check runs in
 * the same script as the increment, on the node that increments, so no value from a lagging copy is ever handed out,
 * however the client was routed there (Sentinel, Cluster slot moves, a DNS or proxy switch). A slot migrated to
 * another cluster master (a different replication id) is treated the same way;</li>
 * <li>a split brain (an old master that still takes writes after a new one was promoted) cannot repeat either: both
 * count in windows the database reserved for them, and the database reserves each window once.</li>
 * </ul>
 * The cost: one window's unused rest per name per failover (a gap, never a repeat), and a script with {@code INFO
 * replication} per call instead of a plain {@code INCRBY} (see the README's benchmarks). A replication id also changes
 * without a failover (a master that gets its first replica, a backup with {@code redis-cli --rdb}): each such change
 * costs one window's rest per name too. Redis gives a restarted master a new replication id as well, so even a Redis
 * that comes back from an older snapshot is caught; {@link #verifyPersistence()} (at start-up, on every master) still
 * refuses persistence that could bring back older counters, as a second line; it is not repeated after a failover, so
 * that replicas with Redis's default {@code save} do not stop the counter once promoted.
 *
 * <p><b>Commands that run twice.</b> Lettuce, by default, resends after a reconnect every command that was sent but
 * not answered; the reconnect may reach the same node after a restart, or another node (a promoted replica, a switched
 * proxy). Both scripts are safe when they run a second time: {@link #INCREMENT} only takes values (the lost run's are
 * a gap), and {@link #INSTALL} carries the replication id (and whether a window was seen) of the read it follows and
 * refuses any other dataset, while on its own dataset a second run finds its window already in place and changes
 * nothing. A window is never installed twice by this class: a refused or unanswered install costs that window, and
 * the next one is reserved afresh. So the guarantee does not depend on the client's reconnect options (Spring's
 * factory keeps the application's).
 *
 * <p>The database is written once per window, not per ID; values are kept below 2^52 so that counter plus offset
 * stays exact in the scripts' doubles.
 *
 * <p><b>Why one class.</b> The blocking window work's threads and its per-name order are {@link SerialWindowWork}, the
 * rule on persistence settings is {@link RedisPersistenceRule}, and combining callers is {@link AsyncRangeCoalescer}.
 * What stays here is one sequence per name, and its steps hand state to each other: the number of windows this
 * process installed ({@code Counter.windows}) is read before {@link #INCREMENT} is sent and compared under the name's
 * refill lock, so that callers who found the same window full install one window, not one each; under that lock the
 * persistence check runs before the first window is reserved, the window is reserved from the database, and
 * {@link #INSTALL} carries the replication id and the window seen by the very answer the refill follows; only an
 * install that was not refused counts as a window, and the names refilled before tell a counter Redis lost from a
 * first window. The scripts sit with the code that reads their status codes ({@code 1}, {@code 0}, {@code -1},
 * {@code -2}). Split into a refill class and an increment class, each would need the other's per-name state and lock,
 * and the order that keeps a window from being installed twice, or on a dataset other than the one read, would be
 * stated in neither.
 */
public final class RedisWindowedCounter {

    /** Added to every counter in Redis, so that one re-created from nothing is recognised by its small value. */
    public static final long OFFSET = 1L << 52;

    /** The largest value handed out: value plus offset stays below 2^53, exact in Lua's doubles. */
    public static final long MAX_VALUE = OFFSET - 1;

    private static final System.Logger LOG = System.getLogger(RedisWindowedCounter.class.getName());

    private static final int MAX_WINDOWS_PER_CALL = 4;

    // KEYS: counter, window. ARGV: n. -> {status, value}: 1 and the last value taken (without the offset); 0 the window
    // has no room for n; -1 no window or no counter (Redis lost its data); -2 the window was installed under another
    // replication id (a failover, or a restart with an older dataset): its counter is unverified. Every answer but 1
    // also carries the node's replication id and whether it holds a window (1/0), for the install that follows: the
    // install runs only on the dataset this answer describes.
    //
    // A second run (Lettuce resends an unanswered command after a reconnect) is harmless: on the same dataset it takes
    // the next values, and the first run's values, whose answer was lost, are a gap; on a node that restarted empty, or
    // on another node, it finds no window of its own (-1, -2) or counts in that node's own window, which the database
    // reserved for it. It never moves a counter backwards and never writes a window.
    static final RedisScript INCREMENT = RedisScript.of("idgen-increment", RedisScript.REPLICATION + """
            local offset = 4503599627370496
            local window = redis.call('GET', KEYS[2])
            if not window then return {-1, 0, replid, 0} end
            local start, limit, installedUnder = string.match(window, '^(%d+):(%d+):?(%w*)$')
            if installedUnder ~= replid then return {-2, 0, replid, 1} end
            local current = tonumber(redis.call('GET', KEYS[1]) or '0')
            if current < offset + tonumber(start) then return {-1, 0, replid, 1} end
            local n = tonumber(ARGV[1])
            if current - offset + n > tonumber(limit) then return {0, 0, replid, 1} end
            return {1, redis.call('INCRBY', KEYS[1], n) - offset}
            """);

    // KEYS: window. -> {replid, 1 if the node holds a window else 0}: what an install without a prior increment
    // (incrementInFreshWindow) carries. Reads only.
    static final RedisScript STATE = RedisScript.of("idgen-window-state", RedisScript.REPLICATION + """
            if redis.call('EXISTS', KEYS[2]) == 1 then return {replid, 1} end
            return {replid, 0}
            """);

    // KEYS: counter, window. ARGV: start, limit, n, force (1: replace a window that is still usable, as long as the new
    // one is later), the replication id the caller read the node's state under, and whether it saw a window there
    // (1/0). 1: installed under this node's replication id; 0: a later window (or this very one), or (unless forced) a
    // usable one installed under this node's replication id, is already in place (the caller's window goes unused);
    // -1: refused, this is not the dataset the caller read (another replication id: a restart, a failover, another
    // node; or the window the caller saw is gone).
    //
    // Why a second run is harmless. Lettuce resends an install whose answer was lost; meanwhile other instances may
    // have counted in the window the first run installed. (1) On the same dataset the second run finds that window
    // (limit >= its own) and answers 0: it never sets the counter back to the window's start, and the counter only
    // ever moves forward anyway. (2) On a node that restarted empty, a promoted replica, or another node, the
    // replication id differs from the one the caller read (Redis gives a restarted master and a promoted replica a new
    // one), so it refuses: installing there would let the counter start at the window's beginning again, below values
    // the first run's node already handed out. (3) A window that vanished under the same replication id (deleted,
    // evicted) while the caller had seen one is refused too. The caller never installs one window twice: a refused or
    // unanswered install costs that window (a gap), and the next one is reserved afresh above the database's maximum.
    // Residual: a dataset that loses idgen's keys without a restart, before the caller ever saw a window there
    // (FLUSHALL, an allkeys eviction policy); idgen's keys have no TTL, so a volatile-* or noeviction policy is safe.
    static final RedisScript INSTALL = RedisScript.of("idgen-install-window", RedisScript.REPLICATION + """
            local offset = 4503599627370496
            if replid ~= ARGV[5] then return -1 end
            local window = redis.call('GET', KEYS[2])
            if not window and ARGV[6] == '1' then return -1 end
            local current = tonumber(redis.call('GET', KEYS[1]) or '0')
            if window then
              local limit, installedUnder = string.match(window, ':(%d+):?(%w*)$')
              limit = tonumber(limit)
              if limit >= tonumber(ARGV[2]) then return 0 end
              if ARGV[4] ~= '1' and installedUnder == replid and current >= offset
                  and current - offset + tonumber(ARGV[3]) <= limit then
                return 0
              end
            end
            local base = tonumber(ARGV[1]) + offset
            if current > base then base = current end
            redis.call('SET', KEYS[1], string.format('%.0f', base))
            redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2] .. ':' .. replid)
            return 1
            """);

    /** The most callers of one name that one {@code INCRBY n} serves (fewer when the window is smaller). */
    public static final int MAX_COALESCED = 1024;

    /** Coalesced round trips of one name in flight at once. */
    static final int ROUND_TRIPS_IN_FLIGHT = 4;

    /** A name's keys, the coalescer of its {@link #next} callers, and its window work. */
    private final class Counter {
        final byte[][] keys;
        final AsyncRangeCoalescer coalescer;
        /**
         * How many windows this process installed for the name: read before an increment is sent, and compared under
         * the refill's lock, so that callers whose increment found the window full while another caller was
         * refilling it retry the increment in that new window instead of each reserving one more.
         */
        volatile long windows;
        /** The name's window work, one at a time off Lettuce's event loop. */
        private final SerialWindowWork serialWork;

        final ReentrantLock refillLock = new ReentrantLock();

        /**
         * Runs {@code work} on the window threads after the name's earlier window work.
         *
         * @return its result; failed with a {@link StoreUnavailableException} when it has not ended within
         *         {@link #WINDOW_WORK_TIMEOUT} (it goes on, and any window it installs is used by later calls)
         */
        CompletableFuture<Long> windowWork(Supplier<Long> work) {
            return serialWork.run(work);
        }

        Counter(String name, String counterKey) {
            this.serialWork = new SerialWindowWork(name);
            this.keys = new byte[][] {
                counterKey.getBytes(StandardCharsets.UTF_8), (counterKey + ":window").getBytes(StandardCharsets.UTF_8)
            };
            this.coalescer = new AsyncRangeCoalescer(
                    n -> incrementAsync(name, this, n).whenComplete((last, failure) -> {
                        if (failure == null) {
                            coalescedRoundTrips.increment();
                            coalescedCalls.add(n);
                        }
                    }),
                    maxCoalesced,
                    // Four round trips in flight on the one connection (Redis runs them in the order sent): Lettuce's
                    // event loop hands one out while Redis runs the next.
                    ROUND_TRIPS_IN_FLIGHT,
                    maxQueueWait,
                    // The increment (and a connect) within the timeout each, then any window work.
                    WINDOW_WORK_TIMEOUT.plus(maxQueueWait),
                    "the Redis counter '" + name + "' (" + redis.describe() + ")");
        }
    }

    /**
     * How long a non-blocking call waits for the window work its round trip needed; the work itself goes on (a window
     * it installs is used by later calls).
     */
    public static final Duration WINDOW_WORK_TIMEOUT = Duration.ofSeconds(30);

    private final RedisScriptExecutor redis;
    private final SegmentStore windows;
    private final String prefix;
    private final long windowSize;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final NameLimit names;
    private volatile boolean persistenceVerified = true;
    private final Set<String> refilledNames = ConcurrentHashMap.newKeySet();
    private final LongAdder windowsReserved = new LongAdder();
    private final LongAdder lostCounters = new LongAdder();
    private final LongAdder failovers = new LongAdder();
    private final LongAdder behindFloor = new LongAdder();
    private final LongAdder coalescedCalls = new LongAdder();
    private final LongAdder coalescedRoundTrips = new LongAdder();
    private final int maxCoalesced;
    private final Duration maxQueueWait;
    private static final byte[] ONE = {'1'};
    private static final byte[] ZERO = {'0'};
    private final LongAdder refusedInstalls = new LongAdder();

    /**
     * @param redis runs the commands and scripts
     * @param windows the durable store windows are reserved from
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     * @param windowSize how many values one database reservation covers, from 1 to 2^40
     */
    public RedisWindowedCounter(RedisScriptExecutor redis, SegmentStore windows, String prefix, long windowSize) {
        this(redis, windows, prefix, windowSize, SegmentIdService.DEFAULT_MAX_NAMES);
    }

    /**
     * @param redis runs the commands and scripts
     * @param windows the durable store windows are reserved from
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     * @param windowSize how many values one database reservation covers, from 1 to 2^40
     * @param maxNames how many names the counter serves, from 1 to 1,000,000; each keeps its window in memory, and a
     *        new name past the limit is refused with {@link dev.idgen.core.NameLimitExceededException}
     */
    public RedisWindowedCounter(
            RedisScriptExecutor redis, SegmentStore windows, String prefix, long windowSize, int maxNames) {
        this.names = new NameLimit(maxNames);
        if (windowSize < 1 || windowSize > (1L << 40)) {
            throw new InvalidArgumentException(
                    "windowSize", windowSize, "windowSize must be between 1 and 2^40, but was " + windowSize);
        }
        this.redis = redis;
        this.windows = windows;
        this.prefix = RedisKeys.checkPrefix(prefix);
        this.windowSize = windowSize;
        // Every round trip in flight, and the one that reserved a window, fit in one window together: with a round of a
        // whole window, the rounds of this one process took each new window from the round that had reserved it, and
        // after MAX_WINDOWS_PER_CALL such windows a call failed with no fault anywhere (seen with window-size 100 under
        // thousands of virtual threads). The default window (100,000) is far above MAX_COALESCED times five.
        this.maxCoalesced = (int) Math.min(MAX_COALESCED, Math.max(1, windowSize / (ROUND_TRIPS_IN_FLIGHT + 1)));
        this.maxQueueWait = redis.timeout().multipliedBy(2);
    }

    /**
     * The next value of the counter of {@code name}, for one caller: concurrent callers of one name share one round
     * trip. While a round trip of the name is in flight, callers queue; when it returns, the next round trip takes
     * {@code INCRBY n} for all of them (at most {@link #MAX_COALESCED}, and never more than the window size) and hands
     * the range out, the oldest caller the lowest value. Round trips are sent and completed on Lettuce's event loop
     * ({@link AsyncRangeCoalescer}); this caller parks on its own call only. A call that started after another call
     * returned gets a larger value (a round trip serves only callers queued before it was sent, and the counter only
     * moves forward; a call of another process that returned before this one started took its value from an earlier
     * round trip too), and values of a name never repeat, across processes too.
     *
     * @param name a name, already checked
     * @return the value
     * @throws RedisUnavailableException when Redis does not answer in time (every caller of the round trip gets it)
     * @throws StoreUnavailableException when a new window is needed and the database cannot give one (or not within
     *         {@link #WINDOW_WORK_TIMEOUT}), or when this call waited in the queue for twice the executor's timeout
     *         without a round trip taking it
     * @throws IdGenerationException when interrupted (a value already taken for this call is a gap)
     */
    public long next(String name) {
        return counter(name).coalescer.nextBlocking();
    }

    /**
     * {@link #next} without blocking the caller: the future completes on Lettuce's event loop when the name's round
     * trip comes back (concurrent callers share it, as in {@link #next}); when the window runs out, the new window is
     * reserved and installed on a thread of idgen's own, and the future completes there. Stages chained to it must not
     * block.
     *
     * @param name a name, already checked
     * @return completes with the value, or with what {@link #next} would throw
     */
    public CompletableFuture<Long> nextAsync(String name) {
        return counter(name).coalescer.next();
    }

    /**
     * Drops the in-memory state (keys, combining) of the names {@code which} accepts; it no longer counts towards
     * {@code maxNames}. Their counters and windows stay in Redis and the database, so the next call for such a name
     * continues its count.
     *
     * @return how many names were forgotten
     */
    public int forgetNames(Predicate<? super String> which) {
        int forgotten = 0;
        for (String name : counters.keySet()) {
            if (which.test(name) && counters.remove(name) != null) {
                refilledNames.remove(name);
                names.release();
                forgotten++;
            }
        }
        return forgotten;
    }

    /**
     * Adds {@code n} to the counter of {@code name}.
     *
     * @param name a name, already checked
     * @param n how much, at least 1
     * @return the new value: the caller owns {@code value - n + 1} to {@code value}
     * @throws RedisUnavailableException when Redis does not answer in time
     * @throws StoreUnavailableException when a new window is needed and the database cannot give one
     */
    public long increment(String name, long n) {
        return increment(name, counter(name), n);
    }

    /**
     * {@link #increment} without blocking the caller: completes on Lettuce's event loop, or, when a new window is
     * needed, on a thread of idgen's own that reserves and installs it.
     *
     * @param name a name, already checked
     * @param n how much, at least 1
     * @return completes with the new value, or with what {@link #increment} would throw
     */
    public CompletableFuture<Long> incrementAsync(String name, long n) {
        return incrementAsync(name, counter(name), n);
    }

    private long increment(String name, Counter counter, long n) {
        long windows = counter.windows;
        return increment(name, counter, n, redis.evalList(INCREMENT, counter.keys, amount(n)), windows);
    }

    private static byte[] amount(long n) {
        return n == 1 ? ONE : Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The increment on Lettuce's event loop; only when the answer says a window is needed does the rest (reserve,
     * install, increment again) run, blocking, on the window threads ({@link SerialWindowWork}).
     */
    private CompletableFuture<Long> incrementAsync(String name, Counter counter, long n) {
        long windows = counter.windows;
        return redis.evalListAsync(INCREMENT, counter.keys, amount(n)).thenCompose(answer -> {
            if ((Long) answer.get(0) == 1) {
                return CompletableFuture.completedFuture((Long) answer.get(1));
            }
            return counter.windowWork(() -> increment(name, counter, n, answer, windows));
        });
    }

    /** The most increments one call sends when other callers of this process keep refilling before it gets to. */
    private static final int MAX_INCREMENTS_PER_CALL = 64;

    /**
     * Goes on from the answer of an increment: reserves and installs windows until one has room for {@code n}.
     *
     * @param windows {@link Counter#windows} as read before {@code first} was sent
     */
    private long increment(String name, Counter counter, long n, List<Object> first, long windows) {
        byte[] amount = amount(n);
        List<Object> answer = first;
        long seen = windows;
        int reserved = 0;
        for (int increments = 1; ; increments++) {
            long status = (Long) answer.get(0);
            if (status == 1) {
                return (Long) answer.get(1);
            }
            if (reserved == MAX_WINDOWS_PER_CALL || increments == MAX_INCREMENTS_PER_CALL) {
                throw new StoreUnavailableException("The Redis counter '" + name + "' needed a new window "
                        + reserved + " times in one call (" + increments + " increments); other instances (or"
                        + " other calls) are using them up faster than this one gets to them: raise"
                        + " idgen.redis.window-size");
            }
            if (status == -2 && counter.windows == seen) {
                unverified(name);
            }
            if (refill(
                    name,
                    counter,
                    n,
                    status == -1,
                    status == -2,
                    (byte[]) answer.get(2),
                    ((Long) answer.get(3)) == 1,
                    seen,
                    0)) {
                reserved++;
            }
            seen = counter.windows;
            answer = redis.evalList(INCREMENT, counter.keys, amount);
        }
    }

    private void unverified(String name) {
        failovers.increment();
        LOG.log(
                System.Logger.Level.WARNING,
                "The Redis window of '" + name + "' was installed under another"
                        + " replication id (a failover, or a restart with an older dataset): its counter may lag behind"
                        + " what was handed out; continuing from a fresh window above the database's maximum");
    }

    /**
     * Like {@link #increment}, but first moves the counter of {@code name} to a fresh window reserved now from the
     * database, above everything the database handed out so far, even when its current window is still usable. The
     * rest of the current window is skipped (a gap, never a repeat: the counter only moves forward). The dual store
     * calls it after it took blocks straight from the database, so Redis's next block lies above those.
     *
     * @param name a name, already checked
     * @param n how much, at least 1
     * @return the new value: the caller owns {@code value - n + 1} to {@code value}
     */
    public long incrementInFreshWindow(String name, long n) {
        return incrementInFreshWindow(name, n, 0);
    }

    /**
     * Like {@link #increment}, but the caller's range lies above {@code floor}, the highest value this process already
     * took for the name. A node whose counter is behind that floor while its window passes the replication-id check
     * is a dataset that went on alone: an old master that comes back from a pause or a partition and answers once
     * more before the sentinels make it a replica of the new master (a split brain). Its values were never handed out
     * elsewhere, yet they lie below what this process already served; so the counter moves on to a fresh window
     * reserved above {@code floor} and above everything the database handed out (the stale range is a gap).
     *
     * @param name a name, already checked
     * @param n how much, at least 1
     * @param floor the highest value the caller already took for {@code name}, 0 for none
     * @return the new value: the caller owns {@code value - n + 1} to {@code value}, all above {@code floor}
     * @throws StoreUnavailableException when even a fresh window does not lie above {@code floor} (the node changed
     *         again meanwhile): a later call tries again
     */
    public long incrementAbove(String name, long n, long floor) {
        long last = increment(name, n);
        if (last - n >= floor) {
            return last;
        }
        behindFloor.increment();
        failovers.increment();
        LOG.log(
                System.Logger.Level.WARNING,
                "The Redis counter of '" + name + "' on " + redis.describe() + " answered " + (last - n + 1) + ".."
                        + last + ", not above " + floor + ", which this process already took (an old master answering"
                        + " again after a pause or partition, before it is made a replica?); the range is skipped and"
                        + " the counter moves on to a fresh window");
        last = incrementInFreshWindow(name, n, floor);
        if (last - n >= floor) {
            return last;
        }
        throw new StoreUnavailableException("The Redis counter of '" + name + "' on " + redis.describe()
                + " stayed behind " + floor + ", which this process already took, even after moving to a fresh window"
                + " (the node changed again meanwhile); try again");
    }

    /**
     * {@link #incrementInFreshWindow(String, long)} with the fresh window reserved above {@code floor} too.
     */
    long incrementInFreshWindow(String name, long n, long floor) {
        Counter counter = counter(name);
        for (int attempt = 0; ; attempt++) {
            List<Object> state = redis.evalList(STATE, counter.keys);
            if (refill(name, counter, n, false, true, (byte[]) state.get(0), ((Long) state.get(1)) == 1, -1, floor)) {
                return increment(name, n);
            }
            if (attempt == MAX_WINDOWS_PER_CALL) {
                throw new StoreUnavailableException("The Redis counter '" + name + "' could not install a fresh"
                        + " window in " + MAX_WINDOWS_PER_CALL + " tries: the node changed (a restart or failover)"
                        + " between reading its state and installing each time");
            }
        }
    }

    /**
     * Refuses a Redis whose persistence could bring back older counters after a restart.
     *
     * @throws IllegalStateException naming what to change
     */
    public void verifyPersistence() {
        Map<String, Map<String, String>> byNode;
        try {
            byNode = redis.config("appendonly", "appendfsync", "save");
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    redis.describe() + " does not tell its persistence settings (CONFIG GET"
                            + " failed: " + e.getMessage() + "). idgen must know that Redis never comes back with older"
                            + " counters; check it yourself and set idgen.redis.verify-persistence=false",
                    e);
        }
        RedisPersistenceRule.requireSafe(byNode, redis::describe);
    }

    /**
     * @param failure what {@link #verifyPersistence()} threw
     * @return whether it failed without a definite answer (Redis down, slow, a connect or command timeout on a loaded
     *         machine), rather than because Redis refused {@code CONFIG GET} with an error reply or has an unsafe
     *         configuration; start-up then defers the check to the first window instead of failing
     */
    public static boolean isUnreachable(IllegalStateException failure) {
        Throwable cause = failure.getCause();
        if (cause == null) {
            return false;
        }
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // An error reply to CONFIG GET (renamed or forbidden command) is a definite refusal.
            if (t instanceof RedisCommandExecutionException) {
                return false;
            }
        }
        return true;
    }

    /**
     * Defers {@link #verifyPersistence()} to the first window this process installs, for a Redis that is down at
     * start-up.
     */
    public void verifyPersistenceBeforeFirstWindow() {
        persistenceVerified = false;
    }

    public RedisScriptExecutor redis() {
        return redis;
    }

    /**
     * @return how many windows were reserved from the database
     */
    public long windowsReserved() {
        return windowsReserved.sum();
    }

    /**
     * @return how many times a counter this process had reserved a window for was found missing in Redis (Redis lost its data)
     */
    public long lostCounters() {
        return lostCounters.sum();
    }

    /**
     * @return how many times a window was found installed under another replication id (a failover to a replica, or
     *         a restart with an older dataset), or a counter behind what this process already took
     *         ({@link #behindFloor}), and the counter moved on to a fresh window
     */
    public long failovers() {
        return failovers.sum();
    }

    /**
     * @return how many times {@link #incrementAbove} found a counter behind what this process already took, with a
     *         window that passed the replication-id check (a split brain), and moved it to a fresh window
     */
    public long behindFloor() {
        return behindFloor.sum();
    }

    /**
     * @return how many window installs were refused because the node was not the dataset the caller had read (a
     *         restart or failover in between, or an install that Lettuce resent after a reconnect and that reached a
     *         node that restarted empty or another node); each costs one window (a gap, never a repeat)
     */
    public long refusedInstalls() {
        return refusedInstalls.sum();
    }

    /**
     * @return how many values {@link #next} and {@link #nextAsync} handed out: one per call, counted when its round
     *         trip succeeded
     */
    public long coalescedCalls() {
        return coalescedCalls.sum();
    }

    /**
     * @return how many round trips ({@code INCRBY n}) those calls shared; {@link #coalescedCalls()} over this is how
     *         many callers one round trip served on average
     */
    public long coalescedRoundTrips() {
        return coalescedRoundTrips.sum();
    }

    /**
     * @return how long a {@link #next} caller waits in the queue for a round trip before it gives up: twice the
     *         executor's timeout
     */
    public Duration maxQueueWait() {
        return maxQueueWait;
    }

    public long windowSize() {
        return windowSize;
    }

    /**
     * Reserves a window from the database and installs it on the dataset described by {@code replid} and
     * {@code sawWindow} (what the caller's increment, or a state read, saw there).
     *
     * @return false when the install was refused: the node is not the dataset the caller read (a restart, a failover,
     *         or a replayed install reaching another node); the window is never installed again
     */
    private boolean refill(
            String name,
            Counter counter,
            long n,
            boolean missing,
            boolean force,
            byte[] replid,
            boolean sawWindow,
            long seenWindows,
            long floor) {
        // One refill at a time per name in this process; the install script settles races between processes. A lock,
        // not a monitor: a virtual thread waiting on the database inside it stays unpinned on JDK 21 to 23 too.
        counter.refillLock.lock();
        try {
            if (seenWindows >= 0 && counter.windows != seenWindows) {
                // Another call of this process installed a window after the answer this refill follows was read:
                // the caller increments again, in that window, rather than reserving one more.
                return false;
            }
            if (!persistenceVerified) {
                try {
                    verifyPersistence();
                } catch (IllegalStateException e) {
                    if (isUnreachable(e)) {
                        throw e.getCause() instanceof RedisUnavailableException unavailable
                                ? unavailable
                                : new RedisUnavailableException(e.getMessage(), e.getCause());
                    }
                    throw new IdGenerationException(e.getMessage(), e);
                }
                persistenceVerified = true;
            }
            Segment window = floor > 0
                    ? windows.allocateAbove(name, Math.max(windowSize, n), floor)
                    : windows.allocate(name, Math.max(windowSize, n));
            if (window.last() > MAX_VALUE) {
                throw new IdGenerationException(
                        "The counter '" + name + "' reached 2^52: Redis scripts cannot count" + " past it exactly");
            }
            windowsReserved.increment();
            long installed = redis.evalLong(
                    INSTALL,
                    counter.keys,
                    Long.toString(window.first() - 1).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(window.last()).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(n).getBytes(StandardCharsets.US_ASCII),
                    (force ? "1" : "0").getBytes(StandardCharsets.US_ASCII),
                    replid,
                    sawWindow ? ONE : ZERO);
            if (installed == -1) {
                refusedInstalls.increment();
                LOG.log(
                        System.Logger.Level.WARNING,
                        "The Redis window " + window.first() + ".." + window.last()
                                + " of '" + name + "' was not installed: " + redis.describe()
                                + " is no longer the dataset"
                                + " its state was read from (a restart, a failover, or a resent install reaching another"
                                + " node); the window is skipped and the next one reserved afresh");
                return false;
            }
            counter.windows++;
            boolean hadWindow = !refilledNames.add(name);
            if (missing && installed == 1 && hadWindow) {
                lostCounters.increment();
                LOG.log(
                        System.Logger.Level.WARNING,
                        "The Redis counter '" + name + "' was missing (Redis lost its"
                                + " data?); continuing above everything handed out, from " + window.first());
            }
            return true;
        } finally {
            counter.refillLock.unlock();
        }
    }

    /**
     * @return how many names this counter serves
     */
    public int nameCount() {
        return names.count();
    }

    private Counter counter(String name) {
        Counter counter = counters.get(name);
        return counter != null
                ? counter
                : counters.computeIfAbsent(name, key -> {
                    names.admit(key);
                    return new Counter(key, prefix + "{" + key + "}");
                });
    }
}
