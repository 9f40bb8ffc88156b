package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.endpoint.IdgenEndpoint;
import dev.idgen.spring.boot.autoconfigure.endpoint.IdgenEndpointAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A segment generator just started, no ID drawn yet: its name's first block has not loaded, and health and the
 * endpoint say so ({@code "loaded": false}) instead of {@code "remaining": 0} beside UP. Real MariaDB.
 */
class SegmentNameNotLoadedTest {

    private final String table =
            "idgen_notloaded_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class,
                    IdgenEndpointAutoConfiguration.class,
                    EndpointAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "management.endpoints.web.exposure.include=idgen",
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.jdbc.table=" + table,
                    "idgen.generators.coupon.strategy=segment");

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aNameWhoseFirstBlockHasNotLoadedIsShownAsNotLoadedWhileUp() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            HealthIndicator coupon =
                    (HealthIndicator) context.getBean("idgenHealthContributor", CompositeHealthContributor.class)
                            .getContributor("coupon");
            Health health = coupon.health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            Map<String, Object> names =
                    (Map<String, Object>) health.getDetails().get("names");
            assertThat(names)
                    .as("the named generator's name is registered at start-up")
                    .containsOnlyKeys("coupon");
            assertThat((Map<String, Object>) names.get("coupon"))
                    .containsEntry("loaded", false)
                    .doesNotContainKeys("remaining", "step");

            Map<String, Object> endpoint =
                    (Map<String, Object>) ((Map<String, Object>) context.getBean(IdgenEndpoint.class)
                                    .generator("coupon")
                                    .get("segments"))
                            .get("names");
            assertThat((Map<String, Object>) endpoint.get("coupon"))
                    .containsEntry("loaded", false)
                    .doesNotContainKeys("remaining", "step")
                    .containsEntry("loads", 0L);

            // Once an ID is drawn, the block is there: what is left of it, and no "loaded" flag.
            context.getBean(IdService.class).nextId("coupon");
            Map<String, Object> loaded = (Map<String, Object>)
                    ((Map<String, Object>) coupon.health(true).getDetails().get("names")).get("coupon");
            assertThat(loaded)
                    .doesNotContainKey("loaded")
                    .containsKey("step")
                    .hasEntrySatisfying(
                            "remaining",
                            remaining -> assertThat((Long) remaining).isPositive());
        });
    }
}
