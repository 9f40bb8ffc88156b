package dev.idgen.spring.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.reactive.IdgenReactiveAutoConfiguration;
import dev.idgen.spring.reactive.ReactiveIdServiceBlockHoundTest.Emitter;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The {@code redis} strategy and readable IDs complete on Lettuce's event loop, with no thread parked for the round
 * trip: every value arrives on a {@code lettuce-} thread, and BlockHound (which watches Netty's event loops too) sees
 * no blocking call there.
 *
 * <p>Needs the {@code redis} strategy's and {@code BucketedRedisSequence}'s own {@code ...Async} methods (completing
 * on Lettuce's event loop); over the interface's defaults the values arrive on {@code idgen-blocking} threads and
 * these tests fail, by design.
 */
@Tag("blockhound")
@ExtendWith(BlockHoundInstalled.class)
class ReactiveRedisEventLoopBlockHoundTest {

    private static final String PREFIX = "rxl" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private static final String WINDOWS = "idgen_rxl_" + PREFIX.substring(3, 11);

    @AfterAll
    static void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + WINDOWS);
        }
    }

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
                    "idgen.redis.prefix=" + PREFIX,
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.jdbc.table=" + WINDOWS);

    /** One readable ID emitted, with the thread its subscription was made on and the one it arrived on. */
    record ReadableEmission(String id, Thread subscriber, Thread emitter) {}

    /**
     * {@value ReactiveIdServiceBlockHoundTest#SUBSCRIPTIONS} concurrent subscriptions to
     * {@code nextReadableId("ORD")}, each made on a parallel thread.
     *
     * @return the IDs, after checking where each was emitted
     */
    static List<String> readableIds(ReactiveReadableIdService readable, Emitter emitter) {
        List<ReadableEmission> emissions = Flux.range(0, ReactiveIdServiceBlockHoundTest.SUBSCRIPTIONS)
                .flatMap(
                        i -> Mono.defer(() -> {
                                    Thread subscriber = Thread.currentThread();
                                    return readable.nextReadableId("ORD")
                                            .map(id -> new ReadableEmission(id, subscriber, Thread.currentThread()));
                                })
                                .subscribeOn(Schedulers.parallel()),
                        ReactiveIdServiceBlockHoundTest.SUBSCRIPTIONS)
                .collectList()
                .block(ReactiveIdServiceBlockHoundTest.DEADLINE);
        assertThat(emissions).hasSize(ReactiveIdServiceBlockHoundTest.SUBSCRIPTIONS);
        List<String> ids = new ArrayList<>();
        List<ReactiveIdServiceBlockHoundTest.Emission> threads = new ArrayList<>();
        for (ReadableEmission emission : emissions) {
            assertThat(emission.subscriber().getName()).startsWith("parallel-");
            ids.add(emission.id());
            threads.add(new ReactiveIdServiceBlockHoundTest.Emission(
                    ids.size(), emission.subscriber(), emission.emitter()));
        }
        emitter.check(threads);
        return ids;
    }

    @Test
    void theRedisStrategyEmitsOnLettucesEventLoop() {
        runner.withPropertyValues("idgen.strategy=redis", "idgen.redis.window-size=100000")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ReactiveIdService reactive = context.getBean(ReactiveIdService.class);
                    reactive.blocking().nextId("orders"); // the first window, reserved in the database
                    ReactiveIdServiceBlockHoundTest.exercise(reactive, "orders", Emitter.LETTUCE_EVENT_LOOP);
                });
    }

    @Test
    void readableIdsEmitOnLettucesEventLoop() {
        runner.withPropertyValues("idgen.redis.buckets.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            ReactiveReadableIdService readable = context.getBean(ReactiveReadableIdService.class);
            assertThat(readableIds(readable, Emitter.LETTUCE_EVENT_LOOP)).doesNotHaveDuplicates();
        });
    }
}
