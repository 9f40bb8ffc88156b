package dev.idgen.core.segment;

import dev.idgen.core.AsyncCalls;
import dev.idgen.core.DecodedId;
import dev.idgen.core.ForgetsNames;
import dev.idgen.core.IdArguments;
import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.NameLimit;
import dev.idgen.core.NameLimitExceededException;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.SequenceDecodedId;
import dev.idgen.core.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * {@link IdService} over segments (号段): blocks of IDs leased from a {@link SegmentStore} and served from memory,
 * blocks loaded ahead in the background before the current one runs out, as many as the observed rate and store
 * latency need (see {@code SegmentBuffer}).
 *
 * <p>With the default {@link SegmentSettings#stripeSize()} of 0, within one instance a name's IDs strictly increase:
 * every caller takes from one shared cursor. With striping on, each thread claims a run of IDs and serves it alone;
 * throughput then scales with threads, IDs increase per thread only, and a thread's unserved run is a gap. Across instances they only trend upward: each instance serves
 * its own block, so an instance can issue 5,001 while another still issues 3,999. IDs left in the buffers at shutdown
 * or on a crash are gaps and are never reused, because the store never hands a block out twice.
 *
 * <pre>{@code
 * try (SegmentIdService ids = SegmentIdService.builder(store).build()) {
 *     long id = ids.nextId("orders");
 * }
 * }</pre>
 */
public final class SegmentIdService implements IdService, ForgetsNames, AutoCloseable {

    /** The strategy name. */
    public static final String STRATEGY = "segment";

    /** How many names a service serves unless told otherwise. */
    public static final int DEFAULT_MAX_NAMES = 1000;

    private final SegmentStore store;
    private final SegmentStartFloor startFloor;
    private final SegmentSettings settings;
    private final TimeSource timeSource;
    private final ScheduledExecutorService loader;
    private final boolean ownsLoader;
    private final boolean striped;
    private final ConcurrentHashMap<String, SegmentBuffer> buffers = new ConcurrentHashMap<>();
    /** The same buffers, for the lookup on every call. */
    private final NameTable<SegmentBuffer> table = new NameTable<>();

    private final NameLimit names;
    private final List<Consumer<String>> nameListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> forgottenListeners = new CopyOnWriteArrayList<>();
    /** IDs served by names since forgotten, so that {@link #generatedCount()} never goes down. */
    private final AtomicLong servedByForgotten = new AtomicLong();

    private SegmentIdService(Builder builder) {
        this.store = builder.store;
        this.startFloor = builder.startFloor;
        this.settings = builder.settings;
        this.timeSource = builder.timeSource;
        this.striped = settings.stripeSize() > 0;
        this.names = new NameLimit(builder.maxNames);
        this.ownsLoader = builder.loader == null;
        this.loader = ownsLoader ? defaultLoader() : builder.loader;
    }

    /**
     * @param store where segments come from
     * @return a builder with {@link SegmentSettings#DEFAULTS}, the system clock and a loader thread of its own
     */
    public static Builder builder(SegmentStore store) {
        return new Builder(store);
    }

    @Override
    public String strategy() {
        return STRATEGY;
    }

    /**
     * {@inheritDoc}
     *
     * @throws NameLimitExceededException when {@code name} is new and the service already serves
     *         {@link Builder#maxNames(int) maxNames} names
     */
    @Override
    public long nextId(String name) {
        SegmentBuffer buffer = buffer(name);
        return striped ? buffer.nextIdStriped() : buffer.nextId();
    }

    /**
     * The named sequence as a handle, for callers that draw from one name in a hot loop: it is bound to the name's
     * buffers and skips the name lookup that {@link #nextId(String)} makes on every call.
     *
     * @param name the sequence name
     * @return the name's sequence; it throws as {@link #nextId(String)} does
     */
    @Override
    public IdSequence sequence(String name) {
        SegmentBuffer buffer = buffer(name);
        return new IdSequence() {

            @Override
            public String name() {
                return name;
            }

            @Override
            public String generator() {
                return RoutingIdService.DEFAULT_GENERATOR;
            }

            @Override
            public String strategy() {
                return STRATEGY;
            }

            @Override
            public long nextId() {
                return striped ? buffer.nextIdStriped() : buffer.nextId();
            }

            @Override
            public long[] nextIds(int count) {
                long[] ids = new long[IdArguments.checkCount(count)];
                buffer.nextIds(ids);
                return ids;
            }

            @Override
            public DecodedId decode(long id) {
                return SegmentIdService.this.decode(id);
            }
        };
    }

    @Override
    public long[] nextIds(String name, int count) {
        long[] ids = new long[IdArguments.checkCount(count)];
        SegmentBuffer buffer = buffer(name);
        buffer.nextIds(ids);
        return ids;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Completes at once on the calling thread while the name's buffer has IDs in memory (and switches to a ready
     * block itself when the lock is free); only a call that would wait for a load (a name's first, or a buffer the
     * load did not keep up with) runs on {@code blocking}.
     */
    @Override
    public CompletableFuture<Long> nextIdAsync(String name, Executor blocking) {
        Objects.requireNonNull(blocking, "blocking");
        SegmentBuffer buffer = buffer(name);
        long id;
        try {
            id = striped ? buffer.tryNextIdStriped() : buffer.tryNextId();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (id == SegmentBuffer.WOULD_WAIT) {
            return AsyncCalls.offload(() -> striped ? buffer.nextIdStriped() : buffer.nextId(), blocking, STRATEGY);
        }
        return CompletableFuture.completedFuture(id);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Takes on the calling thread as many IDs as the buffer has in memory; the rest, if any, on {@code blocking},
     * after them in order.
     */
    @Override
    public CompletableFuture<long[]> nextIdsAsync(String name, int count, Executor blocking) {
        long[] ids = new long[IdArguments.checkCount(count)];
        Objects.requireNonNull(blocking, "blocking");
        SegmentBuffer buffer = buffer(name);
        int filled;
        try {
            filled = buffer.tryNextIds(ids);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (filled == count) {
            return CompletableFuture.completedFuture(ids);
        }
        return AsyncCalls.offload(
                () -> {
                    buffer.nextIds(ids, filled);
                    return ids;
                },
                blocking,
                STRATEGY);
    }

    @Override
    public SequenceDecodedId decode(long id) {
        return new SequenceDecodedId(STRATEGY, IdArguments.checkId(id));
    }

    /**
     * @return a snapshot of every name's buffers
     */
    public List<SegmentBufferStats> stats() {
        List<SegmentBufferStats> stats = new ArrayList<>(buffers.size());
        buffers.values().forEach(buffer -> stats.add(buffer.stats()));
        return stats;
    }

    /**
     * @param name a name this service has served
     * @return a snapshot of its buffers, or empty when the name has not been used
     */
    public Optional<SegmentBufferStats> stats(String name) {
        SegmentBuffer buffer = name == null ? null : buffers.get(name);
        return buffer == null ? Optional.empty() : Optional.of(buffer.stats());
    }

    /**
     * Calls {@code listener} with every name served so far and, from now on, with each new name as it is first used
     * (for per-name meters).
     *
     * @param listener called with the name; it must not call back into this service's hot path
     */
    public void onNewName(Consumer<String> listener) {
        nameListeners.add(listener);
        buffers.keySet().forEach(listener);
    }

    /**
     * Calls {@code listener} with each name as it is forgotten ({@link #forgetNames}), after its buffers were dropped.
     *
     * @param listener called with the name; it must not call back into this service's hot path
     */
    public void onForgottenName(Consumer<String> listener) {
        forgottenListeners.add(listener);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Drops each name's buffers: the IDs they hold and have not issued (the rest of the current segment and the
     * blocks loaded ahead) are a gap. A later call for the name leases a new segment, past everything the store handed
     * out before, so it never repeats an ID; a call that already holds the dropped buffers completes from them.
     */
    @Override
    public int forgetNames(Predicate<? super String> which) {
        int forgotten = 0;
        for (Map.Entry<String, SegmentBuffer> entry : buffers.entrySet()) {
            String name = entry.getKey();
            if (!which.test(name)) {
                continue;
            }
            SegmentBuffer buffer = entry.getValue();
            synchronized (table) {
                if (!buffers.remove(name, buffer)) {
                    continue;
                }
                table.remove(name);
            }
            names.release();
            servedByForgotten.addAndGet(buffer.served());
            forgotten++;
            forgottenListeners.forEach(listener -> listener.accept(name));
        }
        return forgotten;
    }

    /**
     * @return how many IDs this service has handed out, over all names (forgotten ones included)
     */
    public long generatedCount() {
        long total = servedByForgotten.get();
        for (SegmentBuffer buffer : buffers.values()) {
            total += buffer.served();
        }
        return total;
    }

    /**
     * @return how many names this service serves
     */
    public int nameCount() {
        return names.count();
    }

    /**
     * @return how many names this service may serve
     */
    public int maxNames() {
        return names.max();
    }

    public SegmentSettings settings() {
        return settings;
    }

    public SegmentStore store() {
        return store;
    }

    /**
     * Stops the loader it created. IDs left in the buffers become gaps.
     */
    @Override
    public void close() {
        if (ownsLoader) {
            loader.shutdownNow();
        }
    }

    private SegmentBuffer buffer(String name) {
        // Every name in the table was checked on the way in, so a hit needs no check.
        SegmentBuffer buffer = name == null ? null : table.get(name);
        if (buffer != null) {
            return buffer;
        }
        buffer = name == null ? null : buffers.get(name);
        if (buffer != null) {
            // Created by another thread, which has not put it in the table yet.
            publish(name, buffer);
            return buffer;
        }
        IdArguments.checkName(name);
        boolean[] created = new boolean[1];
        SegmentBuffer fresh = buffers.computeIfAbsent(name, key -> {
            names.admit(key);
            created[0] = true;
            return new SegmentBuffer(key, store, startFloor, settings, loader, timeSource);
        });
        publish(name, fresh);
        if (created[0]) {
            nameListeners.forEach(listener -> listener.accept(name));
        }
        return fresh;
    }

    /**
     * Puts {@code buffer} in the lookup table unless the name was forgotten meanwhile: under the table's monitor, which
     * {@link #forgetNames} holds while it removes a name from both.
     */
    private void publish(String name, SegmentBuffer buffer) {
        synchronized (table) {
            if (buffers.get(name) == buffer) {
                table.putIfAbsent(name, buffer);
            }
        }
    }

    private static ScheduledExecutorService defaultLoader() {
        AtomicInteger threads = new AtomicInteger();
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2, task -> {
            Thread thread = new Thread(task, "idgen-segment-loader-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        // A caller that starts a load (a reactive subscriber among them) must not be the one that creates a loader
        // thread: that takes the pool's main lock, which a caller on an event loop may have to wait for.
        executor.prestartAllCoreThreads();
        return executor;
    }

    /**
     * @return {@code segments from } and the store, for example
     *         {@code segments from table idgen_segment on MariaDB jdbc:mariadb://127.0.0.1:3306/test}
     */
    @Override
    public String toString() {
        return "segments from " + store;
    }

    /**
     * Builds a {@link SegmentIdService}.
     */
    public static final class Builder {

        private final SegmentStore store;
        private SegmentSettings settings = SegmentSettings.DEFAULTS;
        private TimeSource timeSource = TimeSource.system();
        private ScheduledExecutorService loader;
        private int maxNames = DEFAULT_MAX_NAMES;
        private SegmentStartFloor startFloor = SegmentStartFloor.NONE;

        private Builder(SegmentStore store) {
            this.store = store;
        }

        public Builder settings(SegmentSettings settings) {
            this.settings = settings;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        /**
         * @param loader runs segment loads; the caller shuts it down. By default the service starts its own.
         * @return this builder
         */
        public Builder loader(ScheduledExecutorService loader) {
            this.loader = loader;
            return this;
        }

        /**
         * @param maxNames how many names the service may serve, from 1 to 1,000,000; a new name past it is refused
         *        with {@link NameLimitExceededException}. Each name holds its buffers in memory.
         * @return this builder
         */
        public Builder maxNames(int maxNames) {
            this.maxNames = maxNames;
            return this;
        }

        /**
         * @param startFloor what each name's blocks must lie above besides what the store says (IDs handed out by a
         *        previous store, or an auto-increment column's), read on the name's first load; by default none
         * @return this builder
         */
        public Builder startFloor(SegmentStartFloor startFloor) {
            this.startFloor = startFloor;
            return this;
        }

        public SegmentIdService build() {
            NameLimit.check(maxNames);
            if (startFloor == null) {
                throw new InvalidArgumentException("startFloor", null, "startFloor must be set");
            }
            if (store == null) {
                throw new InvalidArgumentException("store", null, "store must be set");
            }
            if (settings == null) {
                throw new InvalidArgumentException("settings", null, "settings must be set");
            }
            if (timeSource == null) {
                throw new InvalidArgumentException("timeSource", null, "timeSource must be set");
            }
            return new SegmentIdService(this);
        }
    }
}
