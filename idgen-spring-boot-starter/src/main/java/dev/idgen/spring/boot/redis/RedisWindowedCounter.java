package dev.idgen.spring.boot.redis;

import dev.idgen.core.IdGenerationException;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-name counters in Redis that survive Redis losing its data without ever repeating a value.
 *
 * <p>Each name has a counter key {@code prefix{name}} and a limit key {@code prefix{name}:limit}. Redis only counts
 * within a <em>window</em> {@code (start, limit]} that was first reserved in a durable {@link SegmentStore} (the
 * database); one script does {@code INCRBY} and refuses when the window is used up or when either key is missing.
 * A refused call reserves the next window from the database and installs it. So:
 * <ul>
 * <li>every value handed out lies in a window the database reserved, windows never overlap, and within one window
 * {@code INCRBY} never repeats;</li>
 * <li>a Redis that restarts empty has no keys: the next call reserves a fresh window above everything the database
 * ever gave out, rather than counting again from zero;</li>
 * <li>a window is only installed over a used-up or missing one, and never over a later one.</li>
 * </ul>
 * Assumption: Redis comes back either with every acknowledged write (AOF with {@code appendfsync always}) or with
 * nothing. A Redis that comes back with an older snapshot (RDB, {@code appendfsync everysec}, a failover to a lagging
 * replica) can repeat values of its current window; {@link #verifyPersistence()} refuses such a configuration.
 *
 * <p>The database is written once per window, not per ID; values above {@code 2^53 - 1} are refused because Redis
 * scripts count in doubles.
 */
public final class RedisWindowedCounter {

    /** Lua counts in doubles: past this, comparisons in the scripts would be inexact. */
    public static final long MAX_VALUE = (1L << 53) - 1;

    private static final System.Logger LOG = System.getLogger(RedisWindowedCounter.class.getName());

    private static final byte[] ONE = { '1' };

    private static final int MAX_WINDOWS_PER_CALL = 4;

    // -1: a key is missing (new name, or Redis lost it); -2: the window cannot hold n more.
    static final RedisScript INCREMENT = RedisScript.of("idgen-increment", """
            local limit = redis.call('GET', KEYS[2])
            if not limit or redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
            local value = redis.call('INCRBY', KEYS[1], ARGV[1])
            if value > tonumber(limit) then return -2 end
            return value
            """);

    // 1: installed; 0: a usable or later window is already in place (the caller's window goes unused).
    static final RedisScript INSTALL = RedisScript.of("idgen-install-window", """
            local limit = redis.call('GET', KEYS[2])
            local value = redis.call('GET', KEYS[1])
            if limit and value and tonumber(value) + tonumber(ARGV[3]) <= tonumber(limit) then return 0 end
            if limit and tonumber(limit) >= tonumber(ARGV[2]) then return 0 end
            redis.call('SET', KEYS[1], ARGV[1])
            redis.call('SET', KEYS[2], ARGV[2])
            return 1
            """);

    private final RedisScriptExecutor redis;
    private final SegmentStore windows;
    private final String prefix;
    private final long windowSize;
    private final Map<String, byte[][]> keys = new ConcurrentHashMap<>();
    private final Map<String, Object> refillLocks = new ConcurrentHashMap<>();
    private volatile boolean persistenceVerified = true;
    private final java.util.Set<String> refilledNames = ConcurrentHashMap.newKeySet();
    private final LongAdder windowsReserved = new LongAdder();
    private final LongAdder lostCounters = new LongAdder();

    /**
     * @param redis runs the scripts
     * @param windows the durable store windows are reserved from
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     * @param windowSize how many values one database reservation covers, from 1 to 2^40
     */
    public RedisWindowedCounter(RedisScriptExecutor redis, SegmentStore windows, String prefix, long windowSize) {
        if (windowSize < 1 || windowSize > (1L << 40)) {
            throw new InvalidArgumentException("windowSize", windowSize,
                    "windowSize must be between 1 and 2^40, but was " + windowSize);
        }
        this.redis = redis;
        this.windows = windows;
        this.prefix = RedisKeys.checkPrefix(prefix);
        this.windowSize = windowSize;
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
        byte[][] nameKeys = keys(name);
        byte[] amount = n == 1 ? ONE : Long.toString(n).getBytes(StandardCharsets.US_ASCII);
        for (int attempt = 0;; attempt++) {
            long value = redis.evalLong(INCREMENT, nameKeys, amount);
            if (value > 0) {
                return value;
            }
            if (attempt == MAX_WINDOWS_PER_CALL) {
                throw new StoreUnavailableException("The Redis counter '" + name + "' needed a new window "
                        + MAX_WINDOWS_PER_CALL + " times in one call; other instances are using them up faster than"
                        + " this one gets to them: raise idgen.redis.window-size");
            }
            refill(name, nameKeys, n, amount, value == -1);
        }
    }

    /**
     * Refuses a Redis whose persistence could bring back older counters after a restart.
     *
     * @throws IllegalStateException naming what to change
     */
    public void verifyPersistence() {
        Map<String, String> config = new java.util.HashMap<>();
        try {
            config.putAll(redis.config("appendonly"));
            config.putAll(redis.config("appendfsync"));
            config.putAll(redis.config("save"));
        } catch (RuntimeException e) {
            throw new IllegalStateException(redis.describe() + " does not tell its persistence settings (CONFIG GET"
                    + " failed: " + e.getMessage() + "). idgen must know that Redis never comes back with older"
                    + " counters; check it yourself and set idgen.redis.verify-persistence=false", e);
        }
        boolean aof = "yes".equalsIgnoreCase(config.get("appendonly"));
        String save = config.getOrDefault("save", "").trim();
        boolean safe = aof ? "always".equalsIgnoreCase(config.get("appendfsync")) : save.isEmpty();
        if (!safe) {
            throw new IllegalStateException(redis.describe() + " could come back after a restart with counters older"
                    + " than the IDs it already handed out (appendonly=" + config.get("appendonly") + ", appendfsync="
                    + config.get("appendfsync") + ", save='" + save + "'), and idgen would repeat them. Run it"
                    + " without persistence (save \"\", appendonly no: idgen then continues from the database) or"
                    + " with appendonly yes and appendfsync always; or, if you accept the risk, set"
                    + " idgen.redis.verify-persistence=false");
        }
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

    public long windowSize() {
        return windowSize;
    }

    private void refill(String name, byte[][] nameKeys, long n, byte[] amount, boolean missing) {
        // One refill at a time per name in this process; the install script settles races between processes.
        synchronized (refillLocks.computeIfAbsent(name, key -> new Object())) {
            if (!persistenceVerified) {
                try {
                    verifyPersistence();
                } catch (IllegalStateException e) {
                    if (e.getCause() instanceof RedisUnavailableException unavailable) {
                        throw unavailable;
                    }
                    throw new IdGenerationException(e.getMessage(), e);
                }
                persistenceVerified = true;
            }
            Segment window = windows.allocate(name, Math.max(windowSize, n));
            if (window.last() > MAX_VALUE) {
                throw new IdGenerationException("The counter '" + name + "' reached 2^53: Redis scripts cannot count"
                        + " past it exactly");
            }
            windowsReserved.increment();
            long installed = redis.evalLong(INSTALL, nameKeys,
                    Long.toString(window.first() - 1).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(window.last()).getBytes(StandardCharsets.US_ASCII), amount);
            boolean hadWindow = !refilledNames.add(name);
            if (missing && installed == 1 && hadWindow) {
                lostCounters.increment();
                LOG.log(System.Logger.Level.WARNING, "The Redis counter '" + name + "' was missing (Redis lost its"
                        + " data?); continuing above everything handed out, from " + window.first());
            }
        }
    }

    private byte[][] keys(String name) {
        byte[][] cachedKeys = keys.get(name);
        if (cachedKeys != null) {
            return cachedKeys;
        }
        String counter = prefix + "{" + name + "}";
        return keys.computeIfAbsent(name, key -> new byte[][] { counter.getBytes(StandardCharsets.UTF_8),
                (counter + ":limit").getBytes(StandardCharsets.UTF_8) });
    }
}
