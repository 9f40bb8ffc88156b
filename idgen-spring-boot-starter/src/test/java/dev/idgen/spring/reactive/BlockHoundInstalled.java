package dev.idgen.spring.reactive;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;

/**
 * Installs BlockHound once in the test JVM (with the integrations on the class path: Reactor's, which marks its
 * parallel and single schedulers non-blocking, and Netty's, which marks the event loops Lettuce runs on), and fails
 * the test after which any blocking call was seen on such a thread. A blocking call throws a
 * {@link BlockingOperationError} where it happens, which a publisher reports as its error; recording it here too
 * catches one that a library swallows on its way.
 */
public final class BlockHoundInstalled implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private static final List<BlockingOperationError> SEEN = new CopyOnWriteArrayList<>();

    @Override
    public void beforeAll(ExtensionContext context) {
        if (INSTALLED.compareAndSet(false, true)) {
            BlockHound.builder()
                    .loadIntegrations()
                    // Lettuce registers each command's writer under a lock that a writer holds for microseconds, so a
                    // non-blocking thread may park there briefly when two write at once. It must not throw there:
                    // DefaultEndpoint.write decrements the writer count in a finally block even when incrementing
                    // threw, which leaves the count at -1 and every later write on the connection spinning for good
                    // (a CI run hung so, its thread dump: parallel-2 spinning in SharedLock.incrementWriters and the
                    // closing context waiting for the lock).
                    .allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
                    // JDK 21 and later arm CompletableFuture.orTimeout on the common pool's delay scheduler, whose
                    // run-state lock spins (Thread.onSpinWait) for the moment another thread holds it: a hand-off to
                    // the JDK's timer, not a wait for I/O (JDK 25's CI pass caught it on a Redis round trip's timeout).
                    .allowBlockingCallsInside("java.util.concurrent.ForkJoinPool", "scheduleDelayedTask")
                    // JDK 17 arms and cancels orTimeout on a ScheduledThreadPoolExecutor; Reactor's integration allows
                    // its
                    // queue's offer and take, and a cancel (a command answered before its timeout) removes the task
                    // under the
                    // same lock, held for the moment a heap operation takes (JDK 17's CI pass caught it on an event
                    // loop).
                    .allowBlockingCallsInside(
                            "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove")
                    // r2dbc-mariadb finds its authentication plugins with a ServiceLoader on the event loop, on every
                    // connection it opens: the driver's own jar read, not idgen's; the R2DBC entity test's pool opens
                    // its connections so (r2dbc-mariadb 1.4.2).
                    .allowBlockingCallsInside("org.mariadb.r2dbc.authentication.AuthenticationFlowPluginLoader", "get")
                    // r2dbc-mariadb 1.4.2 queues each command under a ReentrantLock of its connection, held for the
                    // enqueue, on whichever thread sends it (an event loop too): the driver's, seen by the R2DBC
                    // entity test when two saves met on one pooled connection's lock.
                    .allowBlockingCallsInside("org.mariadb.r2dbc.client.SimpleClient", "lambda$sendCommand$17")
                    .allowBlockingCallsInside("org.mariadb.r2dbc.client.SimpleClient", "lambda$sendCommand$20")
                    .allowBlockingCallsInside("org.mariadb.r2dbc.client.SimpleClient", "lambda$receive$15")
                    .allowBlockingCallsInside("org.mariadb.r2dbc.client.SimpleClient", "sendCommandWithoutResult")
                    .blockingMethodCallback(method -> {
                        BlockingOperationError error = new BlockingOperationError(method);
                        SEEN.add(error);
                        throw error;
                    })
                    .install();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        SEEN.clear();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<BlockingOperationError> seen = List.copyOf(SEEN);
        SEEN.clear();
        if (!seen.isEmpty() && !context.getTags().contains(EXPECTS_BLOCKING)) {
            AssertionError failure = new AssertionError(
                    seen.size() + " blocking call(s) on a non-blocking thread, the first: "
                            + seen.get(0).getMessage(),
                    seen.get(0));
            throw failure;
        }
    }

    /** The tag of a test that blocks on purpose, to show that a blocking call is caught. */
    public static final String EXPECTS_BLOCKING = "expects-blocking";

    /** @return the blocking calls seen since the test began */
    public static List<BlockingOperationError> seen() {
        return List.copyOf(SEEN);
    }
}
