package dev.idgen.spring.boot.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.idgen.core.IdService;
import dev.idgen.core.ReadableIdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operations kit under {@code docs/ops}: promtool accepts the alert rules and their unit tests pass, and the
 * Grafana dashboard and the rules name only metrics that idgen registers, as Prometheus names them.
 */
class OperationsKitTest {

    static final String PROMTOOL_MISSING =
            "install Debian's prometheus package (apt-get install prometheus) for promtool";

    /**
     * Metrics of the server tier ({@code idgen-server}) and of the remote strategy ({@code idgen-client}), modules
     * that register them outside the starter: the only names the kit may use without the starter producing them.
     */
    static final Set<String> OTHER_MODULES_METRICS = Set.of(
            "idgen_remote_breaker_state",
            "idgen_server_requests_seconds_count",
            "idgen_server_requests_seconds_sum",
            "idgen_server_requests_seconds_max",
            "idgen_server_requests_seconds_bucket",
            "idgen_server_block_ids_total",
            "idgen_server_name_remaining_ids");

    private static final Pattern METRIC = Pattern.compile("idgen_[a-z_]+");

    private static final Path ROOT = repositoryRoot();

    private static final Path DASHBOARD = Path.of("docs/ops/grafana/idgen-dashboard.json");

    private static final Path RULES = Path.of("docs/ops/prometheus/idgen-alerts.yml");

    private static final Path RULE_TESTS = Path.of("docs/ops/prometheus/idgen-alerts-test.yml");

    private static final String TABLE_SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private static final String SEGMENT_TABLE = "opskit_segment_" + TABLE_SUFFIX;

    private static final String TICKET_TABLE = "opskit_ticket_" + TABLE_SUFFIX;

    private static boolean usedDatabase;

    @Test
    void promtoolAcceptsTheRulesAndTheirUnitTestsPass() throws Exception {
        String promtool = promtool();
        promtool(promtool, "check", "rules", RULES.toString());
        promtool(promtool, "test", "rules", RULE_TESTS.toString());
    }

    /** Every dashboard query parses as PromQL: promtool checks them as recording rules, the variables filled in. */
    @Test
    void promtoolParsesEveryDashboardQuery(@TempDir Path dir) throws Exception {
        String promtool = promtool();
        JsonNode dashboard = JsonMapper.builder().build().readTree(read(DASHBOARD));
        StringBuilder rules = new StringBuilder("groups:\n  - name: idgen-dashboard-queries\n    rules:\n");
        int queries = 0;
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr")
                        .asString()
                        .replace("$__rate_interval", "5m")
                        .replace("$__range", "1h")
                        .replaceAll("\\$[a-z]+", ".*");
                rules.append("      - record: idgen_dashboard:query_")
                        .append(++queries)
                        .append("\n        expr: '")
                        .append(expr.replace("'", "''"))
                        .append("'\n");
            }
        }
        assertThat(queries).as("dashboard queries").isPositive();
        Path file = dir.resolve("dashboard-queries.yml");
        Files.writeString(file, rules);
        promtool(promtool, "check", "rules", file.toString());
    }

    @Test
    void theDashboardIsGrafanaJsonWithPanels() throws IOException {
        JsonNode dashboard = JsonMapper.builder().build().readTree(read(DASHBOARD));
        assertThat(dashboard.path("title").asString()).isNotBlank();
        assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
        List<String> variables = new ArrayList<>();
        dashboard
                .path("templating")
                .path("list")
                .forEach(variable -> variables.add(variable.path("name").asString() + ":"
                        + variable.path("type").asString()));
        assertThat(variables)
                .contains("datasource:datasource", "application:query", "instance:query", "generator:query");
        JsonNode panels = dashboard.path("panels");
        assertThat(panels.isArray()).as("panels is an array").isTrue();
        int queries = 0;
        for (JsonNode panel : panels) {
            String title = panel.path("title").asString();
            assertThat(title).as("a panel's title").isNotBlank();
            if (panel.path("type").asString().equals("row")) {
                continue;
            }
            assertThat(panel.path("datasource").path("uid").asString())
                    .as("the datasource of panel '%s'", title)
                    .isEqualTo("${datasource}");
            assertThat(panel.path("targets").isEmpty())
                    .as("panel '%s' has queries", title)
                    .isFalse();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asString())
                        .as("a query of panel '%s'", title)
                        .contains("idgen_");
                queries++;
            }
        }
        assertThat(queries).isGreaterThan(20);
    }

    @Test
    void theDashboardAndTheRulesUseOnlyMetricsIdgenRegisters() throws Exception {
        Set<String> registered = registeredMetrics();
        assertThat(registered)
                .as("metrics from every strategy the kit watches")
                .contains(
                        "idgen_ids_generated_total",
                        "idgen_lease_remaining_seconds",
                        "idgen_segment_remaining",
                        "idgen_segment_fetches_seconds_count",
                        "idgen_ticket_circuit_open",
                        "idgen_jdbc_failovers_total",
                        "idgen_redis_bucket_state",
                        "idgen_redis_round_trips_seconds_count",
                        "idgen_layout_remaining_seconds");
        TreeMap<String, Set<String>> unknown = new TreeMap<>();
        for (Path file : List.of(DASHBOARD, RULES, RULE_TESTS)) {
            Matcher matcher = METRIC.matcher(read(file));
            Set<String> used = new TreeSet<>();
            while (matcher.find()) {
                used.add(matcher.group());
            }
            assertThat(used).as("metrics used in %s", file).isNotEmpty();
            for (String name : used) {
                if (!registered.contains(name) && !OTHER_MODULES_METRICS.contains(name)) {
                    unknown.computeIfAbsent(file.toString(), f -> new TreeSet<>())
                            .add(name);
                }
            }
        }
        assertThat(unknown)
                .as(
                        "metric names that idgen does not register (registered: %s; other modules': %s)",
                        registered, new TreeSet<>(OTHER_MODULES_METRICS))
                .isEmpty();
    }

    /** What a Prometheus scrape shows of every strategy whose meters the kit uses, on the real services. */
    private static Set<String> registeredMetrics() {
        TestServices.RedisEndpoint redis = TestServices.redis();
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        usedDatabase = true;
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        DataRedisAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenMetricsAutoConfiguration.class,
                        MetricsAutoConfiguration.class,
                        PrometheusMetricsExportAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + mariadb.url(),
                        "spring.datasource.username=" + mariadb.username(),
                        "spring.datasource.password=" + mariadb.password(),
                        "spring.data.redis.host=" + redis.host(),
                        "spring.data.redis.port=" + redis.port(),
                        "idgen.redis.prefix=opskit-" + TABLE_SUFFIX + ":",
                        "idgen.jdbc.initialize-schema=always",
                        "idgen.jdbc.table=" + SEGMENT_TABLE,
                        "idgen.ticket.table=" + TICKET_TABLE);
        Set<String> names = new TreeSet<>();
        String[][] setups = {
            // Snowflake on a leased worker id, with readable IDs from bucketed Redis sequences beside it.
            {"idgen.strategy=snowflake", "idgen.snowflake.worker-id-assigner=redis", "idgen.redis.buckets.enabled=true"
            },
            // Segments from the database (failover detection), from Redis and the database, and Redis counters.
            {"idgen.strategy=segment", "idgen.segment.store=jdbc"},
            {"idgen.strategy=segment", "idgen.segment.store=dual"},
            {"idgen.strategy=redis"},
            {"idgen.strategy=ticket"},
        };
        for (String[] setup : setups) {
            runner.withPropertyValues(setup).run(context -> {
                assertThat(context).hasNotFailed();
                IdService ids = context.getBean(IdService.class);
                // Segment meters of a name appear with its first block.
                assertThat(ids.nextId("opskit")).isPositive();
                context.getBeanProvider(ReadableIdService.class)
                        .ifAvailable(readable ->
                                assertThat(readable.nextReadableId("OPS")).isNotBlank());
                String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
                // The series' names as queries see them (idgen_ids_generated_total,
                // idgen_segment_fetches_seconds_count),
                // not the families' (idgen_segment_fetches_seconds has no series of its own).
                for (String line : scrape.split("\n")) {
                    if (!line.isBlank() && !line.startsWith("#")) {
                        names.add(line.split("[{ ]", 2)[0]);
                    }
                }
            });
        }
        names.removeIf(name -> !name.startsWith("idgen_"));
        return names;
    }

    @AfterAll
    static void dropTables() throws Exception {
        if (!usedDatabase) {
            return;
        }
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + SEGMENT_TABLE);
            statement.execute("DROP TABLE IF EXISTS " + TICKET_TABLE);
        }
    }

    /** promtool from the PATH or Debian's {@code /usr/bin/promtool}; its absence fails, in CI and elsewhere. */
    private static String promtool() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isBlank()) {
                    candidates.add(Path.of(dir, "promtool"));
                }
            }
        }
        candidates.add(Path.of("/usr/bin/promtool"));
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        return fail("promtool is not installed (%s): %s", ci ? "CI=true" : "not on the PATH", PROMTOOL_MISSING);
    }

    private static void promtool(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail("%s did not finish within 2 minutes", String.join(" ", command));
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            fail("%s failed with exit code %d:%n%s", String.join(" ", command), process.exitValue(), text);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(ROOT.resolve(file));
    }

    /** The repository's root: under Surefire the module's directory is the working directory. */
    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs/ops"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "No docs/ops above " + Path.of("").toAbsolutePath() + ": the operations kit is missing");
    }
}
