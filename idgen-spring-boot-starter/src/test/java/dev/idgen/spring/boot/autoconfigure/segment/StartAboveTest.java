package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Segments and tickets taking over from an auto-increment column on real MariaDB: a name's first ID is above the
 * column's highest value, read at its first load, and above start-above; a bad or missing column fails start-up naming
 * the setting. And a store switch without history: a fresh install starts at the initial value.
 */
class StartAboveTest {

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private final String orders = "auto_orders_" + suffix;
    private final String table = "idgen_start_" + suffix;

    @BeforeEach
    void createAutoIncrementTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + orders + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, note VARCHAR(8))");
            statement.execute("INSERT INTO " + orders + " (note) VALUES ('a'), ('b'), ('c')");
            statement.execute("INSERT INTO " + orders + " (id, note) VALUES (70000, 'd')");
        }
    }

    @AfterEach
    void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + orders);
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private ApplicationContextRunner runner(String strategy) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + mariadb.url(),
                        "spring.datasource.username=" + mariadb.username(),
                        "spring.datasource.password=" + mariadb.password(),
                        "idgen.strategy=" + strategy,
                        "idgen.jdbc.table=" + table,
                        "idgen.ticket.table=" + table,
                        "idgen.jdbc.initialize-schema=always");
    }

    @Test
    void segmentsStartAboveTheColumnAndAboveStartAbove() throws Exception {
        runner("segment")
                .withPropertyValues(
                        "idgen.segment.names.orders.start-above-max-of=" + orders + ".id",
                        "idgen.segment.names.users.start-above=500")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids.nextId("orders")).isEqualTo(70001);
                    assertThat(ids.nextId("users")).isEqualTo(501);
                    // A name without a setting is a fresh install's: it starts at the initial value.
                    assertThat(ids.nextId("events")).isEqualTo(1);
                });
        // The auto-increment column moves on meanwhile (its writers were not stopped): the next instance reads it
        // again before its first block, and the row, already past the old maximum, is raised past the new one.
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO " + orders + " (id, note) VALUES (900000, 'e')");
        }
        runner("segment")
                .withPropertyValues(
                        "idgen.segment.names.orders.start-above-max-of=" + orders + ".id",
                        "idgen.segment.start-above=100")
                .run(context -> {
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids.nextId("orders")).isEqualTo(900001);
                    assertThat(ids.nextId("events")).isGreaterThan(100);
                });
    }

    @Test
    void ticketsStartAboveTheColumn() {
        runner("ticket")
                .withPropertyValues("idgen.ticket.names.orders.start-above-max-of=" + orders + ".id")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThat(ids.nextId("orders")).isEqualTo(70001);
                    assertThat(ids.nextId("orders")).isEqualTo(70002);
                    assertThat(ids.nextId("users")).isEqualTo(1);
                });
        runner("ticket")
                .withPropertyValues("idgen.ticket.start-above=1000000")
                .run(context -> assertThat(context.getBean(IdService.class).nextId("users"))
                        .isEqualTo(1000001));
    }

    @Test
    void aBadOrMissingColumnFailsStartUpNamingTheSetting() {
        runner("segment")
                .withPropertyValues("idgen.segment.names.orders.start-above-max-of=orders; DROP TABLE x")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("idgen.segment.names.orders.start-above-max-of")
                        .contains("table.column"));
        runner("segment")
                .withPropertyValues("idgen.segment.names.orders.start-above-max-of=" + orders + ".missing")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("idgen.segment.names.orders.start-above-max-of"));
        runner("ticket")
                .withPropertyValues("idgen.ticket.names.orders.start-above-max-of=no_such_table_" + suffix + ".id")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("idgen.ticket.names.orders.start-above-max-of"));
        runner("segment")
                .withPropertyValues("idgen.segment.names.orders.start-above-max-of=" + orders + ".note")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("idgen.segment.names.orders.start-above-max-of")
                        .contains("whole numbers"));
        runner("segment")
                .withPropertyValues("idgen.segment.start-above=-1")
                .run(context ->
                        assertThat(messages(context.getStartupFailure())).contains("idgen.segment.start-above"));
        runner("segment")
                .withPropertyValues("idgen.segment.names[bad name].start-above=1")
                .run(context ->
                        assertThat(messages(context.getStartupFailure())).contains("idgen.segment.names"));
        runner("segment")
                .withPropertyValues("idgen.segment.switch-from=jdbc")
                .run(context -> assertThat(messages(context.getStartupFailure()))
                        .contains("idgen.segment.switch-from")
                        .contains("is the store the generator is on"));
    }

    private static String messages(Throwable failure) {
        assertThat(failure).as("start-up failed").isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
