package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.idgen.test.ChildJvm;
import dev.idgen.test.services.OwnEtcdCluster;
import dev.idgen.test.services.OwnZooKeeperCluster;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample processed ahead of time by Spring (as a native image build does, which these machines cannot run: no
 * GraalVM) and started from the generated code with {@code -Dspring.aot.enabled=true}, for every profile: it must
 * serve IDs, store an order (Hibernate's {@code @IdgenId} generator; in {@code r2dbc} the starter's reactive
 * callback; the WebFlux profile {@code reactive} has no orders) and answer its health check.
 *
 * <p>Beans are fixed when the application is processed, so each profile is processed with it active. All profiles
 * are processed in one child JVM ({@link ProcessProfilesAheadOfTime}); then, one profile after another, the generated
 * sources are compiled and the processed sample runs in a JVM of its own, against the real services the profile
 * names (MariaDB, Redis, an etcd or ZooKeeper of its own, an idgen server from its jar); two profiles at a time.
 */
// Once processed, each profile compiles, starts and waits for a JVM of its own: two profiles run side by side.
@Execution(ExecutionMode.CONCURRENT)
class AotProcessedProfilesTest {

    /** Every profile of the sample ({@code src/main/resources/application-*.yml}) and the default one. */
    static final List<String> PROFILES = List.of(
            "default",
            "etcd",
            "forms",
            "h2-segment",
            "mariadb-segment",
            "mariadb-ticket",
            "mixed",
            "r2dbc",
            "reactive",
            "redis-lease",
            "redis-segment",
            "redis",
            "remote",
            "zookeeper");

    private static final Path OUTPUT = Path.of("target", "aot-profiles");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Pattern TWO_IDS = Pattern.compile("\\[\"(\\d+)\",\"(\\d+)\"]");

    /** The sample's run-time class path: the test's, without the test classes. */
    private static List<String> classPath;

    @BeforeAll
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    static void processEveryProfileAheadOfTime() throws Exception {
        classPath = Stream.of(testClassPath().split(File.pathSeparator))
                .filter(entry -> !entry.isEmpty() && !isTestClasses(entry))
                .toList();
        // The processor's main class alone, beside the sample's class path: the sample's component scan covers its
        // package, and must not find the test classes' @TestConfigurations there.
        Path launcher = OUTPUT.resolve("launcher");
        Path mainClass =
                Path.of("dev", "idgen", "samples", ProcessProfilesAheadOfTime.class.getSimpleName() + ".class");
        Files.createDirectories(launcher.resolve(mainClass).getParent());
        Files.copy(
                Path.of(ProcessProfilesAheadOfTime.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI())
                        .resolve(mainClass),
                launcher.resolve(mainClass),
                StandardCopyOption.REPLACE_EXISTING);

        List<String> command = ChildJvm.command("768m");
        command.addAll(List.of(
                "-cp",
                join(launcher.toString(), classPath),
                ProcessProfilesAheadOfTime.class.getName(),
                OUTPUT.toString()));
        command.addAll(PROFILES);
        Path log = OUTPUT.resolve("processing.log");
        Process processing = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        // One JVM processes all profiles: about a minute on an idle machine, many on a loaded one.
        if (!processing.waitFor(25, TimeUnit.MINUTES)) {
            processing.destroyForcibly();
            fail("AOT processing did not finish within 25 minutes:\n" + tail(log));
        }
        assertThat(processing.exitValue())
                .as("AOT processing of the profiles %s failed:\n%s", PROFILES, tail(log))
                .isZero();
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("PROFILES")
    void theProcessedSampleServes(String profile) throws Exception {
        Path out = OUTPUT.resolve(profile);
        compileGeneratedSources(out);
        String name = "aot" + UUID.randomUUID().toString().substring(0, 8);
        try (ProfileServices services = ProfileServices.start(profile, name)) {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            List<String> command = ChildJvm.command("384m");
            command.addAll(List.of(
                    "-Dspring.aot.enabled=true",
                    "-cp",
                    join(out.resolve("classes") + File.pathSeparator + out.resolve("resources"), classPath),
                    IdServiceApplication.class.getName(),
                    "--spring.profiles.active=" + profile,
                    "--server.address=127.0.0.1",
                    "--server.port=" + port));
            command.addAll(services.arguments());
            Path log = out.resolve("application.log");
            Process application = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                HttpResponse<String> ids = awaitIds(application, port, "/ids/" + name + "?count=2");
                assertThat(Files.readString(log))
                        .as("the sample ran from the AOT-generated code")
                        .contains("Starting AOT-processed IdServiceApplication");
                assertThat(ids.statusCode()).as(ids.body()).isEqualTo(200);
                Matcher two = TWO_IDS.matcher(ids.body());
                assertThat(two.matches()).as(ids.body()).isTrue();
                assertThat(Long.parseLong(two.group(2)))
                        .as(ids.body())
                        .isGreaterThan(Long.parseLong(two.group(1)))
                        .isPositive();

                HttpResponse<String> order =
                        SampleHttp.postJson(port, "/orders", "{\"customer\":\"aot\",\"amount\":12.5}");
                if (profile.equals("reactive")) {
                    // WebFlux on Netty, through ReactiveIdService; no orders there (JPA would block the event loop).
                    assertThat(Files.readString(log)).contains("Netty started on port");
                    assertThat(order.statusCode()).as(order.body()).isEqualTo(404);
                } else {
                    if (profile.equals("r2dbc")) {
                        // WebFlux too (its group brings reactive), the order saved through Spring Data R2DBC.
                        assertThat(Files.readString(log)).contains("Netty started on port");
                    }
                    assertThat(order.statusCode()).as(order.body()).isEqualTo(201);
                    assertThat(order.body()).containsPattern("\"id\":\"[1-9][0-9]*\"");
                }

                HttpResponse<String> health = SampleHttp.get(port, "/actuator/health");
                assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
                // The idgen component with its strategy's own part (a bean AOT processing had to write into code).
                JsonNode idgen = JSON.readTree(health.body()).path("components").path("idgen");
                assertThat(idgen.path("status").asString()).as(health.body()).isEqualTo("UP");
                // With named generators the component has one of its own per generator.
                JsonNode defaultGenerator =
                        idgen.has("components") ? idgen.path("components").path("default") : idgen;
                assertThat(defaultGenerator.path("details").path("strategy").asString())
                        .as(health.body())
                        .isIn("snowflake", "segment", "ticket", "redis");
            } catch (AssertionError e) {
                throw new AssertionError(
                        "Profile " + profile + ": " + e.getMessage() + "\nThe AOT-processed sample's output (" + log
                                + "), last lines:\n" + tail(log),
                        e);
            } finally {
                application.destroy();
                if (!application.waitFor(30, TimeUnit.SECONDS)) {
                    application.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    /**
     * Waits until the sample answers {@code path}; fails if it exits or does not answer in time.
     */
    private static HttpResponse<String> awaitIds(Process application, int port, String path) throws Exception {
        // JVM start-up on a loaded machine takes minutes.
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        while (true) {
            if (!application.isAlive()) {
                fail("The AOT-processed sample exited (status " + application.exitValue() + ") before it served "
                        + path);
            }
            try {
                return SampleHttp.get(port, path);
            } catch (IOException notYet) {
                if (System.nanoTime() - deadline > 0) {
                    fail("The AOT-processed sample did not serve " + path + " within 4 minutes");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250)); // a poll interval
            }
        }
    }

    private static void compileGeneratedSources(Path out) throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(out.resolve("sources"))) {
            sources = files.filter(file -> file.toString().endsWith(".java")).toList();
        }
        assertThat(sources).as("sources generated for " + out).isNotEmpty();
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            boolean compiled = compiler.getTask(
                            null,
                            files,
                            diagnostics,
                            List.of(
                                    "-proc:none",
                                    "-nowarn",
                                    "-encoding",
                                    "UTF-8",
                                    "-d",
                                    out.resolve("classes").toString(),
                                    "-cp",
                                    join(out.resolve("classes").toString(), classPath)),
                            null,
                            files.getJavaFileObjectsFromPaths(sources))
                    .call();
            assertThat(compiled)
                    .as("the generated sources of %s compile: %s", out, diagnostics.getDiagnostics())
                    .isTrue();
        }
    }

    /** The services a profile needs, started for it, and the arguments that point the sample at them. */
    private static final class ProfileServices implements AutoCloseable {

        private final List<String> arguments = new ArrayList<>();

        private final List<AutoCloseable> started = new ArrayList<>();

        static ProfileServices start(String profile, String name) throws Exception {
            ProfileServices services = new ProfileServices();
            try {
                services.startFor(profile, name);
                return services;
            } catch (Exception | Error e) {
                services.close();
                throw e;
            }
        }

        private void startFor(String profile, String name) throws Exception {
            switch (profile) {
                case "mariadb-segment", "mariadb-ticket" -> SampleMariaDb.register(this::add);
                case "redis", "redis-segment" -> {
                    SampleMariaDb.register(this::add);
                    SampleRedis.register(this::add);
                    add("idgen.redis.prefix", "idgen-" + name + ":");
                }
                case "redis-lease" -> {
                    SampleRedis.register(this::add);
                    add("idgen.redis.prefix", "idgen-" + name + ":");
                }
                case "etcd" -> {
                    OwnEtcdCluster etcd = OwnEtcdCluster.start(1);
                    started.add(etcd);
                    add("idgen.etcd.endpoints", etcd.endpoints());
                    add("idgen.etcd.namespace", name + "/");
                }
                case "zookeeper" -> {
                    OwnZooKeeperCluster zookeeper = OwnZooKeeperCluster.start(1);
                    started.add(zookeeper);
                    add("idgen.zookeeper.connect-string", zookeeper.connectString());
                    add("idgen.zookeeper.namespace", name);
                }
                case "remote" -> {
                    IdgenServerJar server = IdgenServerJar.start();
                    started.add(server);
                    add("idgen.remote.servers", "http://127.0.0.1:" + server.port());
                    add("idgen.remote.token", server.token());
                }
                default -> {
                    // default, forms, h2-segment, mixed, r2dbc: no external service (an embedded H2)
                }
            }
        }

        private void add(String property, Supplier<Object> value) {
            add(property, String.valueOf(value.get()));
        }

        private void add(String property, String value) {
            arguments.add("--" + property + "=" + value);
        }

        List<String> arguments() {
            return arguments;
        }

        @Override
        public void close() throws Exception {
            Exception failure = null;
            for (AutoCloseable service : started) {
                try {
                    service.close();
                } catch (Exception e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    private static String testClassPath() {
        // Surefire runs the tests from a manifest-only jar; it names the real class path in this property.
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private static boolean isTestClasses(String entry) {
        return Path.of(entry).normalize().endsWith(Path.of("target", "test-classes"));
    }

    private static String join(String first, List<String> rest) {
        return Stream.concat(Stream.of(first), rest.stream()).collect(Collectors.joining(File.pathSeparator));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
