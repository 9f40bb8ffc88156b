package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdSequence;
import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenPropertyValueException;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.TestServices;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Several generators in one application: the default one on Snowflake, {@code invoice} on a ticket row and
 * {@code coupon} on segments, both in real MariaDB.
 */
class IdgenNamedGeneratorsTest {

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private static final String TICKETS = "idgen_named_tickets_" + SUFFIX;

    private static final String SEGMENTS = "idgen_named_segments_" + SUFFIX;

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
            .withPropertyValues(dataSource())
            .withPropertyValues(
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.jdbc.table=" + SEGMENTS,
                    "idgen.generators.invoice.strategy=ticket",
                    "idgen.generators.invoice.ticket.table=" + TICKETS,
                    "idgen.generators.coupon.strategy=segment",
                    "idgen.generators.coupon.segment.step=50");

    @AfterAll
    static void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TICKETS);
            statement.execute("DROP TABLE IF EXISTS " + SEGMENTS);
            statement.execute("DROP TABLE IF EXISTS idgen_named_other_" + SUFFIX);
        }
    }

    private static String[] dataSource() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new String[] {
            "spring.datasource.url=" + mariadb.url(),
            "spring.datasource.username=" + mariadb.username(),
            "spring.datasource.password=" + mariadb.password()
        };
    }

    @Test
    void eachNameIsServedByItsOwnGeneratorAndEveryOtherNameByTheDefaultOne() {
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            assertThat(ids).isInstanceOf(RoutingIdService.class);
            Map<String, IdService> generators = ((RoutingIdService) ids).generators();
            assertThat(generators).containsOnlyKeys("default", "invoice", "coupon");
            assertThat(generators.get("default")).isInstanceOf(SnowflakeIdService.class);
            assertThat(generators.get("invoice")).isInstanceOf(TicketIdService.class);
            assertThat(generators.get("coupon")).isInstanceOf(SegmentIdService.class);
            long first = ids.nextId("invoice");
            assertThat(ids.nextId("invoice")).isEqualTo(first + 1);
            assertThat(ids.decode("invoice", first).toMap())
                    .containsEntry("strategy", "ticket")
                    .containsEntry("generator", "invoice");
            assertThat(ids.decode("coupon", ids.nextId("coupon")).toMap())
                    .containsEntry("strategy", "segment")
                    .containsEntry("generator", "coupon");
            long order = ids.nextId("orders");
            assertThat(ids.decode(order).toMap())
                    .containsEntry("strategy", "snowflake")
                    .containsEntry("generator", "default");
            assertThat(ids.decode("orders", order).toMap()).containsEntry("generator", "default");
            // The ticket row and the segment row live in the tables the generators were given.
            assertThat(count("SELECT COUNT(*) FROM " + TICKETS + " WHERE name = 'invoice'"))
                    .isEqualTo(1);
            assertThat(count("SELECT COUNT(*) FROM " + SEGMENTS + " WHERE name = 'coupon'"))
                    .isEqualTo(1);
        });
    }

    @Test
    void aNamedGeneratorInheritsWhatItLeavesUnsetAndOverridesWhatItSets() {
        runner.withPropertyValues("idgen.segment.step=200").run(context -> {
            SegmentIdService coupon = (SegmentIdService) ((RoutingIdService) context.getBean(IdService.class))
                    .generators()
                    .get("coupon");
            coupon.nextId("coupon");
            // step from the generator (50), table from the top level (SEGMENTS, checked above).
            assertThat(coupon.stats("coupon"))
                    .hasValueSatisfying(stats -> assertThat(stats.step()).isEqualTo(50));
        });
    }

    @Test
    void threeGeneratorsInParallelIssueNoDuplicateWithinAnyName() {
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            List<String> names = List.of("orders", "invoice", "coupon");
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<long[]>> futures = new ArrayList<>();
                for (int thread = 0; thread < 6; thread++) {
                    String name = names.get(thread % 3);
                    int perThread = "invoice".equals(name) ? 300 : 5_000;
                    futures.add(pool.submit(() -> {
                        long[] issued = new long[perThread];
                        for (int i = 0; i < perThread; i++) {
                            issued[i] = ids.nextId(name);
                        }
                        return issued;
                    }));
                }
                Map<String, Set<Long>> byName =
                        Map.of("orders", new HashSet<>(), "invoice", new HashSet<>(), "coupon", new HashSet<>());
                int total = 0;
                for (int thread = 0; thread < futures.size(); thread++) {
                    Set<Long> seen = byName.get(names.get(thread % 3));
                    for (long id : futures.get(thread).get(5, TimeUnit.MINUTES)) {
                        assertThat(seen.add(id)).as("duplicate %s", id).isTrue();
                        total++;
                    }
                }
                assertThat(total).isEqualTo(2 * (5_000 + 300 + 5_000));
            } finally {
                pool.shutdownNow();
            }
        });
    }

    @Test
    void aNamedGeneratorsSequenceIsInjectedByItsNameAndSkipsTheLookup() {
        runner.withUserConfiguration(InvoiceClient.class).run(context -> {
            IdSequence invoice = context.getBean(InvoiceClient.class).invoice;
            assertThat(invoice.name()).isEqualTo("invoice");
            assertThat(invoice.generator()).isEqualTo("invoice");
            assertThat(invoice.strategy()).isEqualTo("ticket");
            long id = invoice.nextId();
            assertThat(context.getBean(IdService.class).nextId("invoice")).isEqualTo(id + 1);
            assertThat(invoice.decode(id).toMap()).containsEntry("generator", "invoice");
            IdSequence other = context.getBean(IdService.class).sequence("orders");
            assertThat(other.generator()).isEqualTo("default");
            assertThat(other.strategy()).isEqualTo("snowflake");
        });
    }

    @Test
    void healthHasOneComponentPerGeneratorAndMetersAreTaggedWithTheGenerator() {
        runner.run(context -> {
            IdService ids = context.getBean(IdService.class);
            ids.nextId("invoice");
            ids.nextId("coupon");
            ids.nextId("orders");
            CompositeHealthContributor health =
                    context.getBean("idgenHealthContributor", CompositeHealthContributor.class);
            assertThat(health.stream().map(entry -> entry.name())).containsExactly("default", "invoice", "coupon");
            for (String generator : List.of("default", "invoice", "coupon")) {
                var result = ((HealthIndicator) health.getContributor(generator)).health(true);
                assertThat(result.getStatus()).as(generator).isEqualTo(Status.UP);
            }
            assertThat(((HealthIndicator) health.getContributor("invoice"))
                            .health(true)
                            .getDetails())
                    .containsEntry("strategy", "ticket");
            assertThat(context).doesNotHaveBean("idgenHealthIndicator");
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("idgen.ids.generated")
                            .tag("generator", "default")
                            .tag("strategy", "snowflake")
                            .functionCounter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("idgen.ids.generated")
                            .tag("generator", "coupon")
                            .tag("strategy", "segment")
                            .functionCounter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("idgen.ticket.calls")
                            .tag("generator", "invoice")
                            .functionCounter()
                            .count())
                    .isGreaterThanOrEqualTo(1);
        });
    }

    @Test
    void withoutNamedGeneratorsTheServiceIsTheDefaultGeneratorItself() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        IdgenAutoConfiguration.class, IdgenHealthContributorAutoConfiguration.class))
                .run(context -> {
                    assertThat(context.getBean(IdService.class)).isInstanceOf(SnowflakeIdService.class);
                    assertThat(context).hasBean("idgenHealthIndicator").doesNotHaveBean("idgenHealthContributor");
                });
    }

    @Test
    void anUnknownStrategyUnderAGeneratorNamesTheFullProperty() {
        runner.withPropertyValues("idgen.generators.invoice.strategy=tickets")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.invoice.strategy");
                            assertThat(e.getValue()).isEqualTo("tickets");
                            assertThat(e.getReason()).isEqualTo("must be one of [snowflake, segment, ticket, redis]");
                        }));
    }

    @Test
    void aGeneratorNamedDefaultOrBreakingTheNameRuleIsRefused() {
        runner.withPropertyValues("idgen.generators.default.strategy=ticket")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo("idgen.generators.default")));
        runner.withPropertyValues("idgen.generators.[bad name].strategy=ticket")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo("idgen.generators.bad name")));
    }

    @Test
    void aGeneratorWhoseBackendIsMissingNamesItsStrategyProperty() {
        runner.withPropertyValues("idgen.generators.counter.strategy=redis")
                .withClassLoader(new FilteredClassLoader("io.lettuce.core"))
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOf(IdgenStartupException.class)
                        .hasMessageContaining("idgen.generators.counter.strategy=redis")
                        .hasMessageContaining("io.lettuce.core.RedisClient"));
    }

    @Test
    void twoGeneratorsOnOneTableAreRefusedNamingBothProperties() {
        runner.withPropertyValues("idgen.generators.invoice.ticket.table=" + SEGMENTS)
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.coupon.jdbc.table");
                            assertThat(e.getReason()).contains("idgen.generators.invoice.ticket.table");
                        }));
    }

    @Test
    void aGeneratorNameWithADotIsBoundWhole() {
        runner.withPropertyValues("idgen.generators.[order.v2].strategy=ticket").run(context -> {
            IdService ids = context.getBean(IdService.class);
            assertThat(((RoutingIdService) ids).generators()).containsKey("order.v2");
            assertThat(ids.decode("order.v2", ids.nextId("order.v2")).toMap())
                    .containsEntry("strategy", "ticket")
                    .containsEntry("generator", "order.v2");
        });
    }

    @Test
    void settingsTheWholeApplicationSharesAreRefusedUnderAGenerator() {
        runner.withPropertyValues("idgen.generators.coupon.redis.timeout=2s")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.coupon.redis.timeout");
                            assertThat(e.getReason()).contains("set idgen.redis.timeout instead");
                        }));
    }

    /** Every key of {@code IdgenProperties.SHARED} and {@code RedisProperties.SHARED}, one setting beneath each. */
    @ParameterizedTest
    @CsvSource({
        "redis.timeout, redis.timeout=2s",
        "redis.buckets, redis.buckets.enabled=true",
        "admin, admin.reset-enabled=true",
        "enabled, enabled=false"
    })
    void eachSharedSettingIsRefusedUnderAGenerator(String shared, String setting) {
        runner.withPropertyValues("idgen.generators.coupon." + setting)
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.coupon." + shared);
                            assertThat(e.getReason()).contains("set idgen." + shared + " instead");
                        }));
    }

    /**
     * An environment variable cannot write '-': IDGEN_GENERATORS_INVOICEEU_* binds as the generator invoiceeu, which
     * Spring Boot reads as one key with invoice-eu written in a file, so the two are refused rather than half-merged.
     */
    @Test
    void aDashedNameOverriddenByAnEnvironmentVariableIsRefusedAsTwoSpellingsOfOneName() {
        runner.withPropertyValues(
                        "idgen.generators.invoice-eu.strategy=snowflake",
                        "idgen.generators.invoice-eu.snowflake.worker-id=1")
                .withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                "test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("IDGEN_GENERATORS_INVOICEEU_SNOWFLAKE_WORKERID", "2"))))
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(
                                IdgenPropertyValueException.class,
                                e -> assertThat(e.getMessage())
                                        .contains("idgen.generators.invoice-eu")
                                        .contains("idgen.generators.invoiceeu")
                                        .contains("as one key")));
    }

    @Test
    void twoSnowflakeGeneratorsOnOneStaticWorkerIdAreRefused() {
        runner.withPropertyValues("idgen.generators.flake.strategy=snowflake")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.generators.flake.snowflake.worker-id");
                            assertThat(e.getReason()).contains("idgen.snowflake.worker-id");
                        }));
    }

    @Test
    void aPresetChosenByAGeneratorInheritsNoTopLevelLayoutPart() {
        runner.withPropertyValues(
                        "idgen.snowflake.worker-bits=12",
                        "idgen.snowflake.sequence-bits=10",
                        "idgen.generators.web.strategy=snowflake",
                        "idgen.generators.web.snowflake.worker-id=1",
                        "idgen.generators.web.snowflake.preset=javascript-safe")
                .run(context -> {
                    IdService web = ((RoutingIdService) context.getBean(IdService.class))
                            .generators()
                            .get("web");
                    long id = web.nextId("web");
                    assertThat(id).isLessThan(1L << 53);
                    assertThat(((SnowflakeIdService) web).generator().layout().workerBits())
                            .isEqualTo(6);
                });
    }

    private static long count(String sql) throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement();
                var result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class InvoiceClient {

        final IdSequence invoice;

        InvoiceClient(@Qualifier("invoice") IdSequence invoice) {
            this.invoice = invoice;
        }

        @Bean
        String invoiceClientMarker() {
            return "marker";
        }
    }
}
