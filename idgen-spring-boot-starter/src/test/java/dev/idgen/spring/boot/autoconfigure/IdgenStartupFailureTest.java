package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
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

    private static final String MYBATIS = "org.mybatis.spring.boot:mybatis-spring-boot-starter";

    private static final String REDIS = "org.springframework.boot:spring-boot-starter-data-redis";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, MybatisAutoConfiguration.class,
                    DataRedisAutoConfiguration.class, IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class, IdgenMetricsAutoConfiguration.class))
            .withUserConfiguration(NeedsIds.class);

    private static String[] dataSource() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new String[] {"spring.datasource.url=" + mariadb.url(), "spring.datasource.username=" + mariadb.username(),
                "spring.datasource.password=" + mariadb.password()};
    }

    @Test
    void anUnknownStrategyNamesThePropertyAndItsValuesNotAMissingBean() {
        runner.withPropertyValues("idgen.strategy=foo").run(context -> assertThat(
                NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure())).isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
                        e -> {
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
        assertThat(output).contains("APPLICATION FAILED TO START").contains("idgen.strategy")
                .contains("must be one of [snowflake, segment, ticket, redis]")
                .doesNotContain("required a bean of type");
    }

    @Test
    void aMissingDependencyFailsTheApplicationWithIdgensReport(CapturedOutput output) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setResourceLoader(new org.springframework.core.io.DefaultResourceLoader(
                new FilteredClassLoader("org.apache.ibatis", "org.mybatis")));
        assertThatThrownBy(() -> application.run("--idgen.strategy=ticket", "--spring.main.banner-mode=off"))
                .isInstanceOf(IdgenStartupException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("idgen.strategy=ticket needs MyBatis with Spring, but org.apache.ibatis.session.SqlSessionFactory"
                        + " is not on the classpath")
                .contains("Action:").contains("Add the dependency " + MYBATIS);
    }

    @ParameterizedTest(name = "{0} without {1}")
    @CsvSource(delimiter = '|', value = {
            "idgen.strategy=segment | org.apache.ibatis | idgen.strategy=segment needs MyBatis with Spring | org.apache.ibatis.session.SqlSessionFactory | " + MYBATIS,
            "idgen.strategy=segment | org.mybatis | idgen.strategy=segment needs MyBatis with Spring | org.mybatis.spring.SqlSessionTemplate | " + MYBATIS,
            "idgen.strategy=ticket | org.apache.ibatis | idgen.strategy=ticket needs MyBatis with Spring | org.apache.ibatis.session.SqlSessionFactory | " + MYBATIS,
            "idgen.strategy=redis | org.apache.ibatis | idgen.strategy=redis needs MyBatis with Spring | org.apache.ibatis.session.SqlSessionFactory | " + MYBATIS,
            "idgen.strategy=redis | org.springframework.data.redis | idgen.strategy=redis needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | " + REDIS,
            "idgen.strategy=redis | io.lettuce | idgen.strategy=redis needs Spring Data Redis with Lettuce | io.lettuce.core.RedisClient | " + REDIS,
            "idgen.strategy=segment,idgen.segment.store=redis | org.springframework.data.redis | idgen.segment.store=redis needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | " + REDIS,
            "idgen.strategy=segment,idgen.segment.store=dual | org.springframework.data.redis | idgen.segment.store=dual needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | " + REDIS,
            "idgen.strategy=segment,idgen.segment.store=dual | org.apache.ibatis | idgen.segment.store=dual needs MyBatis with Spring | org.apache.ibatis.session.SqlSessionFactory | " + MYBATIS,
            "idgen.snowflake.worker-id-assigner=redis | org.springframework.data.redis | idgen.snowflake.worker-id-assigner=redis needs Spring Data Redis with Lettuce | org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory | " + REDIS,
            "idgen.redis.buckets.enabled=true | io.lettuce | idgen.redis.buckets.enabled=true needs Spring Data Redis with Lettuce | io.lettuce.core.RedisClient | " + REDIS,
    })
    void aMissingOptionalDependencyNamesTheArtifactToAdd(String properties, String hidden, String description,
            String missingClass, String coordinates) {
        runner.withClassLoader(new FilteredClassLoader(hidden)).withPropertyValues(dataSource())
                .withPropertyValues(properties.split(","))
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(IdgenStartupException.class)
                            .hasMessageContaining(description).hasMessageContaining(missingClass);
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).startsWith(description).contains(missingClass);
                    assertThat(analysis.getAction()).contains("Add the dependency " + coordinates);
                });
    }

    @ParameterizedTest
    @CsvSource({ "idgen.strategy=ticket", "idgen.snowflake.worker-id-assigner=jdbc" })
    void aMissingDataSourceSaysHowToConfigureOne(String property) {
        // No DataSource auto-configuration: the application has no database at all.
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withUserConfiguration(NeedsIds.class).withPropertyValues(property)
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).isEqualTo(property + " needs a DataSource, but there is no"
                            + " single DataSource bean");
                    assertThat(analysis.getAction()).contains("org.springframework.boot:spring-boot-starter-jdbc")
                            .contains("spring.datasource.url");
                });
    }

    @Test
    void anApplicationsOwnSegmentStoreNeedsNoMyBatis() {
        runner.withClassLoader(new FilteredClassLoader("org.apache.ibatis", "org.mybatis"))
                .withUserConfiguration(OwnSegmentStore.class).withPropertyValues("idgen.strategy=segment")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextId("orders")).isEqualTo(1);
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
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, MybatisAutoConfiguration.class,
            IdgenAutoConfiguration.class })
    @org.springframework.context.annotation.Import(NeedsIds.class)
    static class App {
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
