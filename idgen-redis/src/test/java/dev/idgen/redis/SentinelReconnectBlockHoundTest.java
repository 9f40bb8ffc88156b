package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.segment.InMemorySegmentStore;
import dev.idgen.test.services.OwnRedisNode;
import dev.idgen.test.services.OwnRedisSentinelGroup;
import io.lettuce.core.RedisURI;
import io.lettuce.core.internal.HostAndPort;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.MappingSocketAddressResolver;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.blockhound.BlockHound;

/**
 * No thread of Lettuce's event loop waits on a lock that another thread holds across a blocking call, through a
 * Sentinel failover under reactive load while new connections are slow (issue 37). The monitor of the executor's
 * {@link ReconnectingConnection} guards its connection state, and an event-loop thread takes it whenever a round trip
 * completes with callers queued and no connection cached ({@code AsyncRangeCoalescer.sendIfIdle -> evalListAsync ->
 * connectAsync}). Lettuce's {@code close()} waits for the channel's event loop, so a close under that monitor can
 * deadlock the two threads.
 *
 * <p>The test's own proxies sit in front of the data nodes (the client reaches them through its address resolver,
 * while the sentinels name the nodes themselves) and, during the failover, hold each new connection for half to
 * three times {@code idgen.redis.timeout}: connection attempts outlive their callers' timeouts, are given up and
 * complete afterwards, and the executor replaces connections while its event loop serves the callers.
 *
 * <p>Watched three ways: BlockHound (installed once in this JVM, which runs this class alone) reports any blocking call
 * on an event-loop thread and any blocking call made while holding the connection's monitor; a sampler reports an
 * event-loop thread found blocked on that monitor while its owner waits; and after the failover the counter must
 * answer again within a deadline (a deadlocked event loop never would).
 */
@Tag("blockhound")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SentinelReconnectBlockHoundTest {

    /** The executor's timeout ({@code idgen.redis.timeout}). */
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    /** How long the group may take to fail over and the counter to answer again: generous, for a loaded machine. */
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** How many more times the executor is told that the sentinels switched, while connects are slow. */
    private static final int SWITCHES = 20;

    /**
     * The executor's connection, whose monitor no thread may hold across a blocking call; null outside the test.
     */
    private static volatile Object watchedMonitor;

    /**
     * How long an event-loop thread may stay blocked on the connection's monitor before the test calls it deadlocked.
     */
    private static final Duration STUCK = Duration.ofSeconds(3);

    /** The sampler of the running test, for {@link #await}. */
    private static volatile Sampler sampling;

    /** What BlockHound and the sampler saw: one line and a stack each. */
    private static final List<String> SEEN = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void installBlockHound() {
        BlockHound.builder()
                // Netty's integration (non-blocking FastThreadLocalThreads, allowances for Netty's own parking).
                .loadIntegrations()
                // As in the starter's BlockHound tests: Lettuce's writer lock is held for microseconds, and JDK 21+
                // arms CompletableFuture.orTimeout on a scheduler whose run-state lock spins for a moment.
                .allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
                .allowBlockingCallsInside("java.util.concurrent.ForkJoinPool", "scheduleDelayedTask")
                // JDK 17 arms and cancels orTimeout on a ScheduledThreadPoolExecutor; Reactor's integration allows its
                // queue's offer and take, and a cancel (a command answered before its timeout) removes the task under
                // the
                // same lock, held for the moment a heap operation takes (JDK 17's CI pass caught it on an event loop).
                .allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove")
                // Netty's adaptive allocator takes a magazine's lock for a moment when it grows its magazines.
                .allowBlockingCallsInside(
                        "io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines")
                .nonBlockingThreadPredicate(current -> current.or(SentinelReconnectBlockHoundTest::isEventLoop)
                        .or(thread -> thread == Thread.currentThread() && holdsWatchedMonitor()))
                // Whether a thread holds the monitor changes from call to call: ask on every blocking call.
                .addDynamicThreadPredicate(thread -> true)
                // Recorded, not thrown: an error thrown into Lettuce's close or its event loop would hide the wait.
                .blockingMethodCallback(method -> {
                    Thread thread = Thread.currentThread();
                    SEEN.add("blocking call " + method + " on " + thread.getName()
                            + (holdsWatchedMonitor() ? " while holding the ReconnectingConnection's monitor" : "")
                            + stack(thread.getStackTrace()));
                })
                .install();
    }

    private static boolean isEventLoop(Thread thread) {
        String name = thread.getName();
        return name.startsWith("lettuce-nioEventLoop-") || name.startsWith("lettuce-epollEventLoop-");
    }

    private static boolean holdsWatchedMonitor() {
        Object monitor = watchedMonitor;
        return monitor != null && Thread.holdsLock(monitor);
    }

    private static String stack(StackTraceElement[] frames) {
        return Arrays.stream(frames).limit(40).map(frame -> "\n\tat " + frame).collect(Collectors.joining());
    }

    @Test
    void noEventLoopThreadWaitsOnTheExecutorsMonitorThroughAFailoverWithSlowConnects() throws Exception {
        long testStarted = System.nanoTime();
        List<AutoCloseable> toClose = new ArrayList<>();
        Sampler sampler = null;
        try {
            OwnRedisSentinelGroup group = OwnRedisSentinelGroup.start();
            toClose.add(group);
            Map<Integer, DelayingProxy> proxies = new ConcurrentHashMap<>();
            for (OwnRedisNode node : group.nodes()) {
                DelayingProxy proxy = new DelayingProxy(node.port());
                toClose.add(proxy);
                proxies.put(node.port(), proxy);
            }
            // The sentinels name the nodes; the client reaches them through the proxies (sentinels directly).
            // Lettuce's fewest event loops, two (a 2-core machine's default): a close that waits for a channel's
            // event loop under the connection's monitor meets the event loop waiting for that monitor one time in two.
            ClientResources resources = DefaultClientResources.builder()
                    .ioThreadPoolSize(2)
                    .socketAddressResolver(MappingSocketAddressResolver.create((HostAndPort address) -> {
                        DelayingProxy proxy = proxies.get(address.getPort());
                        return proxy != null && isLoopback(address.getHostText())
                                ? HostAndPort.of("127.0.0.1", proxy.port())
                                : address;
                    }))
                    .build();
            toClose.add(() -> resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS));
            RedisURI.Builder uri = RedisURI.Builder.sentinel(
                    "127.0.0.1", group.sentinelPorts().get(0), OwnRedisSentinelGroup.MASTER_NAME);
            for (int port :
                    group.sentinelPorts().subList(1, group.sentinelPorts().size())) {
                uri.withSentinel("127.0.0.1", port);
            }
            RedisScriptExecutor redis = new RedisScriptExecutor(
                    LettuceConnectionSource.sentinel(uri.build(), resources), TIMEOUT, new RedisRoundTrips());
            toClose.add(() -> closeBounded(redis));
            watchedMonitor = redis.connection();
            RedisTests.ready(redis);
            sampler = new Sampler(redis.connection());
            sampling = sampler;
            sampler.start();

            RedisWindowedCounter counter = new RedisWindowedCounter(redis, new InMemorySegmentStore(), "rb:", 50_000);
            // Several names: each coalesces its callers into up to four round trips in flight, so that callers
            // are waiting on every connection attempt.
            List<String> names = List.of("orders", "invoices", "users", "events");
            for (String name : names) {
                counter.nextAsync(name).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            }
            Load load = new Load(counter, names);
            toClose.add(load::stop);
            load.start();
            await(() -> load.succeeded.get() > 2_000, "the first 2,000 IDs under load", load);

            // A readiness probe, as an application may run at any time: it waits for a connection attempt of its own.
            assertThat(redis.awaitReady(DEADLINE)).isTrue();

            OwnRedisNode old = group.master();
            for (DelayingProxy proxy : proxies.values()) {
                // Slow and fast in turn: a slow attempt given up by a switch can then complete after a fast one
                // replaced it, while callers still wait for it.
                proxy.delayNewConnections(TIMEOUT.toMillis() * 3 / 2, TIMEOUT.toMillis() / 3);
            }
            long reconnectsBefore = redis.reconnects();
            group.failover();
            OwnRedisNode promoted = group.awaitNewMaster(old, DEADLINE);
            await(() -> redis.reconnects() > reconnectsBefore, "the executor to drop its connection", load);
            // More switches while connects are still slow, as when the sentinels' answer moves again (a sentinel
            // that learnt of the failover late, a second failover): the executor drops its connection, as its
            // watch does, while attempts are under way, complete late and are given up.
            for (int i = 0; i < SWITCHES; i++) {
                Thread.sleep(ThreadLocalRandom.current().nextLong(TIMEOUT.toMillis() / 2, TIMEOUT.toMillis() * 6 / 5));
                redis.connection().reconnect(true);
            }
            for (DelayingProxy proxy : proxies.values()) {
                proxy.stopDelaying();
            }
            long after = load.succeeded.get();
            await(
                    () -> load.succeeded.get() > after + 2_000,
                    "2,000 IDs from " + promoted + " after the connects are fast again",
                    load);
            load.stop();

            int delayed = proxies.values().stream()
                    .mapToInt(DelayingProxy::delayedConnections)
                    .sum();
            System.out.printf(
                    "SentinelReconnectBlockHoundTest: %d IDs, %d failed calls, %d reconnects, %d slow connects, %d s%n",
                    load.succeeded.get(),
                    load.failed.get(),
                    redis.reconnects(),
                    delayed,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - testStarted));
            assertThat(delayed).as("connections the proxies held").isPositive();
            assertThat(load.repeated.get()).as("values handed out twice").isZero();
            assertThat(SEEN)
                    .as("blocking calls on Lettuce's event loop or under the connection's monitor, and event-loop"
                            + " threads blocked on that monitor while its owner waited")
                    .isEmpty();
        } finally {
            if (sampler != null) {
                sampler.stop();
            }
            for (int i = toClose.size() - 1; i >= 0; i--) {
                try {
                    toClose.get(i).close();
                } catch (Exception e) {
                    // the next one still closes
                }
            }
            watchedMonitor = null;
            sampling = null;
        }
    }

    private static boolean isLoopback(String host) {
        return "127.0.0.1".equals(host) || "localhost".equals(host);
    }

    /** Closes the executor, but gives up after a while: a deadlocked event loop would hold its client's shutdown. */
    private static void closeBounded(RedisScriptExecutor redis) throws InterruptedException {
        Thread closer = new Thread(redis::close, "executor-close");
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(5));
    }

    /** Waits for {@code condition}, failing with what was seen so far when it does not hold within the deadline. */
    private static void await(BooleanSupplier condition, String what, Load load) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            Sampler sampler = sampling;
            String stuck = sampler == null ? null : sampler.stuck;
            if (System.nanoTime() > deadline || stuck != null) {
                throw new AssertionError(
                        (stuck != null ? "Deadlocked: " + stuck + ", while waiting" : "Waited " + DEADLINE)
                                + " for " + what + " (" + load.succeeded.get()
                                + " IDs, " + load.failed.get() + " failed calls, last failure: " + load.lastFailure
                                + "); seen meanwhile: " + SEEN + "\nevent-loop and connector threads:" + threadDump());
            }
            Thread.sleep(10);
        }
    }

    private static String threadDump() {
        StringBuilder dump = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, false)) {
            String name = info.getThreadName();
            if (name.startsWith("lettuce-") || name.startsWith("idgen-redis") || name.startsWith("rx-caller")) {
                dump.append("\n\"")
                        .append(name)
                        .append("\" ")
                        .append(info.getThreadState())
                        .append(info.getLockName() == null ? "" : " on " + info.getLockName())
                        .append(info.getLockOwnerName() == null ? "" : " owned by " + info.getLockOwnerName())
                        .append(stack(info.getStackTrace()));
            }
        }
        return dump.toString();
    }

    /**
     * Reactive callers: three threads that keep up to 64 {@code nextAsync} calls in flight each, over the names in
     * turn, never waiting on a call, and count what comes back.
     */
    private static final class Load {
        final RedisWindowedCounter counter;
        final List<String> names;
        final AtomicLong succeeded = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong repeated = new AtomicLong();
        final Set<String> values = ConcurrentHashMap.newKeySet();
        final List<Thread> threads = new ArrayList<>();
        volatile Throwable lastFailure;
        volatile boolean stopped;

        Load(RedisWindowedCounter counter, List<String> names) {
            this.counter = counter;
            this.names = names;
        }

        void start() {
            for (int i = 1; i <= 3; i++) {
                Semaphore inFlight = new Semaphore(64);
                Thread thread = new Thread(() -> call(inFlight), "rx-caller-" + i);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }

        private void call(Semaphore inFlight) {
            int calls = 0;
            while (!stopped) {
                try {
                    if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                } catch (InterruptedException e) {
                    return;
                }
                String name = names.get(calls++ % names.size());
                CompletableFuture<Long> next;
                try {
                    next = counter.nextAsync(name);
                } catch (RuntimeException e) {
                    next = CompletableFuture.failedFuture(e);
                }
                next.whenComplete((value, failure) -> {
                    if (failure == null) {
                        succeeded.incrementAndGet();
                        if (!values.add(name + ":" + value)) {
                            repeated.incrementAndGet();
                        }
                    } else {
                        failed.incrementAndGet();
                        lastFailure = failure;
                    }
                    inFlight.release();
                });
            }
        }

        void stop() throws InterruptedException {
            stopped = true;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
        }
    }

    /**
     * Samples Lettuce's event-loop threads every few milliseconds and records one found blocked on the executor's
     * monitor while the thread that owns it waits (parked, sleeping or in {@code Object.wait}): a lock held across a
     * blocking call, with an event loop behind it.
     */
    private static final class Sampler {
        private final Object monitor;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final Thread thread = new Thread(this::run, "event-loop-sampler");
        /** Per event-loop thread blocked on the monitor (its owner waiting), since when, in consecutive samples. */
        private final Map<Long, Long> blockedSince = new ConcurrentHashMap<>();

        private final Set<Long> blockedNow = ConcurrentHashMap.newKeySet();
        /** What was reported: each event-loop thread and owner once. */
        private final Set<String> reported = ConcurrentHashMap.newKeySet();
        /** Set when an event-loop thread stayed blocked on the monitor for {@link #STUCK}: a deadlock. */
        volatile String stuck;

        private volatile boolean stopped;

        Sampler(Object monitor) {
            this.monitor = monitor;
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }

        private void run() {
            int monitorHash = System.identityHashCode(monitor);
            while (!stopped) {
                for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
                    if (info != null && info.getThreadState() == Thread.State.BLOCKED) {
                        blockedNow.add(info.getThreadId());
                    }
                    if (info == null
                            || info.getThreadState() != Thread.State.BLOCKED
                            || info.getLockInfo() == null
                            || info.getLockInfo().getIdentityHashCode() != monitorHash
                            || !(info.getThreadName().startsWith("lettuce-nioEventLoop-")
                                    || info.getThreadName().startsWith("lettuce-epollEventLoop-"))) {
                        continue;
                    }
                    ThreadInfo owner = threads.getThreadInfo(info.getLockOwnerId(), 40);
                    ThreadInfo blocked = threads.getThreadInfo(info.getThreadId(), 40);
                    if (owner != null
                            && blocked != null
                            && blocked.getThreadState() == Thread.State.BLOCKED
                            && (owner.getThreadState() == Thread.State.WAITING
                                    || owner.getThreadState() == Thread.State.TIMED_WAITING)) {
                        long since = blockedSince.computeIfAbsent(info.getThreadId(), id -> System.nanoTime());
                        if (System.nanoTime() - since > STUCK.toNanos()) {
                            stuck = info.getThreadName() + " has waited for the connection's monitor for over " + STUCK;
                        }
                        if (!reported.add(info.getThreadName() + " <- " + owner.getThreadName())) {
                            continue;
                        }
                        SEEN.add("event-loop thread " + info.getThreadName()
                                + " blocked on the ReconnectingConnection's monitor" + stack(blocked.getStackTrace())
                                + "\nwhile its owner " + owner.getThreadName() + " waits (" + owner.getThreadState()
                                + ")" + stack(owner.getStackTrace()));
                    } else {
                        blockedSince.remove(info.getThreadId());
                    }
                }
                for (Long id : blockedSince.keySet()) {
                    if (!blockedNow.contains(id)) {
                        blockedSince.remove(id);
                    }
                }
                blockedNow.clear();
                try {
                    Thread.sleep(3);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
