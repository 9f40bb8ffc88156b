package dev.idgen.spring.boot.autoconfigure.ticket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenFailureAnalyzer;
import dev.idgen.spring.boot.autoconfigure.health.IdgenHealthContributorAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The ticket table on real MariaDB: a missing table fails start-up saying how to create it, while a database that
 * does not answer at start-up does not; idgen.jdbc.initialize-schema creates the table, and so does the deprecated
 * idgen.ticket.create-table.
 */
class IdgenTicketTableTest {

    private final String table =
            "idgen_ticket_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenHealthContributorAutoConfiguration.class))
            .withPropertyValues("idgen.strategy=ticket", "idgen.ticket.table=" + table);

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private static String[] dataSource(String url) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new String[] {
            "spring.datasource.url=" + url,
            "spring.datasource.username=" + mariadb.username(),
            "spring.datasource.password=" + mariadb.password()
        };
    }

    @Test
    void aMissingTableFailsStartUpNamingItAndHowToCreateIt() {
        runner.withPropertyValues(dataSource(TestServices.mariadb().url())).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .contains("The ticket table " + table + " does not exist")
                    .contains("idgen.jdbc.initialize-schema=embedded");
            assertThat(analysis.getAction())
                    .contains("META-INF/idgen/ticket-mysql.sql")
                    .contains("idgen.jdbc.initialize-schema=always");
        });
    }

    @Test
    void theDeprecatedCreateTableFalseStillMeansNever() {
        runner.withPropertyValues(dataSource(TestServices.mariadb().url()))
                .withPropertyValues("idgen.jdbc.initialize-schema=always", "idgen.ticket.create-table=false")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasMessageContaining("The ticket table " + table + " does not exist"));
    }

    @Test
    void initializeSchemaAlwaysCreatesTheTicketTable() {
        runner.withPropertyValues(dataSource(TestServices.mariadb().url()))
                .withPropertyValues("idgen.jdbc.initialize-schema=always")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids.nextId("orders")).isEqualTo(1);
                    assertThat(ids.nextId("orders")).isEqualTo(2);
                });
    }

    @Test
    void theDeprecatedCreateTableStillCreatesIt() {
        runner.withPropertyValues(dataSource(TestServices.mariadb().url()))
                .withPropertyValues("idgen.ticket.create-table=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextId("orders"))
                            .isEqualTo(1);
                });
    }

    @Test
    void aTableCreatedByMigrationsFromTheShippedDdlIsUsed() throws Exception {
        String ddl;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/idgen/ticket-mysql.sql")) {
            ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${table}", table);
        }
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        }
        runner.withPropertyValues(dataSource(TestServices.mariadb().url()))
                .withPropertyValues("idgen.jdbc.initialize-schema=never")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdService.class).nextId("orders"))
                            .isEqualTo(1);
                });
    }

    @Test
    void aDatabaseThatDoesNotAnswerAtStartUpDoesNotFailStartUp() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        runner.withPropertyValues(dataSource("jdbc:mariadb://127.0.0.1:" + port + "/test"))
                .withPropertyValues("spring.datasource.hikari.connection-timeout=500")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("idgenHealthIndicator", HealthIndicator.class)
                                    .health()
                                    .getStatus())
                            .isEqualTo(Status.DOWN);
                    assertThatThrownBy(() -> context.getBean(IdService.class).nextId("orders"))
                            .isInstanceOf(StoreUnavailableException.class);
                });
    }

    @Test
    void theDeprecatedPropertyNamesItsReplacementInTheMetadata() throws Exception {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(metadata)
                .containsPattern("\"name\": \"idgen.ticket.create-table\",[^{}]*\"deprecated\": true")
                .containsPattern("\"replacement\": \"idgen.jdbc.initialize-schema\"");
    }
}
