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
 * {@code idgen.jdbc.initialize-schema=never}: the starter orders idgen's database beans after Spring Boot's database
 * initialisation (its {@code IdgenDatabaseInitializationDetector}), so the tables are there when idgen checks them.
 * Flyway needs no {@code baseline-on-migrate}: it runs into an empty schema, and records no baseline;</li>
 * <li>the same with {@code initialize-schema=always}, which still works: the migration runs first, and idgen's own
 * statements then find the tables.</li>
 * </ul>
 * Then idgen runs on all three of its tables at once: Snowflake with worker ids leased from the database
 * (idgen_worker), a segment generator (idgen_segment) and a ticket generator (idgen_ticket), and IDs are drawn from each.
 */
class MigrationsTest {

    /** When the migration runs, and what idgen is told to create itself. */
    enum Run {
        /** Flyway's or Liquibase's own API before the start; idgen creates nothing. */
        BEFORE_START("never"),
        /** Spring Boot's integration inside the start; idgen creates nothing. */
        BOOT("never"),
        /** Spring Boot's integration inside the start; idgen creates what is missing, which is nothing by then. */
        BOOT_ALWAYS("always");

        private final String initializeSchema;

        Run(String initializeSchema) {
            this.initializeSchema = initializeSchema;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(TestDatabases.values())
                .flatMap(server -> Stream.of("flyway", "liquibase")
                        .flatMap(tool -> Stream.of(Run.values()).map(run -> Arguments.of(server, tool, run))));
    }

    @ParameterizedTest(name = "{1} on {0}, {2}")
    @MethodSource("cases")
    void idgenRunsOnTheTablesTheMigrationCreated(TestDatabases server, String tool, Run run) throws Exception {
        String vendor = server.name().toLowerCase(Locale.ROOT);
        TestDatabases.Database database = server.fresh(
                "idgen_docs_" + tool + "_" + vendor + "_" + run.name().toLowerCase(Locale.ROOT));
        List<String> args = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.user(),
                "--spring.datasource.password=" + database.password(),
                "--spring.jpa.hibernate.ddl-auto=update",
                "--idgen.strategy=snowflake",
                "--idgen.snowflake.worker-id-assigner=jdbc",
                "--idgen.generators.invoice.strategy=ticket",
                "--idgen.generators.coupon.strategy=segment",
                "--idgen.jdbc.initialize-schema=" + run.initializeSchema));
        if (run == Run.BEFORE_START) {
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
            args.addAll(List.of("--spring.flyway.enabled=false", "--spring.liquibase.enabled=false"));
        } else if (tool.equals("flyway")) {
            args.addAll(List.of(
                    "--spring.liquibase.enabled=false",
                    // What docs/migrations.md tells a Flyway user to add: idgen's folder beside their own. No
                    // baseline: on a fresh database Flyway runs before idgen, into an empty schema.
                    "--spring.flyway.locations=classpath:db/migration,classpath:db/idgen/flyway/{vendor}",
                    "--spring.flyway.baseline-on-migrate=false"));
        } else {
            args.addAll(List.of(
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
                assertThat(jdbc.queryForObject(
                                "SELECT COUNT(*) FROM flyway_schema_history WHERE type = 'BASELINE'", Integer.class))
                        .as("Flyway found an empty schema, with no baseline to record")
                        .isZero();
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
