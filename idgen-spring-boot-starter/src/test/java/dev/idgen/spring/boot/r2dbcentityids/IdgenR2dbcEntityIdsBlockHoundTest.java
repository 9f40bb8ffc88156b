package dev.idgen.spring.boot.r2dbcentityids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.spring.IdgenId;
import dev.idgen.spring.IdgenIdR2dbcBeforeConvertCallback;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenDataR2dbcAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.reactive.IdgenReactiveAutoConfiguration;
import dev.idgen.spring.boot.entityids.EntityIdDatabase;
import dev.idgen.spring.reactive.BlockHoundInstalled;
import dev.idgen.test.services.TestServices;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.r2dbc.autoconfigure.DataR2dbcAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.r2dbc.core.R2dbcEntityTemplate;
import org.springframework.data.r2dbc.repository.config.EnableR2dbcRepositories;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code @IdgenId} on Spring Data R2DBC entities, on the real PostgreSQL ({@code r2dbc-postgresql}) and MariaDB
 * ({@code r2dbc-mariadb}), with BlockHound installed: two instances at once, each with a Snowflake worker id leased
 * from Redis, save orders from two streams each, subscribed on Reactor's parallel threads and carried on by the
 * drivers' event loops; no call blocks either, no ID repeats, and the two instances' IDs carry different worker ids.
 * A record's {@code String} ID comes from its form (uuid-v7) on an {@code idgen-blocking} thread; an ID set before
 * {@code insert} is kept.
 */
@Tag("blockhound")
@ExtendWith(BlockHoundInstalled.class)
class IdgenR2dbcEntityIdsBlockHoundTest {

    private static final String[] TABLES = {"idgen_er2_order", "idgen_er2_ticket"};

    /** Rows per instance and stream: 2 instances x 2 streams x 2,500 = 10,000 orders per database. */
    private static final int ROWS_PER_STREAM = 2_500;

    private static final int STREAMS = 2;

    private final String prefix = "idgen-er2-" + UUID.randomUUID().toString().substring(0, 8) + ":";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    R2dbcAutoConfiguration.class,
                    DataR2dbcAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenReactiveAutoConfiguration.class,
                    IdgenDataR2dbcAutoConfiguration.class))
            .withUserConfiguration(Repositories.class)
            .withPropertyValues(
                    "spring.data.redis.host=" + TestServices.redis().host(),
                    "spring.data.redis.port=" + TestServices.redis().port(),
                    "idgen.redis.prefix=" + prefix,
                    "idgen.snowflake.worker-id-assigner=redis",
                    // A Redis just started makes newcomers wait ttl + reuse delay: keep both short.
                    "idgen.snowflake.lease.ttl=2s",
                    "idgen.snowflake.lease.reuse-delay=1s",
                    "idgen.generators.ticketno.form=uuid-v7");

    /**
     * r2dbc-mariadb reads its version from a resource in a static initializer that first runs on an event loop, while
     * it writes its first handshake: the driver's one-time class loading, not idgen's, done here on the test thread.
     */
    @BeforeAll
    static void loadTheMariaDbDriversVersion() throws ClassNotFoundException {
        Class.forName(
                "org.mariadb.r2dbc.util.VersionFactory$VersionFactoryHolder",
                true,
                IdgenR2dbcEntityIdsBlockHoundTest.class.getClassLoader());
    }

    @AfterAll
    static void dropTables() throws Exception {
        for (EntityIdDatabase database : EntityIdDatabase.values()) {
            dropTables(database);
        }
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void twoInstancesSaveWithoutBlockingAndWithoutARepeat(EntityIdDatabase database) throws Exception {
        createTables(database);
        ApplicationContextRunner onDatabase = runner.withPropertyValues(r2dbcProperties(database));
        onDatabase.run(first -> onDatabase.run(second -> {
            assertThat(first).hasNotFailed().hasSingleBean(IdgenIdR2dbcBeforeConvertCallback.class);
            assertThat(second).hasNotFailed();
            Set<String> threads = ConcurrentHashMap.newKeySet();
            List<Flux<R2dbcOrder>> streams = new ArrayList<>();
            for (ApplicationContext instance : List.of(first, second)) {
                R2dbcOrderRepository orders = instance.getBean(R2dbcOrderRepository.class);
                for (int stream = 0; stream < STREAMS; stream++) {
                    int number = stream;
                    streams.add(Flux.range(0, ROWS_PER_STREAM)
                            .map(i -> new R2dbcOrder(null, "item " + number + "/" + i))
                            .concatMap(order -> orders.save(order)
                                    .doOnNext(saved ->
                                            threads.add(Thread.currentThread().getName())))
                            .subscribeOn(Schedulers.parallel()));
                }
            }
            List<R2dbcOrder> saved = Flux.merge(streams).collectList().block(Duration.ofMinutes(2));
            assertThat(saved)
                    .hasSize(2 * STREAMS * ROWS_PER_STREAM)
                    .allSatisfy(order -> assertThat(order.getId()).isPositive());
            List<Object> ids = database.ids("idgen_er2_order");
            assertThat(ids).hasSize(2 * STREAMS * ROWS_PER_STREAM).doesNotContainNull();
            assertThat(new HashSet<>(ids)).hasSize(ids.size());
            // The saves went on on the drivers' event loops, which BlockHound watches too.
            assertThat(threads).anyMatch(name -> !name.startsWith("parallel-"));
            assertThat(workerIds(first, saved)).hasSize(2);
        }));
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void aRecordsStringIdComesFromItsFormAndAPresetIdIsKept(EntityIdDatabase database) throws Exception {
        createTables(database);
        runner.withPropertyValues(r2dbcProperties(database)).run(context -> {
            R2dbcTicketRepository tickets = context.getBean(R2dbcTicketRepository.class);
            List<R2dbcTicket> saved = Flux.range(0, 20)
                    .map(i -> new R2dbcTicket(null, "ticket " + i))
                    .concatMap(tickets::save)
                    .subscribeOn(Schedulers.parallel())
                    .collectList()
                    .block(Duration.ofMinutes(1));
            assertThat(saved)
                    .hasSize(20)
                    .allSatisfy(ticket -> assertThat(ticket.id())
                            .matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
            R2dbcOrder preset = Mono.defer(
                            () -> context.getBean(R2dbcEntityTemplate.class).insert(new R2dbcOrder(4242L, "preset")))
                    .subscribeOn(Schedulers.parallel())
                    .block(Duration.ofMinutes(1));
            assertThat(preset.getId()).isEqualTo(4242L);
            assertThat(database.ids("idgen_er2_ticket"))
                    .containsExactlyInAnyOrderElementsOf(
                            saved.stream().map(R2dbcTicket::id).toList());
            assertThat(database.ids("idgen_er2_order")).containsExactly(4242L);
        });
    }

    @Test
    void idgenDisabledLeavesR2dbcAlone() {
        runner.withPropertyValues(r2dbcProperties(EntityIdDatabase.POSTGRESQL))
                .withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(R2dbcEntityTemplate.class)
                        .doesNotHaveBean(IdgenIdR2dbcBeforeConvertCallback.class));
    }

    @Test
    void aMemberIdgenCannotFillFailsTheSaveNamingIt() {
        runner.withPropertyValues(r2dbcProperties(EntityIdDatabase.POSTGRESQL)).run(context -> {
            IdgenIdR2dbcBeforeConvertCallback callback = context.getBean(IdgenIdR2dbcBeforeConvertCallback.class);
            Mono<Object> save =
                    Flux.from(callback.onBeforeConvert(new IntIdEntity(), null)).next();
            assertThatThrownBy(() -> save.block(Duration.ofSeconds(30)))
                    .hasMessageContaining(IntIdEntity.class.getName() + ".id")
                    .hasMessageContaining("long, Long or String");
        });
    }

    private static Set<Long> workerIds(ApplicationContext context, List<R2dbcOrder> orders) {
        IdService ids = context.getBean(IdService.class);
        Set<Long> workers = new HashSet<>();
        for (R2dbcOrder order : orders) {
            workers.add((Long) ids.decode(order.getId()).toMap().get("workerId"));
        }
        return workers;
    }

    /** Spring Boot's R2DBC properties for the database the JDBC endpoint names. */
    private static String[] r2dbcProperties(EntityIdDatabase database) {
        TestServices.JdbcEndpoint endpoint = database.endpoint();
        URI uri = URI.create(endpoint.url().substring("jdbc:".length()));
        return new String[] {
            "spring.r2dbc.url=r2dbc:" + uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort() + uri.getPath(),
            "spring.r2dbc.username=" + endpoint.username(),
            "spring.r2dbc.password=" + (endpoint.password() == null ? "" : endpoint.password()),
            "spring.r2dbc.pool.initial-size=1",
            "spring.r2dbc.pool.max-size=" + (2 * STREAMS)
        };
    }

    @Configuration(proxyBeanMethods = false)
    @EnableR2dbcRepositories(basePackageClasses = R2dbcOrderRepository.class)
    static class Repositories {}

    /** An entity whose {@code @IdgenId} member has a type idgen does not fill. */
    static final class IntIdEntity {
        @IdgenId("orders")
        int id;
    }

    private static void createTables(EntityIdDatabase database) throws Exception {
        dropTables(database);
        database.execute(
                "CREATE TABLE idgen_er2_order (id BIGINT PRIMARY KEY, item VARCHAR(64))",
                "CREATE TABLE idgen_er2_ticket (id VARCHAR(64) PRIMARY KEY, title VARCHAR(64))");
    }

    private static void dropTables(EntityIdDatabase database) throws Exception {
        for (String table : TABLES) {
            database.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
