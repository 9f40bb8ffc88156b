package dev.idgen.spring.boot.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.metrics.IdgenMetricsAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * Settings idgen cannot start with fail start-up saying which setting and what to do: an unknown strategy names
 * idgen.strategy and its values (not "no IdService bean"), and a missing optional dependency names the artifact to
 * add (not a NoClassDefFoundError).
 */
@ExtendWith(OutputCaptureExtension.class)
class IdgenStartupFailureTest {

    private static final String JDBC = "org.springframework.boot:spring-boot-starter-jdbc";

    private static final String DATA_SOURCE_AUTO_CONFIGURATION =
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";

    private static final String REDIS = "org.springframework.boot:spring-boot-starter-data-redis";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class))
            .withUserConfiguration(NeedsIds.class);

    /** An application without Spring Boot's JDBC support: none of its auto-configurations is even listed. */
    private final ApplicationContextRunner withoutJdbc = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    IdgenMetricsAutoConfiguration.class))
            .withClassLoader(new FilteredClassLoader("org.springframework.boot.jdbc"))
            .withUserConfiguration(NeedsIds.class);

    private static String[] dataSource() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new String[] {
            "spring.datasource.url=" + mariadb.url(),
            "spring.datasource.username=" + mariadb.username(),
            "spring.datasource.password=" + mariadb.password()
        };
    }

    @Test
    void anUnknownStrategyNamesThePropertyAndItsValuesNotAMissingBean() {
        runner.withPropertyValues("idgen.strategy=foo")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, e -> {
                            assertThat(e.getName()).isEqualTo("idgen.strategy");
                            assertThat(e.getValue()).isEqualTo("foo");
                            assertThat(e.getReason()).isEqualTo("must be one of [snowflake, segment, ticket, redis]");
                        }));
    }

    @Test
    void anUnknownStrategyFailsTheApplicationWithBootsReport(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run("--idgen.strategy=foo", "--spring.main.banner-mode=off"))
                .isInstanceOf(InvalidConfigurationPropertyValueException.class);
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains("idgen.strategy")
                .contains("must be one of [snowflake, segment, ticket, redis]")
                .doesNotContain("required a bean of type");
    }

    @Test
    void aMissingDependencyFailsTheApplicationWithIdgensReport(CapturedOutput output) {
        SpringApplication application = new SpringApplication(AppWithoutJdbc.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setResourceLoader(new org.springframework.core.io.DefaultResourceLoader(
                new FilteredClassLoader("org.springframework.boot.jdbc")));
        assertThatThrownBy(() -> application.run("--idgen.strategy=ticket", "--spring.main.banner-mode=off"))
                .isInstanceOf(IdgenStartupException.class);
        assertThat(output)
                .contains("APPLICATION FAILED TO START")
                .contains("idgen.strategy=ticket needs spring-boot-jdbc (DataSource), but "
                        + DATA_SOURCE_AUTO_CONFIGURATION + " is not on the classpath")
                .contains("Action:")
                .contains("Add the dependency " + JDBC);
    }

    @ParameterizedTest(name = "{0} without {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy=redis | org.springframework.data.redis | idgen.strategy=redis needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | "
                        + REDIS,
                "idgen.strategy=redis | io.lettuce | idgen.strategy=redis needs Spring Data Redis with Lettuce | io.lettuce.core.RedisClient | "
                        + REDIS,
                "idgen.strategy=segment,idgen.segment.store=redis | org.springframework.data.redis | idgen.segment.store=redis needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | "
                        + REDIS,
                "idgen.strategy=segment,idgen.segment.store=dual | org.springframework.data.redis | idgen.segment.store=dual needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | "
                        + REDIS,
                "idgen.snowflake.worker-id-assigner=redis | org.springframework.data.redis | idgen.snowflake.worker-id-assigner=redis needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | "
                        + REDIS,
                "idgen.redis.buckets.enabled=true | io.lettuce | idgen.redis.buckets.enabled=true needs Spring Data Redis with Lettuce | io.lettuce.core.RedisClient | "
                        + REDIS,
            })
    void aMissingOptionalDependencyNamesTheArtifactToAdd(
            String properties, String hidden, String description, String missingClass, String coordinates) {
        runner.withClassLoader(new FilteredClassLoader(hidden))
                .withPropertyValues(dataSource())
                .withPropertyValues(properties.split(","))
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                            .isInstanceOf(IdgenStartupException.class)
                            .hasMessageContaining(description)
                            .hasMessageContaining(missingClass);
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith(description)
                            .contains(missingClass);
                    assertThat(analysis.getAction()).contains("Add the dependency " + coordinates);
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.strategy=segment | idgen.strategy=segment",
                "idgen.strategy=ticket | idgen.strategy=ticket",
                "idgen.strategy=redis | idgen.strategy=redis",
                "idgen.strategy=segment,idgen.segment.store=dual | idgen.segment.store=dual",
            })
    void withoutSpringBootsJdbcSupportTheDatabaseStrategiesNameTheArtifactToAdd(String properties, String feature) {
        String description = feature + " needs spring-boot-jdbc (DataSource)";
        withoutJdbc.withPropertyValues(properties.split(",")).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            assertThat(NestedExceptionUtils.getMostSpecificCause(failure))
                    .isInstanceOf(IdgenStartupException.class)
                    .hasMessageContaining(description)
                    .hasMessageContaining(DATA_SOURCE_AUTO_CONFIGURATION);
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith(description).contains(DATA_SOURCE_AUTO_CONFIGURATION);
            assertThat(analysis.getAction()).contains("Add the dependency " + JDBC);
        });
    }

    @ParameterizedTest
    @CsvSource({"segment", "ticket"})
    void anApplicationsOwnDataSourceNeedsNoSpringBootJdbcSupport(String strategy) {
        withoutJdbc
                .withUserConfiguration(OwnDataSource.class)
                .withPropertyValues("idgen.strategy=" + strategy, "idgen.jdbc.initialize-schema=always")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextIds("orders", 3))
                            .containsExactly(1, 2, 3);
                });
    }

    @ParameterizedTest
    @CsvSource({"idgen.strategy=ticket", "idgen.snowflake.worker-id-assigner=jdbc"})
    void aMissingDataSourceSaysHowToConfigureOne(String property) {
        // No DataSource auto-configuration: the application has no database at all.
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withUserConfiguration(NeedsIds.class)
                .withPropertyValues(property)
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .isEqualTo(property + " needs a DataSource, but there is no" + " single DataSource bean");
                    assertThat(analysis.getAction())
                            .contains("org.springframework.boot:spring-boot-starter-jdbc")
                            .contains("spring.datasource.url");
                });
    }

    @Test
    void anApplicationsOwnSegmentStoreNeedsNoJdbcSupport() {
        withoutJdbc
                .withUserConfiguration(OwnSegmentStore.class)
                .withPropertyValues("idgen.strategy=segment")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextId("orders"))
                            .isEqualTo(1);
                });
    }

    @ParameterizedTest
    @CsvSource({"segment", "ticket"})
    void theDatabaseStrategiesNeedNoMyBatis(String strategy) {
        runner.withClassLoader(new FilteredClassLoader("org.apache.ibatis", "org.mybatis"))
                .withPropertyValues(
                        "idgen.strategy=" + strategy,
                        "idgen.jdbc.initialize-schema=always",
                        "spring.datasource.url=jdbc:h2:mem:idgen-" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextIds("orders", 3))
                            .containsExactly(1, 2, 3);
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
    @ImportAutoConfiguration({
        DataSourceAutoConfiguration.class,
        MybatisAutoConfiguration.class,
        IdgenAutoConfiguration.class
    })
    @org.springframework.context.annotation.Import(NeedsIds.class)
    static class App {}

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(IdgenAutoConfiguration.class)
    @org.springframework.context.annotation.Import(NeedsIds.class)
    static class AppWithoutJdbc {}

    /** A DataSource the application makes itself, without Spring Boot's JDBC support. */
    @Configuration(proxyBeanMethods = false)
    static class OwnDataSource {

        @Bean
        javax.sql.DataSource ownDataSource() {
            org.h2.jdbcx.JdbcDataSource dataSource = new org.h2.jdbcx.JdbcDataSource();
            dataSource.setURL("jdbc:h2:mem:idgen-own-" + java.util.UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            return dataSource;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnSegmentStore {

        @Bean
        SegmentStore ownSegmentStore() {
            AtomicLong max = new AtomicLong();
            return (name, step) -> {
                long end = max.addAndGet(step);
                return new Segment(end - step + 1, end);
            };
        }
    }
}
