package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.shop.OrderService;
import com.example.shop.PurchaseOrder;
import com.example.shop.PurchaseOrderRepository;
import com.example.shop.ShopApplication;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * docs/first-application.md followed as a user would, against a real MariaDB and a real PostgreSQL.
 *
 * <p>What the page tells the user to type is taken from the page and run: the SQL block marked {@code <!-- run:
 * mariadb -->} or {@code <!-- run: postgresql -->} as the server's administrator, and the {@code export} lines of the
 * block marked {@code <!-- run: shell -->}. Only the placeholders are substituted: the database and user name
 * {@code shop} becomes a name of the test's own (unique per run, dropped afterwards, so other tests and concurrent
 * builds do not clash), the password {@code change-me} a random one, and the host and port those of the test's server.
 *
 * <p>The block's {@code mvn spring-boot:run} is not run through Maven (building a generated project would take
 * minutes): the application is started in this JVM with {@link SpringApplicationBuilder}, from the sources the page
 * shows (src/main/java/com/example/shop, checked against the page by {@link FirstApplicationDocsTest}) and the page's
 * application.yml from examples/{mariadb,postgresql} as is, except its URL and user name (the substituted
 * placeholders). The exported {@code DB_PASSWORD} reaches the application as a command-line property of the same name,
 * which the YAML's {@code ${DB_PASSWORD}} resolves the way it resolves an environment variable. Then the application's
 * output must hold the lines the page promises ({@code <!-- output: first run -->}, {@code <!-- output: second run
 * -->}), and the rows must be where the page says. The test PostgreSQL trusts local connections, so there the password
 * is not checked by the server; MariaDB checks it.
 */
@ExtendWith(OutputCaptureExtension.class)
class FirstApplicationTest {

    static final String PAGE = "docs/first-application.md";
    static final String DATABASE_AND_USER = "shop";
    private static final Pattern EXPORT = Pattern.compile("export ([A-Z_]+)=(\\S+)");

    @ParameterizedTest
    @EnumSource(TestDatabases.class)
    void aUserFollowingThePageSeesTheIdsItPromises(TestDatabases server, CapturedOutput output) {
        String markdown = Docs.read(Docs.root().resolve(PAGE));
        String folder = server.name().toLowerCase(Locale.ROOT);
        Map<String, String> exported = exports(markdown);
        String documentedPassword = exported.get("DB_PASSWORD");
        assertThat(documentedPassword).as("%s exports DB_PASSWORD", PAGE).isNotNull();
        String yaml = Docs.read(Docs.root().resolve("idgen-docs-examples/examples/" + folder + "/application.yml"));
        assertThat(yaml)
                .as("the application.yml connects as the user the page creates, to its database")
                .contains("username: " + DATABASE_AND_USER + "\n", "/" + DATABASE_AND_USER + "\n")
                .contains("password: ${DB_PASSWORD}\n");

        String name =
                "idgen_first_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String password = "pw" + UUID.randomUUID().toString().replace("-", "");
        String sql = sqlBlock(markdown, folder);
        assertThat(sql)
                .as("the SQL gives the user the password the page exports as DB_PASSWORD")
                .contains("'" + documentedPassword + "'");
        List<String> statements = statements(
                sql.replaceAll("\\b" + DATABASE_AND_USER + "\\b", name).replace(documentedPassword, password));
        Map<String, String> environment = new LinkedHashMap<>(exported);
        environment.put("DB_PASSWORD", password);

        server.dropDatabaseAndUser(name);
        try {
            server.runAsAdministrator(statements);

            try (ConfigurableApplicationContext shop = runAsTheUser(server, folder, name, environment)) {
                assertThat(output.getAll())
                        .contains("idgen ready: strategy=segment")
                        .contains(promised(markdown, "first run"));

                OrderService orders = shop.getBean(OrderService.class);
                PurchaseOrder next = orders.place("pen");
                assertThat(next.getId()).isEqualTo(2L);
                assertThat(shop.getBean(PurchaseOrderRepository.class).findById(next.getId()))
                        .hasValueSatisfying(order -> assertThat(order.getItem()).isEqualTo("pen"));
                JdbcTemplate jdbc = shop.getBean(JdbcTemplate.class);
                assertThat(jdbc.queryForObject("SELECT item FROM purchase_orders WHERE id = 1", String.class))
                        .isEqualTo("book");
                assertThat(jdbc.queryForObject("SELECT max_id FROM idgen_segment WHERE name = 'orders'", Long.class))
                        .as("the block the orders came from")
                        .isEqualTo(1000L);
                assertThat(orders.nextTrackingNumber()).isEqualTo(2L);
            }

            int firstRun = output.getAll().length();
            try (ConfigurableApplicationContext again = runAsTheUser(server, folder, name, environment)) {
                assertThat(output.getAll().substring(firstRun)).contains(promised(markdown, "second run"));
            }
        } finally {
            server.dropDatabaseAndUser(name);
        }
    }

    /** mvn spring-boot:run, in this JVM: the page's sources and application.yml, the user's environment. */
    private static ConfigurableApplicationContext runAsTheUser(
            TestDatabases server, String folder, String name, Map<String, String> environment) {
        List<String> args = new ArrayList<>(List.of(
                "--spring.config.location=file:examples/" + folder + "/application.yml",
                "--spring.datasource.url=" + TestDatabases.withDatabase(server.serverUrl(), name),
                "--spring.datasource.username=" + name,
                // On this module's test class path only (for MigrationsTest), not in the example's pom.
                "--spring.flyway.enabled=false",
                "--spring.liquibase.enabled=false"));
        environment.forEach((key, value) -> args.add("--" + key + "=" + value));
        return new SpringApplicationBuilder(ShopApplication.class)
                .web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }

    /** The block marked {@code <!-- run: shell -->}: its exports; every other line must be the run command. */
    static Map<String, String> exports(String markdown) {
        Map<String, String> exported = new LinkedHashMap<>();
        for (String line : marked(markdown, "run", "shell").split("\n")) {
            Matcher export = EXPORT.matcher(line);
            if (export.matches()) {
                exported.put(export.group(1), export.group(2));
            } else {
                assertThat(line)
                        .as("%s: a shell line this test runs (an export) or emulates (the run command)", PAGE)
                        .isEqualTo("mvn spring-boot:run");
            }
        }
        return exported;
    }

    static String sqlBlock(String markdown, String server) {
        return marked(markdown, "run", server);
    }

    /** The lines of the block marked {@code <!-- output: which -->}, each a line the application must print. */
    static String[] promised(String markdown, String which) {
        return marked(markdown, "output", which).split("\n");
    }

    static String marked(String markdown, String key, String value) {
        List<Docs.Block> blocks = Docs.blocks(markdown).stream()
                .filter(b -> value.equals(Docs.commentAbove(markdown, b, key)))
                .toList();
        assertThat(blocks)
                .as("%s: one block marked <!-- %s: %s -->", PAGE, key, value)
                .hasSize(1);
        return blocks.get(0).text();
    }

    /** The statements of a SQL block: split at semicolons, comment lines dropped. */
    static List<String> statements(String sql) {
        StringBuilder code = new StringBuilder();
        for (String line : sql.split("\n")) {
            if (!line.trim().startsWith("--")) {
                code.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        for (String statement : code.toString().split(";")) {
            if (!statement.isBlank()) {
                statements.add(statement.trim());
            }
        }
        assertThat(statements).isNotEmpty();
        return statements;
    }
}
