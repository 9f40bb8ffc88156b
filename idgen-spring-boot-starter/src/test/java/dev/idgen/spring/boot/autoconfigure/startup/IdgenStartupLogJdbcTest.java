package dev.idgen.spring.boot.autoconfigure.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The start-up line of ticket and segment generators names their table and database (product and URL without
 * credentials), not an object's identity ({@code dev.idgen.jdbc.TicketIdService@45f70f68}). Real MariaDB.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdgenStartupLogJdbcTest {

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final String tickets = "idgen_log_tickets_" + suffix;

    private final String segments = "idgen_log_segments_" + suffix;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenStartupLogAutoConfiguration.class))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "idgen.jdbc.initialize-schema=always");

    @AfterEach
    void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + tickets);
            statement.execute("DROP TABLE IF EXISTS " + segments);
        }
    }

    @Test
    void ticketAndSegmentGeneratorsAreLoggedWithTheirTableAndDatabase(CapturedOutput output) throws Exception {
        String url;
        try (Connection connection = TestServices.mariadb().connect()) {
            // As the driver reports it (MariaDB's leaves out the default port), without parameters.
            url = connection.getMetaData().getURL().replaceAll("[?;].*$", "");
        }
        String database = " on MariaDB " + url;
        runner.withPropertyValues(
                        "idgen.strategy=ticket",
                        "idgen.ticket.table=" + tickets,
                        "idgen.generators.coupon.strategy=segment",
                        "idgen.generators.coupon.jdbc.table=" + segments)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output.getAll())
                            .containsOnlyOnce("idgen ready: generator default: strategy=ticket,"
                                    + " service=ticket table " + tickets + database
                                    + "; generator coupon: strategy=segment,"
                                    + " service=segments from table " + segments + database)
                            .doesNotContain("TicketIdService@")
                            .doesNotContain("SegmentIdService@");
                });
    }
}
