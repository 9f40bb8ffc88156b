package dev.idgen.spring.boot.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.spi.WorkerIdLeaseStore;
import dev.idgen.jdbc.JdbcWorkerIdLeaseStore;
import dev.idgen.jdbc.SchemaInitialization;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Each way idgen can fail to start, through the failure analyzers registered in {@code META-INF/spring.factories}
 * (Spring Boot's and idgen's, in their order, as Boot's report picks the first that answers): the report's
 * Description and Action. Tables are missing on real MariaDB and PostgreSQL; every worker id is leased on a real
 * database table.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdgenFailureReportTest {

    private final String table =
            "idgen_report_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    /** The environment of the context that failed, where Boot's analyzers look up where a property was set. */
    private final AtomicReference<ConfigurableEnvironment> environment = new AtomicReference<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class))
            .withUserConfiguration(NeedsIds.class)
            .withInitializer(context -> environment.set(context.getEnvironment()));

    @AfterEach
    void dropTable() throws Exception {
        for (TestServices.JdbcEndpoint database : List.of(TestServices.mariadb(), TestServices.postgres())) {
            try (Connection connection = database.connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static TestServices.JdbcEndpoint database(String name) {
        return switch (name) {
            case "mariadb" -> TestServices.mariadb();
            case "postgresql" -> TestServices.postgres();
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static String[] dataSource(TestServices.JdbcEndpoint database) {
        return new String[] {
            "spring.datasource.url=" + database.url(),
            "spring.datasource.username=" + database.username(),
            "spring.datasource.password=" + database.password()
        };
    }

    /**
     * What Spring Boot's report would say: the registered analyzers, sorted as Boot sorts them, the first that
     * answers.
     */
    private FailureAnalysis report(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        Throwable failure = context.getStartupFailure();
        ConfigurableEnvironment environment = this.environment.get();
        SpringFactoriesLoader.ArgumentResolver arguments = SpringFactoriesLoader.ArgumentResolver.of(
                        Environment.class, environment)
                .and(ConfigurableEnvironment.class, environment)
                .and(BeanFactory.class, new DefaultListableBeanFactory());
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(
                        IdgenFailureReportTest.class.getClassLoader())
                .load(
                        FailureAnalyzer.class,
                        arguments,
                        SpringFactoriesLoader.FailureHandler.logging(LogFactory.getLog(IdgenFailureReportTest.class)));
        assertThat(analyzers)
                .hasAtLeastOneElementOfType(IdgenFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(IdgenPropertyFailureAnalyzer.class);
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        throw new AssertionError("No failure analyzer reported " + failure, failure);
    }

    @Test
    void anUnknownStrategySaysWhichValuesAreAllowed() {
        runner.withPropertyValues("idgen.strategy=snowflak").run(context -> {
            FailureAnalysis report = report(context);
            assertThat(report.getDescription())
                    .startsWith("Invalid value 'snowflak' for configuration property"
                            + " 'idgen.strategy' (originating from '")
                    .endsWith("'): must be one of [snowflake, segment," + " ticket, redis]");
            assertThat(report.getAction())
                    .isEqualTo("Set idgen.strategy to one of snowflake, segment, ticket, redis"
                            + " (unset, it is snowflake)");
        });
        runner.withPropertyValues("idgen.generators.invoice.strategy=tiket")
                .run(context -> assertThat(report(context).getAction())
                        .isEqualTo("Set idgen.generators.invoice.strategy to one of snowflake,"
                                + " segment, ticket, redis (unset, it is snowflake)"));
    }

    @Test
    void anUnknownStrategyFailsTheApplicationWithIdgensAction(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run("--idgen.strategy=foo", "--spring.main.banner-mode=off"))
                .isInstanceOf(InvalidConfigurationPropertyValueException.class);
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains("Invalid value 'foo' for configuration property 'idgen.strategy' (originating from"
                        + " '\"idgen.strategy\" from property source \"commandLineArgs\"'): must be one of"
                        + " [snowflake, segment, ticket, redis]")
                .contains("Action:")
                .contains("Set idgen.strategy to one of snowflake, segment, ticket, redis");
    }

    @Test
    void anUnknownStoreIsReportedListingTheValues() {
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=k8s").run(context -> {
            FailureAnalysis report = report(context);
            assertThat(report.getDescription())
                    .contains("idgen.snowflake.worker-id-assigner")
                    .contains("k8s");
            assertThat(report.getAction())
                    .isEqualTo("Set idgen.snowflake.worker-id-assigner to one of static, redis, jdbc, ordinal,"
                            + " leaf-zookeeper, etcd, zookeeper");
        });
    }

    @ParameterizedTest(name = "{0} without {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy=redis | org.springframework.data.redis | idgen.strategy=redis needs Spring Data Redis with Lettuce | org.springframework.boot:spring-boot-starter-data-redis",
                "idgen.strategy=redis | io.lettuce | idgen.strategy=redis needs Spring Data Redis with Lettuce | org.springframework.boot:spring-boot-starter-data-redis",
                "idgen.strategy=segment | org.springframework.boot.jdbc | idgen.strategy=segment needs spring-boot-jdbc (DataSource) | org.springframework.boot:spring-boot-starter-jdbc",
                "idgen.strategy=ticket | org.springframework.boot.jdbc | idgen.strategy=ticket needs spring-boot-jdbc (DataSource) | org.springframework.boot:spring-boot-starter-jdbc",
            })
    void aMissingBackendLibrarySaysWhatToAdd(String setting, String hidden, String description, String artifact) {
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataRedisAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(hidden))
                .withUserConfiguration(NeedsIds.class)
                .withInitializer(context -> environment.set(context.getEnvironment()))
                .withPropertyValues(setting)
                .run(context -> {
                    FailureAnalysis report = report(context);
                    assertThat(report.getDescription()).startsWith(description).contains("is not on the classpath");
                    assertThat(report.getAction()).startsWith("Add the dependency " + artifact);
                });
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy=segment | mariadb | idgen.jdbc.table | segment | segment table | META-INF/idgen/segment-mysql.sql",
                "idgen.strategy=segment | postgresql | idgen.jdbc.table | segment | segment table | META-INF/idgen/segment-postgresql.sql",
                "idgen.snowflake.worker-id-assigner=jdbc | mariadb | idgen.jdbc.worker-table | worker | worker id lease table | META-INF/idgen/worker-mysql.sql",
                "idgen.snowflake.worker-id-assigner=jdbc | postgresql | idgen.jdbc.worker-table | worker | worker id lease table | META-INF/idgen/worker-postgresql.sql",
            })
    void aMissingTableNamesItTheDdlAndThePropertyThatCreatesIt(
            String feature, String database, String tableProperty, String kind, String words, String ddl) {
        runner.withPropertyValues(dataSource(database(database)))
                .withPropertyValues(feature, tableProperty + "=" + table)
                .run(context -> {
                    FailureAnalysis report = report(context);
                    assertThat(report.getDescription())
                            .isEqualTo(feature + " needs the " + words + " " + table + " ("
                                    + tableProperty
                                    + "), but it does not exist in the database, and idgen does not create it"
                                    + " (idgen.jdbc.initialize-schema=embedded, which creates it on an embedded H2 database"
                                    + " only)");
                    assertThat(report.getAction())
                            .isEqualTo("Create the table with the DDL idgen ships in " + ddl
                                    + " (replace ${table} with " + table
                                    + "), for example from your database migrations (the Flyway and Liquibase"
                                    + " migrations idgen ships create the default name, idgen_" + kind
                                    + ", only; see docs/migrations.md);"
                                    + " or set idgen.jdbc.initialize-schema=always to let idgen create its tables at start-up"
                                    + " (every generator inherits it unless it sets jdbc.initialize-schema itself)");
                });
        runner.withPropertyValues(dataSource(database(database)))
                .withPropertyValues(feature, tableProperty + "=" + table, "idgen.jdbc.initialize-schema=always")
                .run(context -> {
                    assertThat(context)
                            .as("the property the report names creates the table")
                            .hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextId("orders"))
                            .isPositive();
                });
    }

    /** A table of its default name: idgen's Flyway and Liquibase migrations create it, and the report says so. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy=segment | idgen_segment | META-INF/idgen/segment-h2.sql",
                "idgen.snowflake.worker-id-assigner=jdbc | idgen_worker | META-INF/idgen/worker-h2.sql",
                "idgen.strategy=ticket | idgen_ticket | META-INF/idgen/ticket-h2.sql",
            })
    void aMissingTableOfItsDefaultNamePointsAtIdgensMigrations(String feature, String defaultTable, String ddl) {
        runner.withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:idgen-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        feature,
                        "idgen.jdbc.initialize-schema=never")
                .run(context -> assertThat(report(context).getAction())
                        .isEqualTo("Create the table with the DDL idgen ships in " + ddl + " (replace ${table} with "
                                + defaultTable + "), for example from your database migrations, or include idgen's"
                                + " migrations, which create it (Flyway: add classpath:db/idgen/flyway/{vendor} to"
                                + " spring.flyway.locations; Liquibase: include db/changelog/idgen/idgen-tables.xml;"
                                + " see docs/migrations.md); or set idgen.jdbc.initialize-schema=always to let idgen"
                                + " create its tables at start-up (every generator inherits it unless it sets"
                                + " jdbc.initialize-schema itself)"));
    }

    @Test
    void aMissingTableOfANamedGeneratorNamesItsOwnProperties() {
        runner.withPropertyValues(dataSource(TestServices.postgres()))
                .withPropertyValues(
                        "idgen.generators.invoice.strategy=segment",
                        "idgen.generators.invoice.jdbc.table=" + table,
                        "idgen.generators.invoice.jdbc.initialize-schema=never")
                .run(context -> {
                    FailureAnalysis report = report(context);
                    assertThat(report.getDescription())
                            .isEqualTo("idgen.generators.invoice.strategy=segment needs the"
                                    + " segment table " + table
                                    + " (idgen.generators.invoice.jdbc.table), but it does not"
                                    + " exist in the database, and idgen does not create it"
                                    + " (idgen.generators.invoice.jdbc.initialize-schema=never)");
                    assertThat(report.getAction())
                            .contains("META-INF/idgen/segment-postgresql.sql")
                            .endsWith("or set idgen.jdbc.initialize-schema=always to let idgen create its tables at"
                                    + " start-up (every generator inherits it unless it sets jdbc.initialize-schema"
                                    + " itself), or idgen.generators.invoice.jdbc.initialize-schema=always for this"
                                    + " generator's table only");
                });
    }

    /**
     * The user's path: two generators of their own, on tables that do not exist yet. The report of the first names
     * the key that creates every table, not only its own; following it starts the application with both tables.
     */
    @Test
    void aMissingTableOfANamedGeneratorSuggestsTheKeyThatCreatesEveryTable() {
        String tickets = table + "_t";
        String[] generators = {
            "idgen.generators.invoice.strategy=ticket",
            "idgen.generators.invoice.ticket.table=" + tickets,
            "idgen.generators.coupon.strategy=segment",
            "idgen.generators.coupon.jdbc.table=" + table
        };
        try {
            // Each kind of table alone: the ticket table has a check of its own.
            for (String[] one :
                    List.of(new String[] {generators[0], generators[1]}, new String[] {generators[2], generators[3]})) {
                String name = one[0].substring("idgen.generators.".length(), one[0].indexOf(".strategy"));
                runner.withPropertyValues(dataSource(TestServices.mariadb()))
                        .withPropertyValues(one)
                        .run(context -> {
                            FailureAnalysis report = report(context);
                            assertThat(report.getAction())
                                    .as(name)
                                    .endsWith("or set idgen.jdbc.initialize-schema=always to"
                                            + " let idgen create its tables at start-up (every generator inherits it unless it sets"
                                            + " jdbc.initialize-schema itself), or idgen.generators." + name
                                            + ".jdbc.initialize-schema"
                                            + "=always for this generator's table only");
                        });
            }
            runner.withPropertyValues(dataSource(TestServices.mariadb()))
                    .withPropertyValues(generators)
                    .withPropertyValues("idgen.jdbc.initialize-schema=always")
                    .run(context -> {
                        assertThat(context)
                                .as("the key the report suggests first creates every table")
                                .hasNotFailed();
                        IdService ids = context.getBean(IdService.class);
                        assertThat(ids.nextId("invoice")).isPositive();
                        assertThat(ids.nextId("coupon")).isPositive();
                    });
        } finally {
            try (Connection connection = TestServices.mariadb().connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + tickets);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void aMissingTicketTableOnPostgresqlNamesTheDdl() {
        runner.withPropertyValues(dataSource(TestServices.postgres()))
                .withPropertyValues("idgen.strategy=ticket", "idgen.ticket.table=" + table)
                .run(context -> {
                    FailureAnalysis report = report(context);
                    assertThat(report.getDescription())
                            .startsWith("The ticket table " + table + " does not exist")
                            .contains("idgen.jdbc.initialize-schema=embedded");
                    assertThat(report.getAction())
                            .contains("META-INF/idgen/ticket-postgresql.sql")
                            .contains("idgen.jdbc.initialize-schema=always");
                });
    }

    @Test
    void aMissingTableFailsTheApplicationWithIdgensReport(CapturedOutput output) {
        TestServices.JdbcEndpoint postgres = TestServices.postgres();
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run(
                        "--spring.main.banner-mode=off",
                        "--idgen.strategy=segment",
                        "--idgen.jdbc.table=" + table,
                        "--spring.datasource.url=" + postgres.url(),
                        "--spring.datasource.username=" + postgres.username(),
                        "--spring.datasource.password=" + postgres.password()))
                .isInstanceOf(org.springframework.beans.factory.BeanCreationException.class);
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains("Description:")
                .contains("idgen.strategy=segment needs the segment table " + table + " (idgen.jdbc.table), but it"
                        + " does not exist in the database")
                .contains("Action:")
                .contains("Create the table with the DDL idgen ships in" + " META-INF/idgen/segment-postgresql.sql");
    }

    @ParameterizedTest
    @CsvSource({"mariadb", "postgresql"})
    void everyWorkerIdLeasedByAnotherInstanceSaysWhereAndWhatToDo(String database) {
        TestServices.JdbcEndpoint endpoint = database(database);
        try (com.zaxxer.hikari.HikariDataSource pool = endpoint.pool(2)) {
            WorkerIdLeaseStore other =
                    new JdbcWorkerIdLeaseStore(pool, table, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
            // Worker bits 0: one worker id, held by an instance that is not this application.
            assertThat(other.acquire("another-instance", 0, Duration.ofMinutes(10), Duration.ofSeconds(5))
                            .isGranted())
                    .isTrue();
            runner.withPropertyValues(dataSource(endpoint))
                    .withPropertyValues(
                            "idgen.snowflake.worker-id-assigner=jdbc",
                            "idgen.jdbc.worker-table=" + table,
                            "idgen.snowflake.worker-bits=0")
                    .run(context -> {
                        FailureAnalysis report = report(context);
                        assertThat(report.getDescription())
                                .startsWith("idgen.snowflake.worker-id-assigner=jdbc found"
                                        + " no free worker id in the worker id lease table " + table
                                        + " (idgen.jdbc.worker-table): No worker id from 0 to 0 is free")
                                .endsWith("The layout's worker ids are 0 to 0 (idgen.snowflake.worker-bits=0)");
                        assertThat(report.getAction())
                                .isEqualTo("Stop an instance that holds one (an instance that"
                                        + " stopped without releasing its lease frees it after idgen.snowflake.lease.ttl=PT30S"
                                        + " plus idgen.snowflake.lease.reuse-delay=PT5S), give the layout more worker bits"
                                        + " (idgen.snowflake.worker-bits, taken from idgen.snowflake.sequence-bits or"
                                        + " timestamp-bits), or let start-up wait longer for one with"
                                        + " idgen.snowflake.lease.acquire-timeout");
                    });
        }
    }

    @Test
    void aRedisWithPersistenceThatCouldRepeatIdsSaysWhatToChange() throws Exception {
        try (dev.idgen.test.services.OwnRedis redis = dev.idgen.test.services.OwnRedis.start("--save", "60 1")) {
            runner.withPropertyValues(dataSource(TestServices.mariadb()))
                    .withPropertyValues(
                            "idgen.strategy=redis",
                            "idgen.jdbc.initialize-schema=always",
                            "idgen.jdbc.table=" + table,
                            "spring.data.redis.host=127.0.0.1",
                            "spring.data.redis.port=" + redis.port())
                    .run(context -> {
                        FailureAnalysis report = report(context);
                        assertThat(report.getDescription())
                                .startsWith("idgen.strategy=redis: ")
                                .contains("could come back after a restart with counters older than the IDs it"
                                        + " already handed out")
                                .contains("save='60 1'")
                                .doesNotContain("Run it without persistence");
                        assertThat(report.getAction())
                                .isEqualTo("Run Redis without persistence (save \"\","
                                        + " appendonly no: idgen then continues from the database) or with appendonly yes and"
                                        + " appendfsync always; or, where CONFIG is disabled or you accept the risk, set"
                                        + " idgen.redis.verify-persistence=false");
                    });
        }
    }

    @Test
    void aLayoutPastItsEndOfLifeSaysWhichSettingsMakeOneThatLasts() {
        runner.withPropertyValues(
                        "idgen.snowflake.epoch=2016-05-20T00:00:00Z",
                        "idgen.snowflake.time-unit=seconds",
                        "idgen.snowflake.timestamp-bits=28",
                        "idgen.snowflake.worker-bits=22",
                        "idgen.snowflake.sequence-bits=13")
                .run(context -> {
                    FailureAnalysis report = report(context);
                    assertThat(report.getDescription())
                            .startsWith("Invalid value '28' for configuration property"
                                    + " 'idgen.snowflake.timestamp-bits' (originating from '")
                            .contains("ran out at 2024-11-20T21:24:16Z");
                    assertThat(report.getAction())
                            .isEqualTo(
                                    "Choose a layout that lasts: more"
                                            + " idgen.snowflake.timestamp-bits (taken from idgen.snowflake.worker-bits or"
                                            + " idgen.snowflake.sequence-bits: the three sum to at most 63),"
                                            + " idgen.snowflake.time-unit=seconds, or a later idgen.snowflake.epoch (at most now). If"
                                            + " IDs of an earlier layout are stored, check that the new layout's IDs stay above them");
                });
    }

    @Test
    void anOrdinalHostNameWithoutOrdinalIsReportedByIdgen() {
        runner.withPropertyValues("idgen.snowflake.worker-id-assigner=ordinal", "HOSTNAME=build-box")
                .run(context -> {
                    FailureAnalysis report = report(context);
                    assertThat(report.getDescription())
                            .contains("the host name 'build-box'")
                            .contains("'.*-(\\d+)$'")
                            .contains("0 to 1023");
                    assertThat(report.getAction()).contains("idgen.snowflake.ordinal.pattern");
                });
    }

    /** An application bean that injects IdService, as the sample's controller does. */
    @Configuration(proxyBeanMethods = false)
    static class NeedsIds {

        @Bean
        Object idsUser(IdService ids) {
            return ids.strategy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class})
    @org.springframework.context.annotation.Import(NeedsIds.class)
    static class App {}
}
