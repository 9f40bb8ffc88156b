package dev.idgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import dev.idgen.jdbc.TicketIdService;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Generator names as the README's rule allows them (the sequence name rule: letters of either case, digits, '.', '_',
 * ':' and '-'), written the ways Spring Boot reads keys: each name binds its own settings, and a key Spring Boot would
 * bind under another name than the one written fails with a report that says what to write. Ticket rows in real
 * MariaDB.
 */
class IdgenGeneratorNamesTest {

    private final String table =
            "idgen_names_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final AtomicReference<ConfigurableEnvironment> environment = new AtomicReference<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class, MybatisAutoConfiguration.class, IdgenAutoConfiguration.class))
            .withInitializer(context -> environment.set(context.getEnvironment()))
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.mariadb().url(),
                    "spring.datasource.username=" + TestServices.mariadb().username(),
                    "spring.datasource.password=" + TestServices.mariadb().password(),
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.ticket.table=" + table + "_top");

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + table + "_top");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Invoice", "invoice_eu", "Invoice_EU-2", "invoice-daily"})
    void aNameWrittenWithoutBracketsBindsItsOwnSettings(String name) {
        runner.withPropertyValues(
                        "idgen.generators." + name + ".strategy=ticket",
                        "idgen.generators." + name + ".ticket.table=" + table)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThat(((RoutingIdService) ids).generators()).containsOnlyKeys("default", name);
                    assertThat(((RoutingIdService) ids).generators().get(name)).isInstanceOf(TicketIdService.class);
                    long first = ids.nextId(name);
                    assertThat(ids.nextId(name)).isEqualTo(first + 1);
                    assertThat(ids.decode(name, first).toMap())
                            .containsEntry("strategy", "ticket")
                            .containsEntry("generator", name);
                    assertThat(ticketRowNames())
                            .as("the table set under the name")
                            .containsExactly(name);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"Invoice", "invoice_eu", "a:b", "order.v2"})
    void aNameWrittenInBracketsBindsItsOwnSettings(String name) {
        runner.withInitializer(properties(
                        "idgen.generators.[" + name + "].strategy",
                        "ticket",
                        "idgen.generators.[" + name + "].ticket.table",
                        table))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    IdService ids = context.getBean(IdService.class);
                    assertThat(((RoutingIdService) ids).generators()).containsOnlyKeys("default", name);
                    assertThat(((RoutingIdService) ids).generators().get(name)).isInstanceOf(TicketIdService.class);
                    long first = ids.nextId(name);
                    assertThat(ids.nextId(name)).isEqualTo(first + 1);
                    assertThat(ticketRowNames())
                            .as("the table set under the name")
                            .containsExactly(name);
                });
    }

    @Test
    void aSharedSettingUnderAnUppercaseNameIsRefusedNamingThePropertyAsWritten() {
        runner.withPropertyValues(
                        "idgen.generators.Invoice.strategy=ticket", "idgen.generators.Invoice.redis.timeout=2s")
                .run(context -> {
                    FailureAnalysis report = FailureReports.report(context, environment.get());
                    assertThat(report.getDescription())
                            .contains("'idgen.generators.Invoice.redis.timeout'")
                            .contains("set idgen.redis.timeout instead")
                            .doesNotContain("Invalid characters");
                });
    }

    @Test
    void aNameBreakingTheRuleWrittenWithoutBracketsIsRefusedNotBoundAsAnotherName() {
        runner.withPropertyValues("idgen.generators.my invoice!.strategy=ticket")
                .run(context -> {
                    FailureAnalysis report = FailureReports.report(context, environment.get());
                    assertThat(report.getDescription())
                            .startsWith(
                                    "Invalid value 'my invoice!' for configuration property"
                                            + " 'idgen.generators.my invoice!': a generator's name is the sequence name it serves: name must"
                                            + " be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit, but was 'my invoice!'")
                            .contains("Spring Boot would have bound it as a generator named 'myinvoice'");
                    assertThat(report.getAction())
                            .isEqualTo(
                                    "Name the generator as IdService.nextId(name) is called: 1 to 64"
                                            + " characters of letters, digits, '.', '_', ':' and '-', the first a letter or digit (write a"
                                            + " name with '.' or ':' in brackets, for example idgen.generators.[order.v2].strategy)");
                });
        runner.withPropertyValues("idgen.generators.[my invoice!].strategy=ticket")
                .run(context -> {
                    FailureAnalysis report = FailureReports.report(context, environment.get());
                    assertThat(report.getDescription())
                            .startsWith(
                                    "Invalid value 'my invoice!' for configuration property"
                                            + " 'idgen.generators.my invoice!': a generator's name is the sequence name it serves");
                    assertThat(report.getAction()).startsWith("Name the generator as IdService.nextId(name) is called");
                });
    }

    @Test
    void aValidNameWhoseCharactersSpringBootWouldDropSaysToWriteItInBrackets() {
        runner.withInitializer(properties("idgen.generators.a:b.strategy", "ticket"))
                .run(context -> {
                    FailureAnalysis report = FailureReports.report(context, environment.get());
                    assertThat(report.getDescription())
                            .startsWith(
                                    "Invalid value 'a:b' for configuration property"
                                            + " 'idgen.generators.a:b': Spring Boot drops the characters other than letters, digits, '_' and"
                                            + " '-' from a key written without brackets, and would bind it as a generator named 'ab'");
                    assertThat(report.getAction())
                            .isEqualTo("Write the name in brackets:"
                                    + " idgen.generators.[a:b].strategy (in YAML, the key \"[a:b]\")");
                });
    }

    @Test
    void twoNamesSpringBootReadsAsOneKeyAreRefused() {
        runner.withPropertyValues(
                        "idgen.generators.Invoice.strategy=ticket", "idgen.generators.invoice.ticket.table=" + table)
                .run(context -> {
                    FailureAnalysis report = FailureReports.report(context, environment.get());
                    assertThat(report.getDescription())
                            .contains("idgen.generators.Invoice")
                            .contains("idgen.generators.invoice")
                            .contains("generator names must differ in more than case, '-' and '_'");
                    assertThat(report.getAction())
                            .startsWith("Write one generator's settings under a single" + " spelling of its name");
                });
    }

    /** Properties as an application.properties file holds them ({@code withPropertyValues} splits keys at ':'). */
    private static ApplicationContextInitializer<ConfigurableApplicationContext> properties(String... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return context -> context.getEnvironment()
                .getPropertySources()
                .addFirst(new MapPropertySource("application.properties", map));
    }

    private java.util.List<String> ticketRowNames() throws Exception {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT name FROM " + table + " WHERE name NOT LIKE '#%'")) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }
}
