package dev.idgen.spring.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.IdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.reactive.IdgenReactiveAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * No reactive path blocks: for every strategy and a named generator, on the real servers, many concurrent
 * subscriptions from Reactor's parallel threads (which BlockHound treats as non-blocking) to {@code nextId},
 * {@code nextIds} and {@code ids(...).take(n)}; every ID unique and positive, no blocking call seen, and each value
 * emitted where the strategy says: on the subscribing thread for Snowflake and segments in memory, on an
 * {@code idgen-blocking} thread for tickets.
 *
 * <p>The {@code redis} strategy and readable IDs are checked here for blocking and uniqueness; that they emit on
 * Lettuce's event loop is {@link ReactiveRedisEventLoopBlockHoundTest}'s to show.
 */
@Tag("blockhound")
@ExtendWith(BlockHoundInstalled.class)
class ReactiveIdServiceBlockHoundTest {

    static final Duration DEADLINE = Duration.ofMinutes(2);

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private static final String SEGMENTS = "idgen_rx_segments_" + SUFFIX;
    private static final String TICKETS = "idgen_rx_tickets_" + SUFFIX;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenReactiveAutoConfiguration.class))
            .withPropertyValues(
                    "spring.data.redis.host=" + TestServices.redis().host(),
                    "spring.data.redis.port=" + TestServices.redis().port(),
                    // A first round trip in a fresh, instrumented JVM on a loaded machine can outlast the default
                    // 500 ms, and its fallback would hide where the values arrive.
                    "idgen.redis.timeout=5s",
                    "idgen.redis.prefix=rx" + SUFFIX + ":");

    @AfterAll
    static void dropTables() throws Exception {
        for (TestServices.JdbcEndpoint endpoint : List.of(TestServices.mariadb(), TestServices.postgres())) {
            try (Connection connection = endpoint.connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + SEGMENTS);
                statement.execute("DROP TABLE IF EXISTS " + TICKETS);
            }
        }
    }

    static String[] dataSource(TestServices.JdbcEndpoint endpoint) {
        return new String[] {
            "spring.datasource.url=" + endpoint.url(),
            "spring.datasource.username=" + endpoint.username(),
            "spring.datasource.password=" + endpoint.password(),
            "idgen.jdbc.initialize-schema=always",
            "idgen.jdbc.table=" + SEGMENTS
        };
    }

    /**
     * Where the value of a subscription made on a parallel thread must be emitted. For a value that comes from another
     * thread, the subscriber's own thread is accepted too: a round trip that completed before the subscriber looked at
     * its future is emitted at once, where it looks (no thread waited for it either way); but at least one value must
     * have arrived on the other thread.
     */
    enum Emitter {
        /** The thread that subscribed (and requested): no hop. */
        SUBSCRIBER(null),
        /** A thread of the bounded executor for blocking calls. */
        BLOCKING_EXECUTOR(BoundedBlockingExecutor.THREAD_NAME_PREFIX),
        /** Lettuce's event loop, where the round trip completed. */
        LETTUCE_EVENT_LOOP("lettuce-"),
        /** Not checked. */
        ANY(null);

        private final String threadNamePrefix;

        Emitter(String threadNamePrefix) {
            this.threadNamePrefix = threadNamePrefix;
        }

        void check(List<Emission> emissions) {
            if (this == ANY) {
                return;
            }
            if (this == SUBSCRIBER) {
                assertThat(emissions)
                        .allSatisfy(emission -> assertThat(emission.emitter())
                                .as("the thread that emitted %d", emission.id())
                                .isSameAs(emission.subscriber()));
                return;
            }
            // On the event loop, a value may also arrive on another subscriber's thread: a coalesced round trip that
            // Redis answered while its sender was still attaching to it is handed out by that sender.
            Set<Thread> subscribers = this == LETTUCE_EVENT_LOOP
                    ? emissions.stream().map(Emission::subscriber).collect(Collectors.toSet())
                    : Set.of();
            assertThat(emissions)
                    .allSatisfy(emission -> assertThat(emission.emitter() == emission.subscriber()
                                    || emission.emitter().getName().startsWith(threadNamePrefix)
                                    || subscribers.contains(emission.emitter()))
                            .as(
                                    "%d emitted on %s, neither a %s thread nor a subscriber",
                                    emission.id(), emission.emitter().getName(), threadNamePrefix)
                            .isTrue());
            assertThat(emissions)
                    .extracting(emission -> emission.emitter().getName())
                    .as("the threads that emitted")
                    .anySatisfy(thread -> assertThat(thread).startsWith(threadNamePrefix));
        }
    }

    /** One value: the thread its subscription was made on, and the one it arrived on. */
    record Emission(long id, Thread subscriber, Thread emitter) {}

    static final int SUBSCRIPTIONS = 60;

    /**
     * {@value #SUBSCRIPTIONS} concurrent subscriptions, each made on a parallel thread: a third {@code nextId}, a third
     * {@code nextIds(name, 5)}, a third {@code ids(name).take(7)}.
     *
     * @return every value, after checking that the IDs are unique and positive and where each was emitted
     */
    static List<Emission> exercise(ReactiveIdService reactive, String name, Emitter emitter) {
        Flux<Emission> all = Flux.range(0, SUBSCRIPTIONS)
                .flatMap(
                        i -> switch (i % 3) {
                            case 0 ->
                                Mono.defer(() -> {
                                            Thread subscriber = Thread.currentThread();
                                            return reactive.nextId(name)
                                                    .map(id -> new Emission(id, subscriber, Thread.currentThread()));
                                        })
                                        .flux()
                                        .subscribeOn(Schedulers.parallel());
                            case 1 ->
                                Flux.defer(() -> {
                                            Thread subscriber = Thread.currentThread();
                                            return reactive.nextIds(name, 5).flatMapIterable(ids -> {
                                                Thread emitting = Thread.currentThread();
                                                List<Emission> emissions = new ArrayList<>();
                                                for (long id : ids) {
                                                    emissions.add(new Emission(id, subscriber, emitting));
                                                }
                                                return emissions;
                                            });
                                        })
                                        .subscribeOn(Schedulers.parallel());
                            default ->
                                Flux.defer(() -> {
                                            Thread subscriber = Thread.currentThread();
                                            return reactive.ids(name)
                                                    .take(7)
                                                    .map(id -> new Emission(id, subscriber, Thread.currentThread()));
                                        })
                                        .subscribeOn(Schedulers.parallel());
                        },
                        SUBSCRIPTIONS);
        List<Emission> emissions = all.collectList().block(DEADLINE);
        assertThat(emissions).hasSize(SUBSCRIPTIONS / 3 * (1 + 5 + 7));
        assertThat(emissions)
                .extracting(Emission::id)
                .doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(id).isPositive());
        assertThat(emissions)
                .extracting(Emission::subscriber)
                .allSatisfy(thread -> assertThat(thread.getName()).startsWith("parallel-"));
        emitter.check(emissions);
        return emissions;
    }

    /** Runs {@code check} against the context's reactive service after a blocking warm-up of {@code names}. */
    private static ContextConsumer<AssertableApplicationContext> warmedUp(
            Consumer<ReactiveIdService> check, String... names) {
        return context -> {
            assertThat(context).hasNotFailed();
            ReactiveIdService reactive = context.getBean(ReactiveIdService.class);
            for (String name : names) {
                // A segment name's first block loads on a blocking thread; after it, the IDs are in memory.
                reactive.blocking().nextId(name);
            }
            check.accept(reactive);
        };
    }

    @Test
    void snowflakeEmitsOnTheSubscribingThread() {
        // Warmed up too: a new generator counts its start-up millisecond as used up, so a call within it waits.
        runner.run(warmedUp(
                reactive -> {
                    exercise(reactive, "orders", Emitter.SUBSCRIBER);
                    SnowflakeGenerator generator =
                            ((SnowflakeIdService) ForwardingIdService.innermost(reactive.blocking())).generator();
                    assertThat(generator.clockBackwardsEvents()).isZero();
                    assertThat(generator.sequenceOverflowWaits()).isZero();
                },
                "orders"));
    }

    @Test
    void segmentsOnMariaDbEmitOnTheSubscribingThreadOnceLoaded() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues("idgen.strategy=segment", "idgen.segment.step=100000")
                .run(warmedUp(reactive -> exercise(reactive, "orders", Emitter.SUBSCRIBER), "orders"));
    }

    @Test
    void stripedSegmentsOnPostgresEmitOnTheSubscribingThreadOnceLoaded() {
        runner.withPropertyValues(dataSource(TestServices.postgres()))
                .withPropertyValues(
                        "idgen.strategy=segment", "idgen.segment.step=100000", "idgen.segment.stripe-size=16")
                .run(warmedUp(reactive -> exercise(reactive, "orders", Emitter.SUBSCRIBER), "orders"));
    }

    @Test
    void segmentsFromRedisEmitOnTheSubscribingThreadOnceLoaded() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues("idgen.strategy=segment", "idgen.segment.store=redis", "idgen.segment.step=100000")
                .run(warmedUp(reactive -> exercise(reactive, "orders", Emitter.SUBSCRIBER), "orders"));
    }

    @Test
    void newSegmentNamesLoadOnTheBlockingExecutorWithoutBlockingTheSubscriber() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues("idgen.strategy=segment", "idgen.segment.step=100000")
                .run(context -> {
                    ReactiveIdService reactive = context.getBean(ReactiveIdService.class);
                    List<Emission> firsts = firstIdsOfNewNames(reactive, "fresh-" + SUFFIX);
                    Emitter.BLOCKING_EXECUTOR.check(firsts);
                    SegmentIdService segments = (SegmentIdService) reactive.blocking();
                    for (int i = 0; i < firsts.size(); i++) {
                        assertThat(segments.stats("fresh-" + SUFFIX + "-" + i)
                                        .orElseThrow()
                                        .waits())
                                // At most the one handed to the executor (BlockHound shows the subscriber never
                                // parked); none when the block arrived before the executor's thread looked for it.
                                .as("calls that waited for the first block (on the executor, never the subscriber)")
                                .isBetween(0L, 1L);
                    }
                });
    }

    /**
     * The first ID of each of five new names {@code prefix-0} to {@code prefix-4}, each subscribed on a parallel
     * thread: a name's first call waits for its first block, which the subscriber must not.
     */
    static List<Emission> firstIdsOfNewNames(ReactiveIdService reactive, String prefix) {
        List<Emission> firsts = Flux.range(0, 5)
                .flatMap(i -> Mono.defer(() -> {
                            Thread subscriber = Thread.currentThread();
                            return reactive.nextId(prefix + "-" + i)
                                    .map(id -> new Emission(id, subscriber, Thread.currentThread()));
                        })
                        .subscribeOn(Schedulers.parallel()))
                .collectList()
                .block(DEADLINE);
        assertThat(firsts).hasSize(5).allSatisfy(first -> assertThat(first.id()).isPositive());
        return firsts;
    }

    @Test
    void ticketsOnMariaDbEmitOnTheBlockingExecutor() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues(
                        "idgen.strategy=ticket",
                        "idgen.ticket.create-table=true",
                        "idgen.ticket.table=" + TICKETS,
                        "spring.datasource.hikari.maximum-pool-size=8")
                .run(warmedUp(reactive -> exercise(reactive, "orders", Emitter.BLOCKING_EXECUTOR)));
    }

    @Test
    void ticketsOnPostgresEmitOnTheBlockingExecutor() {
        runner.withPropertyValues(dataSource(TestServices.postgres()))
                .withPropertyValues(
                        "idgen.strategy=ticket",
                        "idgen.ticket.create-table=true",
                        "idgen.ticket.table=" + TICKETS,
                        "spring.datasource.hikari.maximum-pool-size=8")
                .run(warmedUp(reactive -> exercise(reactive, "orders", Emitter.BLOCKING_EXECUTOR)));
    }

    @Test
    void theRedisStrategyNeverBlocksTheSubscriber() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues("idgen.strategy=redis", "idgen.redis.window-size=100000")
                .run(warmedUp(reactive -> exercise(reactive, "orders", Emitter.ANY), "orders"));
    }

    @Test
    void readableIdsNeverBlockTheSubscriber() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues("idgen.redis.buckets.enabled=true")
                .run(context -> {
                    ReactiveReadableIdService readable = context.getBean(ReactiveReadableIdService.class);
                    List<String> ids = ReactiveRedisEventLoopBlockHoundTest.readableIds(readable, Emitter.ANY);
                    assertThat(ids)
                            .doesNotHaveDuplicates()
                            .allSatisfy(id -> assertThat(id).contains("ORD"));
                });
    }

    @Test
    void namedGeneratorsEachEmitWhereTheirStrategySays() {
        runner.withPropertyValues(dataSource(TestServices.postgres()))
                .withPropertyValues(
                        "idgen.generators.invoice.strategy=ticket",
                        "idgen.generators.invoice.ticket.create-table=true",
                        "idgen.generators.invoice.ticket.table=" + TICKETS,
                        "idgen.generators.coupon.strategy=segment",
                        "idgen.generators.coupon.segment.step=100000",
                        "idgen.generators.receipt.strategy=segment",
                        "idgen.generators.receipt.period=daily",
                        "spring.datasource.hikari.maximum-pool-size=8")
                .run(warmedUp(
                        reactive -> {
                            exercise(reactive, "orders", Emitter.SUBSCRIBER); // the default generator: Snowflake
                            exercise(reactive, "coupon", Emitter.SUBSCRIBER);
                            exercise(reactive, "receipt", Emitter.SUBSCRIBER); // a counter per day over segments
                            exercise(reactive, "invoice", Emitter.BLOCKING_EXECUTOR);
                        },
                        "coupon",
                        "receipt"));
    }

    /**
     * The harness can fail: a blocking call made on a parallel thread (here the ticket strategy's blocking
     * {@code nextId} inside {@code Mono.fromCallable}) is caught and arrives as the publisher's error.
     */
    @Test
    @Tag(BlockHoundInstalled.EXPECTS_BLOCKING)
    void aBlockingCallOnAParallelThreadIsCaught() {
        runner.withPropertyValues(dataSource(TestServices.mariadb()))
                .withPropertyValues(
                        "idgen.strategy=ticket", "idgen.ticket.create-table=true", "idgen.ticket.table=" + TICKETS)
                .run(context -> {
                    IdService blocking = context.getBean(IdService.class);
                    blocking.nextId("orders"); // the pool's first connection, outside the check
                    StepVerifier.create(Mono.fromCallable(() -> blocking.nextId("orders"))
                                    .subscribeOn(Schedulers.parallel()))
                            .expectError(BlockingOperationError.class)
                            .verify(DEADLINE);
                    assertThat(BlockHoundInstalled.seen()).isNotEmpty();
                });
    }
}
