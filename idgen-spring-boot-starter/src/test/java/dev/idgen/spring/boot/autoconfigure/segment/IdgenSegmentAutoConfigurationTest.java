package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.SegmentIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.usermapper.UserMapper;
import dev.idgen.test.services.TestServices;
import java.util.UUID;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mybatis.spring.annotation.MapperScan;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

class IdgenSegmentAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class, MybatisAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withPropertyValues("idgen.strategy=segment");

    private static String h2() {
        return "spring.datasource.url=jdbc:h2:mem:idgen-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    private static String[] database(TestServices.JdbcEndpoint endpoint, String table) {
        return new String[] {
            "spring.datasource.url=" + endpoint.url(),
            "spring.datasource.username=" + endpoint.username(),
            "spring.datasource.password=" + endpoint.password(),
            "idgen.jdbc.table=" + table,
            "idgen.jdbc.initialize-schema=always"
        };
    }

    private static String table() {
        return "idgen_segment_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    @Test
    void servesSegmentsFromAnEmbeddedH2WhoseTableItCreates() {
        runner.withPropertyValues(h2(), "idgen.segment.step=100", "idgen.jdbc.initial-value=5000")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids).isInstanceOf(SegmentIdService.class);
                    assertThat(ids.nextId("orders")).isEqualTo(5001);
                    assertThat(ids.nextIds("orders", 150)).startsWith(5002).endsWith(5151);
                    assertThat(new JdbcTemplate(context.getBean(javax.sql.DataSource.class))
                                    .queryForObject(
                                            "SELECT max_id FROM idgen_segment WHERE name = 'orders'", Long.class))
                            .isGreaterThanOrEqualTo(5200);
                });
    }

    @Test
    void servesSegmentsFromMariaDb() {
        assertServesSegmentsFrom(TestServices.mariadb());
    }

    @Test
    void servesSegmentsFromPostgreSql() {
        assertServesSegmentsFrom(TestServices.postgres());
    }

    private void assertServesSegmentsFrom(TestServices.JdbcEndpoint endpoint) {
        String table = table();
        runner.withPropertyValues(database(endpoint, table)).run(context -> {
            try {
                IdService ids = context.getBean(IdService.class);
                long[] batch = ids.nextIds("orders", 2500);
                assertThat(batch).isSorted().doesNotHaveDuplicates().startsWith(1);
            } finally {
                new JdbcTemplate(context.getBean(javax.sql.DataSource.class)).execute("DROP TABLE " + table);
            }
        });
    }

    @Test
    void leavesTheApplicationsMyBatisAlone() {
        runner.withPropertyValues(h2())
                .withUserConfiguration(UserMapperConfiguration.class)
                .run(context -> {
                    assertThat(context.getBean(UserMapper.class).answer()).isEqualTo(42);
                    assertThat(context.getBean(IdService.class).nextId("orders"))
                            .isEqualTo(1);
                    // idgen reaches its table through the DataSource alone and adds nothing to the application's
                    // MyBatis.
                    assertThat(context.getBean(SqlSessionFactory.class)
                                    .getConfiguration()
                                    .getMapperRegistry()
                                    .getMappers())
                            .containsExactly(UserMapper.class);
                });
    }

    @Test
    void startsWhileTheDatabaseIsDownAndFailsCallsWithStoreUnavailable() {
        runner.withPropertyValues(
                        "spring.datasource.url=jdbc:mariadb://127.0.0.1:1/test",
                        "spring.datasource.hikari.connection-timeout=250",
                        "idgen.segment.await-timeout=2s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThatThrownBy(() -> ids.nextId("orders"))
                            .isInstanceOf(StoreUnavailableException.class)
                            .hasMessageContaining("orders");
                });
    }

    @Test
    void withoutADataSourceFailsStartUpSayingWhatIsMissing() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class))
                .withPropertyValues("idgen.strategy=segment")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("idgen.strategy=segment needs a segment store"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.segment.min-step=2000 | idgen.segment.min-step | must be between 1 and step (1000)",
                "idgen.segment.max-step=10 | idgen.segment.max-step | must be between step (1000) and 1000000000",
                "idgen.segment.step=0 | idgen.segment.step | must be between 1 and 1000000000",
                "idgen.segment.preload-threshold=1.5 | idgen.segment.preload-threshold | greater than 0 and less than 1",
                "idgen.segment.buffer-duration=10ms | idgen.segment.buffer-duration | must be between 1s and 1d",
                "idgen.segment.await-timeout=2m | idgen.segment.await-timeout | must be between 0 and 1m",
                "idgen.jdbc.table=ids;drop table x | idgen.jdbc.table | must be a table name of letters, digits",
                "idgen.jdbc.initial-value=-1 | idgen.jdbc.initial-value | must be at least 0",
                "idgen.jdbc.timeout=0s | idgen.jdbc.timeout | must be between 1s and 1m",
                "idgen.segment.first-load-timeout=6m | idgen.segment.first-load-timeout | must be between 0 and 5m",
                "idgen.max-names=0 | idgen.max-names | must be between 1 and 1000000",
            })
    void aBadPropertyFailsStartUpNamingIt(String setting, String property, String rule) {
        runner.withPropertyValues(h2(), setting)
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .isInstanceOfSatisfying(
                                InvalidConfigurationPropertyValueException.class,
                                e -> assertThat(e.getName()).isEqualTo(property))
                        .hasMessageContaining(rule));
    }

    @Configuration(proxyBeanMethods = false)
    @MapperScan(basePackageClasses = UserMapper.class)
    static class UserMapperConfiguration {}
}
