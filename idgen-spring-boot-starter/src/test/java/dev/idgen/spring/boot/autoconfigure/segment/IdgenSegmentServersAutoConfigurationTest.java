package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code idgen.segment.servers}: segments over two independent databases, the machine's MariaDB and PostgreSQL.
 */
class IdgenSegmentServersAutoConfigurationTest {

    private static final String TABLE =
            "idgen_seg_srv_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    private static final String TINYID_TABLE =
            "tiny_id_info_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenHealthContributorAutoConfiguration.class))
            .withUserConfiguration(TwoDatabases.class)
            .withPropertyValues(
                    "idgen.strategy=segment",
                    "idgen.jdbc.table=" + TABLE,
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.segment.step=100",
                    "idgen.segment.slot-size=1000",
                    "idgen.segment.servers[0].data-source=mariadb",
                    "idgen.segment.servers[1].data-source=postgres");

    @AfterAll
    static void dropTables() throws Exception {
        for (TestServices.JdbcEndpoint endpoint :
                new TestServices.JdbcEndpoint[] {TestServices.mariadb(), TestServices.postgres()}) {
            try (Connection connection = endpoint.connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + TABLE);
                statement.execute("DROP TABLE IF EXISTS " + TINYID_TABLE);
            }
        }
    }

    @Test
    void tinyidsLayoutOverTwoDatabasesGivesEachItsResidueAndTwoInstancesIssueDistinctIds() throws Exception {
        Set<Long> seen = new HashSet<>();
        for (int instance = 0; instance < 2; instance++) {
            runner.withPropertyValues("idgen.jdbc.table-layout=tinyid", "idgen.jdbc.table=" + TINYID_TABLE)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        IdService ids = context.getBean(IdService.class);
                        for (int i = 0; i < 500; i++) {
                            long id = ids.nextId("orders");
                            assertThat(seen.add(id)).as("repeat %d", id).isTrue();
                        }
                    });
        }
        Set<String> residues = new HashSet<>();
        for (TestServices.JdbcEndpoint endpoint :
                new TestServices.JdbcEndpoint[] {TestServices.mariadb(), TestServices.postgres()}) {
            try (Connection connection = endpoint.connect();
                    Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery(
                            "SELECT delta, remainder FROM " + TINYID_TABLE + " WHERE biz_type = 'orders'")) {
                assertThat(row.next()).isTrue();
                residues.add(row.getInt(1) + "/" + row.getInt(2));
            }
        }
        assertThat(residues).containsExactlyInAnyOrder("2/0", "2/1");
    }

    @Test
    void twoInstancesOverTwoDatabasesIssueDistinctIdsAndShowEachServer() {
        Set<Long> seen = new HashSet<>();
        // Two instances: each context its own store; where each starts is random, the IDs never meet.
        for (int instance = 0; instance < 2; instance++) {
            runner.run(context -> {
                IdService ids = context.getBean(IdService.class);
                long last = 0;
                for (int i = 0; i < 3000; i++) {
                    long id = ids.nextId("orders");
                    assertThat(seen.add(id)).as("repeat %d", id).isTrue();
                    assertThat(id).isGreaterThan(last);
                    last = id;
                }
                HealthIndicator indicator = context.getBean("idgenHealthIndicator", HealthIndicator.class);
                Health health = indicator.health();
                // The check returns once one server answered; the other's state follows (bounded wait).
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
                while (health.getDetails().toString().contains("UNKNOWN") && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                    health = indicator.health();
                }
                assertThat(health.getDetails())
                        .containsEntry("storeAvailable", true)
                        .containsEntry("slotSize", 1000L);
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> servers =
                        (Map<String, Map<String, Object>>) health.getDetails().get("servers");
                assertThat(servers).containsOnlyKeys("mariadb", "postgres");
                assertThat(servers.get("mariadb")).containsEntry("index", 0).containsEntry("status", "UP");
                assertThat(servers.get("postgres")).containsEntry("index", 1).containsEntry("status", "UP");
            });
        }
        assertThat(seen).hasSize(6000);
    }

    @Test
    void aNamedGeneratorListsServersOfItsOwn() {
        runner.withPropertyValues(
                        "idgen.generators.coupon.strategy=segment",
                        "idgen.generators.coupon.segment.servers[0].data-source=postgres",
                        "idgen.generators.coupon.segment.servers[1].data-source=mariadb",
                        "idgen.generators.coupon.segment.slot-size=500")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    Set<Long> seen = new HashSet<>();
                    for (int i = 0; i < 2000; i++) {
                        assertThat(seen.add(ids.nextId("coupon"))).isTrue();
                    }
                });
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "idgen.segment.servers[1].data-source=nope | idgen.segment.servers[1].data-source | no DataSource bean has that name",
                "idgen.segment.servers[1].data-source=mariadb | idgen.segment.servers[1].data-source | is listed twice",
                "idgen.segment.slot-size=0 | idgen.segment.slot-size | at least 1",
                "idgen.segment.slot-size=1000000000000 | idgen.segment.slot-size | number of servers (2)",
                "idgen.generators.coupon.segment.slot-size=-5 | idgen.generators.coupon.segment.slot-size | at least 1",
            })
    void aBadSettingFailsStartUpNamingIt(String setting, String property, String rule) {
        runner.withPropertyValues(setting, "idgen.generators.coupon.strategy=segment")
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
    static class TwoDatabases {

        @Bean(destroyMethod = "close")
        HikariDataSource mariadb() {
            return TestServices.mariadb().pool(4);
        }

        @Bean(destroyMethod = "close")
        HikariDataSource postgres() {
            return TestServices.postgres().pool(4);
        }
    }
}
