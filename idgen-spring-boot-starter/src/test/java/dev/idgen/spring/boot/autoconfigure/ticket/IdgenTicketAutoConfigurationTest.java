package dev.idgen.spring.boot.autoconfigure.ticket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.jdbc.TicketServer;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Ticket servers on real MariaDB: one on the application's DataSource, and two on two databases of their own; and one
 * on PostgreSQL.
 */
class IdgenTicketAutoConfigurationTest {

    private static final String SECOND_DATABASE = "idgen_ticket_b";

    private static String table;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration.class,
                    org.springframework.boot.micrometer.metrics.autoconfigure.export.simple
                            .SimpleMetricsExportAutoConfiguration.class))
            .withPropertyValues(
                    "idgen.strategy=ticket", "idgen.ticket.create-table=true", "idgen.ticket.table=" + table);

    @BeforeAll
    static void createSecondDatabase() throws Exception {
        table = "idgen_ticket_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + SECOND_DATABASE);
        }
    }

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + SECOND_DATABASE + "." + table);
        }
    }

    private static String[] applicationDataSource() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new String[] {
            "spring.datasource.url=" + mariadb.url(),
            "spring.datasource.username=" + mariadb.username(),
            "spring.datasource.password=" + mariadb.password()
        };
    }

    @Test
    void takesOneIdPerCallFromTheApplicationsDatabase() {
        runner.withPropertyValues(applicationDataSource()).run(context -> {
            IdService ids = context.getBean(IdService.class);
            assertThat(ids.strategy()).isEqualTo("ticket");
            String name = "orders-" + UUID.randomUUID().toString().substring(0, 6);
            assertThat(ids.nextId(name)).isEqualTo(1);
            assertThat(ids.nextId(name)).isEqualTo(2);
            assertThat(ids.nextIds(name, 5)).containsExactly(3, 4, 5, 6, 7);
            assertThat(ids.nextId(name)).isEqualTo(8);
        });
    }

    @Test
    void sixteenConcurrentThreadsRunWithoutADeadlockOrADuplicate() {
        runner.withPropertyValues(applicationDataSource())
                .withPropertyValues("spring.datasource.hikari.maximum-pool-size=16")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    String name = "load-" + UUID.randomUUID().toString().substring(0, 6);
                    int threads = 16;
                    int perThread = 150;
                    ExecutorService executor = Executors.newFixedThreadPool(threads);
                    try {
                        CountDownLatch start = new CountDownLatch(1);
                        List<Future<long[]>> results = new ArrayList<>();
                        for (int t = 0; t < threads; t++) {
                            results.add(executor.submit(() -> {
                                start.await();
                                long[] out = new long[perThread];
                                for (int i = 0; i < perThread; i++) {
                                    out[i] = ids.nextId(name);
                                }
                                return out;
                            }));
                        }
                        start.countDown();
                        long[] all = new long[threads * perThread];
                        int n = 0;
                        for (Future<long[]> result : results) {
                            long[] got = result.get(120, TimeUnit.SECONDS);
                            System.arraycopy(got, 0, all, n, got.length);
                            n += got.length;
                        }
                        assertThat(all).doesNotHaveDuplicates();
                        java.util.Arrays.sort(all);
                        assertThat(all[0]).isEqualTo(1);
                        assertThat(all[all.length - 1]).isEqualTo(threads * perThread);
                        TicketServer server = ((TicketIdService) ids).servers().get(0);
                        assertThat(server.errors()).isZero();
                    } finally {
                        executor.shutdownNow();
                    }
                });
    }

    @Test
    void twoServersHandOutInterleavedIdsRoundRobin() {
        runner.withUserConfiguration(TwoServers.class)
                .withPropertyValues(
                        "idgen.ticket.servers[0].data-source=ticketA", "idgen.ticket.servers[1].data-source=ticketB")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    String name = "rr-" + UUID.randomUUID().toString().substring(0, 6);
                    List<Long> got = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        got.add(ids.nextId(name));
                    }
                    assertThat(got).doesNotHaveDuplicates();
                    assertThat(got).filteredOn(id -> id % 2 == 0).hasSize(3);
                    assertThat(got).filteredOn(id -> id % 2 == 1).hasSize(3);
                    assertThat(ids.nextIds(name, 3))
                            .satisfiesAnyOf(
                                    batch -> assertThat(batch).containsExactly(8, 10, 12),
                                    batch -> assertThat(batch).containsExactly(9, 11, 13));
                });
    }

    @Test
    void aServerThatFailsIsSkippedAndWhenAllFailTheCallThrows() {
        runner.withUserConfiguration(OneServerDown.class)
                .withPropertyValues(
                        "idgen.ticket.servers[0].data-source=ticketA",
                        "idgen.ticket.servers[1].data-source=down",
                        "idgen.ticket.retry-after=1m")
                .run(context -> {
                    TicketIdService ids = (TicketIdService) context.getBean(IdService.class);
                    String name = "skip-" + UUID.randomUUID().toString().substring(0, 6);
                    for (int i = 0; i < 6; i++) {
                        assertThat(ids.nextId(name) % 2)
                                .as("only server 0 answers")
                                .isZero();
                    }
                    TicketServer down = ids.servers().get(1);
                    assertThat(down.isOpen()).isTrue();
                    assertThat(down.errors()).isEqualTo(1);
                    assertThat(ids.servers().get(0).isOpen()).isFalse();

                    io.micrometer.core.instrument.MeterRegistry registry =
                            context.getBean(io.micrometer.core.instrument.MeterRegistry.class);
                    assertThat(registry.get("idgen.ticket.errors")
                                    .tag("server", "down")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                    assertThat(registry.get("idgen.ticket.circuit.open")
                                    .tag("server", "down")
                                    .gauge()
                                    .value())
                            .isEqualTo(1);
                    assertThat(registry.get("idgen.ticket.calls")
                                    .tag("server", "ticketA")
                                    .functionCounter()
                                    .count())
                            .as("one round trip per call: one caller at a time")
                            .isEqualTo(6);
                    assertThat(registry.get("idgen.ticket.ids")
                                    .tag("server", "ticketA")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(6);
                    assertThat(registry.get("idgen.ids.generated")
                                    .tag("strategy", "ticket")
                                    .functionCounter()
                                    .count())
                            .isEqualTo(6);
                    org.springframework.boot.health.contributor.Health health = context.getBean(
                                    "idgenHealthIndicator",
                                    org.springframework.boot.health.contributor.HealthIndicator.class)
                            .health();
                    assertThat(health.getStatus()).isEqualTo(org.springframework.boot.health.contributor.Status.UP);
                    assertThat(health.getDetails().get("servers").toString()).contains("down={status=DOWN");
                });
        runner.withUserConfiguration(OneServerDown.class)
                .withPropertyValues("idgen.ticket.servers[0].data-source=down")
                .run(context -> {
                    assertThatThrownBy(() -> context.getBean(IdService.class).nextId("orders"))
                            .isInstanceOf(StoreUnavailableException.class)
                            .hasMessageContaining("All 1 ticket servers are unavailable");
                    assertThat(context.getBean(
                                            "idgenHealthIndicator",
                                            org.springframework.boot.health.contributor.HealthIndicator.class)
                                    .health()
                                    .getStatus())
                            .isEqualTo(org.springframework.boot.health.contributor.Status.DOWN);
                });
    }

    @Test
    void eachTicketIsCommittedEvenOnAPoolWhoseConnectionsDoNotAutoCommit() {
        runner.withUserConfiguration(NoAutoCommitServer.class)
                .withPropertyValues("idgen.ticket.servers[0].data-source=noAutoCommit")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    String name = "manual-" + UUID.randomUUID().toString().substring(0, 6);
                    assertThat(new long[] {ids.nextId(name), ids.nextId(name), ids.nextId(name)})
                            .containsExactly(1, 2, 3);
                });
    }

    @Test
    void anApplicationTransactionThatRollsBackCannotTakeAnIssuedTicketBack() {
        runner.withPropertyValues(applicationDataSource()).run(context -> {
            IdService ids = context.getBean(IdService.class);
            String name = "rollback-" + UUID.randomUUID().toString().substring(0, 6);
            org.springframework.transaction.support.TransactionTemplate transaction =
                    new org.springframework.transaction.support.TransactionTemplate(
                            new org.springframework.jdbc.datasource.DataSourceTransactionManager(
                                    context.getBean(DataSource.class)));
            long inside = transaction.execute(status -> {
                status.setRollbackOnly();
                return ids.nextId(name);
            });
            assertThat(ids.nextId(name)).isGreaterThan(inside);
        });
    }

    @Test
    void aRowWrittenForAnotherNumberOfServersIsRefusedInsteadOfColliding() throws Exception {
        String name = "migrated-" + UUID.randomUUID().toString().substring(0, 6);
        runner.withPropertyValues(applicationDataSource())
                .run(context -> context.getBean(IdService.class).nextId(name));
        runner.withUserConfiguration(TwoServers.class)
                .withPropertyValues(
                        "idgen.ticket.servers[0].data-source=ticketA",
                        "idgen.ticket.servers[1].data-source=ticketB",
                        "idgen.ticket.retry-after=1m")
                .run(context -> {
                    TicketIdService ids = (TicketIdService) context.getBean(IdService.class);
                    for (int i = 0; i < 4; i++) {
                        assertThat(ids.nextId(name) % 2)
                                .as("only the fresh server answers")
                                .isEqualTo(1);
                    }
                    assertThat(ids.servers().get(0).isOpen()).isTrue();
                    assertThat(ids.servers().get(0).lastError()).contains("was written for 1 servers, but 2");
                });
    }

    @Test
    void resetIsRefusedUnlessEnabledAndThenStartsTheNameOver() {
        runner.withPropertyValues(applicationDataSource()).run(context -> {
            TicketIdService ids = (TicketIdService) context.getBean(IdService.class);
            assertThatThrownBy(() -> ids.reset("orders"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("idgen.admin.reset-enabled=true");
        });
        runner.withPropertyValues(applicationDataSource())
                .withPropertyValues("idgen.admin.reset-enabled=true")
                .run(context -> {
                    TicketIdService ids = (TicketIdService) context.getBean(IdService.class);
                    String name = "daily-" + UUID.randomUUID().toString().substring(0, 6);
                    ids.nextIds(name, 3);
                    ids.reset(name);
                    assertThat(ids.nextId(name)).isEqualTo(1);
                });
    }

    @Test
    void servesTicketsFromPostgreSqlToo() {
        TestServices.JdbcEndpoint postgres = TestServices.postgres();
        runner.withPropertyValues(
                        "spring.datasource.url=" + postgres.url(),
                        "spring.datasource.username=" + postgres.username(),
                        "spring.datasource.password=" + postgres.password())
                .run(context -> {
                    try {
                        IdService ids = context.getBean(IdService.class);
                        assertThat(ids.nextId("orders")).isEqualTo(1);
                        assertThat(ids.nextIds("orders", 3)).containsExactly(2, 3, 4);
                    } finally {
                        try (Connection connection =
                                        context.getBean(DataSource.class).getConnection();
                                Statement statement = connection.createStatement()) {
                            statement.execute("DROP TABLE IF EXISTS " + table);
                        }
                    }
                });
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.ticket.servers[0].data-source=nope | idgen.ticket.servers[0].data-source | no DataSource bean has that name",
                "idgen.ticket.servers[0].offset=2 | idgen.ticket.servers[0].offset | must be unique and between 0 and 1",
                "idgen.ticket.servers[1].offset=0 | idgen.ticket.servers[1].offset | must be unique",
                "idgen.ticket.table=x y | idgen.ticket.table | must be a table name",
                "idgen.ticket.retry-after=-1s | idgen.ticket.retry-after | must be between 0 and 10m",
            })
    void aBadSettingFailsStartUpNamingIt(String setting, String property, String rule) {
        runner.withUserConfiguration(TwoServers.class)
                .withPropertyValues(
                        "idgen.ticket.servers[0].data-source=ticketA",
                        "idgen.ticket.servers[1].data-source=ticketB",
                        setting)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo(property))
                        .hasMessageContaining(rule));
    }

    static HikariDataSource pool(String url) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new TestServices.JdbcEndpoint(url, mariadb.username(), mariadb.password()).pool(4);
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoServers {

        @Bean
        DataSource ticketA() {
            return pool(TestServices.mariadb().url());
        }

        @Bean
        DataSource ticketB() {
            return pool(TestServices.mariadb().url().replaceFirst("/[^/?]*(\\?|$)", "/" + SECOND_DATABASE + "$1"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NoAutoCommitServer {

        @Bean
        DataSource noAutoCommit() {
            HikariDataSource pool = pool(TestServices.mariadb().url());
            pool.setAutoCommit(false);
            return pool;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OneServerDown {

        @Bean
        DataSource ticketA() {
            return pool(TestServices.mariadb().url());
        }

        @Bean
        DataSource down() {
            return pool("jdbc:mariadb://127.0.0.1:1/test");
        }
    }
}
