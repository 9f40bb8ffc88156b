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
 * <p>Each name has a counter key {@code prefix{name}} and a window key {@code prefix{name}:window}. Redis only counts
 * within a <em>window</em> {@code (start, limit]} that was first reserved in a durable {@link SegmentStore} (the
 * database). An ID is one plain {@code INCRBY} on the counter; the caller checks the answer against the window it
 * knows (reading the window key again when the answer is past it), and when the window is used up or a key is
 * missing it reserves the next window from the database and installs it with a script. The counter holds the value
 * plus {@link #OFFSET}, so a counter that Redis lost and {@code INCRBY} created afresh answers below the offset and is
 * recognised. So:
 * <ul>
 * <li>every value handed out lies in a window the database reserved, windows never overlap, and the counter never
 * moves backwards (an install sets it to the new window's start or leaves it where it is, if that is higher), so
 * {@code INCRBY} never repeats;</li>
 * <li>windows are installed in increasing order (never over a later or a still usable one), so a later window lies
 * wholly above an earlier one: an answer inside a window a caller knows was counted while that window was in place;</li>
 * <li>a Redis that restarts empty has no keys: the next call reserves a fresh window above everything the database
 * ever gave out, rather than counting again from zero.</li>
 * </ul>
 * Assumption: Redis comes back either with every acknowledged write (AOF with {@code appendfsync always}) or with
 * nothing. A Redis that comes back with an older snapshot (RDB, {@code appendfsync everysec}, a failover to a lagging
 * replica) can repeat values of its current window; {@link #verifyPersistence()} refuses such a configuration.
 *
 * <p>The database is written once per window, not per ID; values are kept below 2^52 so that counter plus offset
 * stays exact in the install script's doubles.
 */
public final class RedisWindowedCounter {

    /** Added to every counter in Redis, so that one re-created from nothing is recognised by its small value. */
    public static final long OFFSET = 1L << 52;

    /** The largest value handed out: value plus offset stays below 2^53, exact in Lua's doubles. */
    public static final long MAX_VALUE = OFFSET - 1;

    private static final System.Logger LOG = System.getLogger(RedisWindowedCounter.class.getName());

    private static final int MAX_WINDOWS_PER_CALL = 4;

    // ARGV: start, limit, n, force (1: replace a window that is still usable, as long as the new one is later).
    // 1: installed; 0: a usable (unless forced) or later window is already in place (the caller's window goes unused).
    static final RedisScript INSTALL = RedisScript.of("idgen-install-window", """
            local offset = 4503599627370496
            local window = redis.call('GET', KEYS[2])
            local current = tonumber(redis.call('GET', KEYS[1]) or '0')
            if window then
              local limit = tonumber(string.match(window, ':(%d+)$'))
              if limit >= tonumber(ARGV[2]) then return 0 end
              if ARGV[4] ~= '1' and current >= offset and current - offset + tonumber(ARGV[3]) <= limit then
                return 0
              end
            end
            local base = tonumber(ARGV[1]) + offset
            if current > base then base = current end
            redis.call('SET', KEYS[1], string.format('%.0f', base))
            redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2])
            return 1
            """);

    /** A name's keys and the window this process last saw for it. */
    private static final class Counter {
        final byte[][] keys;
        volatile Window window;

        Counter(String counterKey) {
            this.keys = new byte[][] { counterKey.getBytes(StandardCharsets.UTF_8),
                    (counterKey + ":window").getBytes(StandardCharsets.UTF_8) };
        }
    }

    private record Window(long start, long limit) {

        boolean holds(long first, long last) {
            return first > start && last <= limit;
        }
    }

    private final RedisScriptExecutor redis;
    private final SegmentStore windows;
    private final String prefix;
    private final long windowSize;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final dev.idgen.core.NameLimit names;
    private volatile boolean persistenceVerified = true;
    private final java.util.Set<String> refilledNames = ConcurrentHashMap.newKeySet();
    private final LongAdder windowsReserved = new LongAdder();
    private final LongAdder lostCounters = new LongAdder();

    /**
     * @param redis runs the commands and scripts
     * @param windows the durable store windows are reserved from
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     * @param windowSize how many values one database reservation covers, from 1 to 2^40
     */
    public RedisWindowedCounter(RedisScriptExecutor redis, SegmentStore windows, String prefix, long windowSize) {
        this(redis, windows, prefix, windowSize, dev.idgen.core.segment.SegmentIdService.DEFAULT_MAX_NAMES);
    }

    /**
     * @param redis runs the commands and scripts
     * @param windows the durable store windows are reserved from
     * @param prefix the key prefix, see {@link RedisKeys#checkPrefix}
     * @param windowSize how many values one database reservation covers, from 1 to 2^40
     * @param maxNames how many names the counter serves, from 1 to 1,000,000; each keeps its window in memory, and a
     *        new name past the limit is refused with {@link dev.idgen.core.NameLimitExceededException}
     */
    public RedisWindowedCounter(RedisScriptExecutor redis, SegmentStore windows, String prefix, long windowSize,
            int maxNames) {
        this.names = new dev.idgen.core.NameLimit(maxNames);
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
        Counter counter = counter(name);
        for (int attempt = 0;; attempt++) {
            long answer = redis.incrBy(counter.keys[0], n);
            boolean missing = answer < OFFSET;
            if (!missing) {
                long last = answer - OFFSET;
                Window known = counter.window;
                if (known != null && known.holds(last - n + 1, last)) {
                    return last;
                }
                // Past the window this process knew: another process may have installed a later one.
                Window current = readWindow(counter);
                if (current != null && current.holds(last - n + 1, last)) {
                    return last;
                }
                missing = current == null;
            }
            if (attempt == MAX_WINDOWS_PER_CALL) {
                throw new StoreUnavailableException("The Redis counter '" + name + "' needed a new window "
                        + MAX_WINDOWS_PER_CALL + " times in one call; other instances are using them up faster than"
                        + " this one gets to them: raise idgen.redis.window-size");
            }
            refill(name, counter, n, missing, false);
        }
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
        Counter counter = counter(name);
        refill(name, counter, n, false, true);
        return increment(name, n);
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
            if (t instanceof io.lettuce.core.RedisCommandExecutionException) {
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

    public long windowSize() {
        return windowSize;
    }

    private void refill(String name, Counter counter, long n, boolean missing, boolean force) {
        // One refill at a time per name in this process; the install script settles races between processes.
        synchronized (counter) {
            if (!persistenceVerified) {
                try {
                    verifyPersistence();
                } catch (IllegalStateException e) {
                    if (isUnreachable(e)) {
                        throw e.getCause() instanceof RedisUnavailableException unavailable ? unavailable
                                : new RedisUnavailableException(e.getMessage(), e.getCause());
                    }
                    throw new IdGenerationException(e.getMessage(), e);
                }
                persistenceVerified = true;
            }
            Segment window = windows.allocate(name, Math.max(windowSize, n));
            if (window.last() > MAX_VALUE) {
                throw new IdGenerationException("The counter '" + name + "' reached 2^52: Redis scripts cannot count"
                        + " past it exactly");
            }
            windowsReserved.increment();
            long installed = redis.evalLong(INSTALL, counter.keys,
                    Long.toString(window.first() - 1).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(window.last()).getBytes(StandardCharsets.US_ASCII),
                    Long.toString(n).getBytes(StandardCharsets.US_ASCII),
                    (force ? "1" : "0").getBytes(StandardCharsets.US_ASCII));
            if (installed == 1) {
                counter.window = new Window(window.first() - 1, window.last());
            }
            boolean hadWindow = !refilledNames.add(name);
            if (missing && installed == 1 && hadWindow) {
                lostCounters.increment();
                LOG.log(System.Logger.Level.WARNING, "The Redis counter '" + name + "' was missing (Redis lost its"
                        + " data?); continuing above everything handed out, from " + window.first());
            }
        }
    }

    private Window readWindow(Counter counter) {
        byte[] value = redis.get(counter.keys[1]);
        if (value == null) {
            return null;
        }
        String text = new String(value, StandardCharsets.US_ASCII);
        int colon = text.indexOf(':');
        Window window = new Window(Long.parseLong(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
        counter.window = window;
        return window;
    }

    /**
     * @return how many names this counter serves
     */
    public int nameCount() {
        return names.count();
    }

    private Counter counter(String name) {
        Counter counter = counters.get(name);
        return counter != null ? counter : counters.computeIfAbsent(name, key -> {
            names.admit(key);
            return new Counter(prefix + "{" + key + "}");
        });
    }
}
