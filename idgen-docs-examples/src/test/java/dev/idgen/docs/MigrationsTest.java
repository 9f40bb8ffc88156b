package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.shop.ShopApplication;
import dev.idgen.core.IdService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import liquibase.Contexts;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The migrations idgen-jdbc ships, on a real MariaDB and a real PostgreSQL, each run into a fresh database:
 * <ul>
 * <li>Flyway and Liquibase before the application starts (their own API, as a deploy step, their CLI or their Maven
 * plugins would), then idgen starts with {@code idgen.jdbc.initialize-schema=never}, so it creates nothing itself;</li>
 * <li>Flyway and Liquibase through Spring Boot's integrations, while the application starts, beside
 * {@code idgen.jdbc.initialize-schema=always}: idgen checks its tables while the context starts, before Boot's
 * migration runs (the starter does not order its beans after database initialisation yet), so it creates them, and the
 * migration (which creates only what is missing) finds them. Flyway refuses a schema that already has tables but no
 * history, so on a fresh database it needs {@code baseline-on-migrate} with {@code baseline-version=0}.</li>
 * </ul>
 * Then idgen runs on all three of its tables at once: Snowflake with worker ids leased from the database
 * (idgen_worker), a segment generator (idgen_segment) and a ticket generator (idgen_ticket), and IDs are drawn from each.
 */
class MigrationsTest {

    static Stream<Arguments> cases() {
        return Stream.of(TestDatabases.values())
                .flatMap(server -> Stream.of("flyway", "liquibase")
                        .flatMap(tool ->
                                Stream.of(true, false).map(beforeStart -> Arguments.of(server, tool, beforeStart))));
    }

    @ParameterizedTest(name = "{1} on {0}, before the start: {2}")
    @MethodSource("cases")
    void idgenRunsOnTheTablesTheMigrationCreated(TestDatabases server, String tool, boolean beforeStart)
            throws Exception {
        String vendor = server.name().toLowerCase(Locale.ROOT);
        TestDatabases.Database database =
                server.fresh("idgen_docs_" + tool + "_" + vendor + (beforeStart ? "_before" : "_boot"));
        List<String> args = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.user(),
                "--spring.datasource.password=" + database.password(),
                "--spring.jpa.hibernate.ddl-auto=update",
                "--idgen.strategy=snowflake",
                "--idgen.snowflake.worker-id-assigner=jdbc",
                "--idgen.generators.invoice.strategy=ticket",
                "--idgen.generators.coupon.strategy=segment"));
        if (beforeStart) {
            if (tool.equals("flyway")) {
                Flyway.configure()
                        .dataSource(database.url(), database.user(), database.password())
                        .locations("classpath:db/idgen/flyway/" + vendor)
                        .load()
                        .migrate();
            } else {
                try (Connection connection =
                        DriverManager.getConnection(database.url(), database.user(), database.password())) {
                    Database liquibaseDatabase = DatabaseFactory.getInstance()
                            .findCorrectDatabaseImplementation(new JdbcConnection(connection));
                    new Liquibase(
                                    "db/changelog/idgen/idgen-tables.xml",
                                    new ClassLoaderResourceAccessor(),
                                    liquibaseDatabase)
                            .update(new Contexts());
                }
            }
            args.addAll(List.of(
                    "--idgen.jdbc.initialize-schema=never",
                    "--spring.flyway.enabled=false",
                    "--spring.liquibase.enabled=false"));
        } else if (tool.equals("flyway")) {
            args.addAll(List.of(
                    "--idgen.jdbc.initialize-schema=always",
                    "--spring.liquibase.enabled=false",
                    // What docs/migrations.md tells a Flyway user to add: idgen's folder beside their own, and a
                    // baseline below every version for the first start, when idgen's tables are already there.
                    "--spring.flyway.locations=classpath:db/migration,classpath:db/idgen/flyway/{vendor}",
                    "--spring.flyway.baseline-on-migrate=true",
                    "--spring.flyway.baseline-version=0"));
        } else {
            args.addAll(List.of(
                    "--idgen.jdbc.initialize-schema=always",
                    "--spring.flyway.enabled=false",
                    "--spring.liquibase.change-log=classpath:db/changelog/idgen/idgen-tables.xml"));
        }
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(ShopApplication.class)
                .web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new))) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            if (tool.equals("flyway")) {
                assertThat(jdbc.queryForObject(
                                "SELECT COUNT(*) FROM flyway_schema_history WHERE success"
                                        + (server == TestDatabases.MARIADB ? " = 1" : "")
                                        + " AND script = 'R__idgen_tables.sql'",
                                Integer.class))
                        .as("Flyway applied idgen's migration")
                        .isEqualTo(1);
            } else {
                assertThat(jdbc.queryForObject(
                                "SELECT COUNT(*) FROM "
                                        // Liquibase names it in capitals, and MariaDB's table names are case-sensitive
                                        // on Linux.
                                        + (server == TestDatabases.MARIADB ? "DATABASECHANGELOG" : "databasechangelog")
                                        + " WHERE id = 'idgen-tables'",
                                Integer.class))
                        .as("Liquibase applied idgen's change set")
                        .isEqualTo(1);
            }
            IdService ids = app.getBean(IdService.class);

            long snowflake = ids.nextId("orders");
            assertThat(ids.nextId("orders")).isGreaterThan(snowflake);
            assertThat(ids.nextId("invoice")).isEqualTo(1L);
            assertThat(ids.nextId("invoice")).isEqualTo(2L);
            assertThat(ids.nextId("coupon")).isEqualTo(1L);
            assertThat(ids.nextId("coupon")).isEqualTo(2L);

            assertThat(jdbc.queryForObject(
                            "SELECT COUNT(*) FROM idgen_worker WHERE worker_id >= 0 AND owner IS NOT NULL",
                            Integer.class))
                    .as("the leased worker id")
                    .isEqualTo(1);
            assertThat(jdbc.queryForObject("SELECT id FROM idgen_ticket WHERE name = 'invoice'", Long.class))
                    .isEqualTo(2L);
            assertThat(jdbc.queryForObject("SELECT max_id FROM idgen_segment WHERE name = 'coupon'", Long.class))
                    .isGreaterThanOrEqualTo(2L);
        }
    }
}
