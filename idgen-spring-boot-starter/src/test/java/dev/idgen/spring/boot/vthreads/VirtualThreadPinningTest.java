package dev.idgen.spring.boot.vthreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Under load from thousands of virtual threads, no generator pins its carrier: JFR records no
 * {@code jdk.VirtualThreadPinned} event with an idgen frame on its stack, for Snowflake, segments and tickets on real
 * MariaDB, the Redis strategy on real Redis, and the string forms.
 *
 * <p>A virtual thread that parks while pinned (inside a native frame or a class initializer, and before JDK 24 also
 * inside {@code synchronized}) holds its carrier, one of a handful: under load the others queue behind it. So the
 * recording must see pinning whenever it happens: each run first pins on purpose (a class whose initializer parks,
 * first used from a virtual thread) and waits for that event, and pins again after the load, so that every event of
 * the load was delivered before the check. The recording starts after a smaller warm-up load: loading a class pins
 * too, once, at its first use.
 *
 * <p>That the check fails on a pin in idgen's code was shown once by a class in {@code SegmentBuffer} whose initializer
 * parked, first used at the 3,000th {@code nextId}: the test failed with that stack.
 */
@EnabledForJreRange(min = JRE.JAVA_21) // virtual threads and their JFR events; the JDK 25 pass of .ci/run runs it
class VirtualThreadPinningTest {

    private static final String PINNED = "jdk.VirtualThreadPinned";

    private static final int VIRTUAL_THREADS = 2_000;

    private static final int ROUNDS = 5;

    private static final int WARM_UP_THREADS = 200;

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private static final String SEGMENTS = "idgen_vthreads_segments_" + SUFFIX;

    private static final String TICKETS = "idgen_vthreads_tickets_" + SUFFIX;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class, DataRedisAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues(
                    "spring.threads.virtual.enabled=true",
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "spring.data.redis.host=" + TestServices.redis().host(),
                    "spring.data.redis.port=" + TestServices.redis().port(),
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.jdbc.table=" + SEGMENTS,
                    "idgen.snowflake.worker-id=0",
                    "idgen.redis.prefix=vt" + SUFFIX + ":",
                    // Pinning, not latency, is the question: beside stress-ng (JDK 25 pass) a coalesced Redis call
                    // outwaited its default bound (twice the 500 ms timeout) and failed the load as it should.
                    "idgen.redis.timeout=5s",
                    "idgen.jdbc.timeout=30s",
                    // Small windows and blocks, so that the load goes to the stores again and again.
                    "idgen.generators.counter.strategy=redis",
                    "idgen.generators.counter.redis.window-size=100",
                    "idgen.generators.coupon.strategy=segment",
                    "idgen.generators.coupon.segment.step=100",
                    "idgen.generators.invoice.strategy=ticket",
                    "idgen.generators.invoice.ticket.table=" + TICKETS,
                    "idgen.generators.uuid.form=uuid-v7",
                    "idgen.generators.b32.strategy=snowflake",
                    "idgen.generators.b32.form=crockford32",
                    "idgen.generators.b32.snowflake.worker-id=1");

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + SEGMENTS);
            statement.execute("DROP TABLE IF EXISTS " + TICKETS);
        }
    }

    /** Parks in its initializer: a virtual thread that first uses it pins its carrier for that long. */
    static final class PinsBeforeTheLoad {
        static {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }

        static void touch() {}
    }

    /** As {@link PinsBeforeTheLoad}, used once the load is over. */
    static final class PinsAfterTheLoad {
        static {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }

        static void touch() {}
    }

    /** A pinned event: whether it is one of the test's own, and whether idgen's code was on the stack. */
    private record Pinned(boolean before, boolean after, boolean idgen, String text) {}

    @Test
    void noGeneratorPinsACarrierUnderLoadFromVirtualThreads() throws Exception {
        ConcurrentLinkedQueue<Pinned> events = new ConcurrentLinkedQueue<>();
        ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
        try {
            runner.run(context -> {
                IdService ids = context.getBean(IdService.class);
                IdForms forms = context.getBean(IdForms.class);
                // Loading and initializing a class pins (the VM does it on the carrier, and a thread that finds
                // another one initializing it waits pinned): once per class, at its first use, a cost of the JVM and
                // not of idgen's waits. A warm-up with the same load, smaller, uses every class first.
                load(virtualThreads, ids, forms, WARM_UP_THREADS);
                try (RecordingStream recording = new RecordingStream()) {
                    recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
                    recording.onEvent(PINNED, event -> events.add(pinned(event)));
                    recording.startAsync();

                    virtualThreads.submit(PinsBeforeTheLoad::touch).get(1, TimeUnit.MINUTES);
                    awaitUntil(
                            () -> events.stream().anyMatch(Pinned::before),
                            "the recording to deliver the pinning caused on purpose before the load");

                    load(virtualThreads, ids, forms, VIRTUAL_THREADS);

                    virtualThreads.submit(PinsAfterTheLoad::touch).get(1, TimeUnit.MINUTES);
                    awaitUntil(
                            () -> events.stream().anyMatch(Pinned::after),
                            "the recording to deliver the pinning caused on purpose after the load");
                }
            });
        } finally {
            virtualThreads.shutdownNow();
        }
        List<String> idgenPinned =
                events.stream().filter(Pinned::idgen).map(Pinned::text).toList();
        assertThat(idgenPinned)
                .as("%s events with idgen's code on the stack (of %d in all)", PINNED, events.size())
                .isEmpty();
    }

    /**
     * {@code threads} virtual threads at once, each asking every generator for {@value #ROUNDS} IDs; checks that each
     * generator issued every ID asked for, each once.
     */
    private static void load(ExecutorService virtualThreads, IdService ids, IdForms forms, int threads)
            throws Exception {
        Map<String, Set<Object>> issued = new ConcurrentHashMap<>();
        List<Future<?>> calls = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            calls.add(virtualThreads.submit(() -> {
                for (int round = 0; round < ROUNDS; round++) {
                    issue(issued, "snowflake", ids.nextId("orders"));
                    issue(issued, "segment", ids.nextId("coupon"));
                    issue(issued, "ticket", ids.nextId("invoice"));
                    issue(issued, "redis", ids.nextId("counter"));
                    issue(issued, "uuid-v7", forms.form("uuid").next());
                    issue(issued, "crockford32", forms.form("b32").next());
                }
                return null;
            }));
        }
        for (Future<?> call : calls) {
            call.get(5, TimeUnit.MINUTES);
        }
        assertThat(issued).hasSize(6);
        issued.forEach((generator, values) -> assertThat(values).as(generator).hasSize(threads * ROUNDS));
    }

    private static void issue(Map<String, Set<Object>> issued, String generator, Object id) {
        issued.computeIfAbsent(generator, key -> ConcurrentHashMap.newKeySet()).add(id);
    }

    private static Pinned pinned(RecordedEvent event) {
        StringBuilder text = new StringBuilder(PINNED)
                .append(" for ")
                .append(event.getDuration().toNanos() / 1_000)
                .append(" us on ")
                .append(
                        event.getThread() == null
                                ? "?"
                                : "thread #" + event.getThread().getJavaThreadId());
        boolean before = false;
        boolean after = false;
        boolean idgen = false;
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null) {
            text.append("\n\t(no stack trace)");
        } else {
            for (RecordedFrame frame : stack.getFrames()) {
                String type = frame.getMethod().getType().getName();
                before |= type.equals(PinsBeforeTheLoad.class.getName());
                after |= type.equals(PinsAfterTheLoad.class.getName());
                // The test's own frames (the virtual threads' tasks) are not idgen's code.
                idgen |= type.startsWith("dev.idgen.") && !type.startsWith(VirtualThreadPinningTest.class.getName());
                text.append("\n\tat ")
                        .append(type)
                        .append('.')
                        .append(frame.getMethod().getName())
                        .append(':')
                        .append(frame.getLineNumber());
            }
            if (stack.isTruncated()) {
                text.append("\n\t... (truncated: raise -XX:FlightRecorderOptions:stackdepth in the surefire argLine)");
            }
        }
        // A truncated stack may hide idgen's frames below the cut: counted as idgen's, so it is looked at.
        idgen |= stack == null || stack.isTruncated() && !before && !after;
        return new Pinned(before, after, idgen, text.toString());
    }

    /** Built reflectively: the tests compile with --release 17, which has no virtual threads. */
    private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService)
                Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private static void awaitUntil(BooleanSupplier condition, String what) throws InterruptedException {
        // Generous: JFR delivers about once a second, slower on a loaded machine.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline)
                    .as("waited 2 minutes for " + what)
                    .isNegative();
            Thread.sleep(50);
        }
    }
}
