package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.idgen.test.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Maven commands of docs/first-application.md and docs/aot.md, run as written on a project made of the page's
 * files, against a real MariaDB: {@code mvn spring-boot:run} (the first run), then {@code mvn -Pnative package} and
 * {@code java -Dspring.aot.enabled=true -jar target/shop-0.0.1-SNAPSHOT.jar} (the second run, on the AOT-processed
 * jar). Each must print the lines the pages promise.
 *
 * <p>The project is the page's own files: {@code examples/mariadb/pom.xml} (its {@code spring-boot-starter-parent}
 * included), the sources of {@code src/main/java/com/example/shop} and {@code examples/mariadb/application.yml}, which
 * {@link FirstApplicationDocsTest} checks against the page. Only the placeholders change: the database and user
 * {@code shop} and its password become the test's own, and {@code localhost:3306} the test server's address. The
 * page's first step, {@code ./mvnw -B install -DskipTests}, would rebuild this whole project: the test stands in for it
 * by putting the jars the reactor has just built, with their poms, into the local Maven repository, where that
 * command puts them. {@code mvn} is the machine's (Debian's {@code maven}, which .ci/setup installs), the JDK this
 * test runs on, and the user's {@code ~/.m2} (or the build's {@code -Dmaven.repo.local}); the first run downloads
 * Boot's parent and the native profile's plugins into it.
 */
// Maven's own start-ups, a first download of Boot's parent and the native profile's plugins, AOT processing and three
// JVMs of Spring: minutes on a loaded machine.
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class FirstApplicationMavenTest {

    private static final String AOT_PAGE = "docs/aot.md";
    private static final String AOT_BUILD = "mvn -Pnative package";
    private static final String AOT_RUN = "java -Dspring.aot.enabled=true -jar target/shop-0.0.1-SNAPSHOT.jar";
    private static final Duration COMMAND_DEADLINE = Duration.ofMinutes(8);

    @Test
    void theUsersOwnMavenBuildRunsTheApplicationAndItsAotProcessedJar(@TempDir Path project) throws Exception {
        String markdown = Docs.read(Docs.root().resolve(FirstApplicationTest.PAGE));
        String aot = Docs.read(Docs.root().resolve(AOT_PAGE));
        assertThat(aot)
                .as("%s builds and runs the AOT-processed jar with these commands", AOT_PAGE)
                .contains("   " + AOT_BUILD + "\n", "   " + AOT_RUN + "\n", "Starting AOT-processed ShopApplication");
        Map<String, String> exported = FirstApplicationTest.exports(markdown);
        String documentedPassword = exported.get("DB_PASSWORD");
        TestDatabases server = TestDatabases.MARIADB;

        String name =
                "idgen_mvn_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String password = "pw" + UUID.randomUUID().toString().replace("-", "");
        List<String> statements = FirstApplicationTest.statements(FirstApplicationTest.sqlBlock(markdown, "mariadb")
                .replaceAll("\\b" + FirstApplicationTest.DATABASE_AND_USER + "\\b", name)
                .replace(documentedPassword, password));

        writeProject(project, server, name);
        installTheReactorsJars();
        server.dropDatabaseAndUser(name);
        try {
            server.runAsAdministrator(statements);

            String firstRun = run(project, password, List.of(mvn(), "spring-boot:run"));
            assertThat(firstRun)
                    .contains("idgen ready: strategy=segment")
                    .contains(FirstApplicationTest.promised(markdown, "first run"));

            run(project, password, command(mvn(), AOT_BUILD));
            assertThat(project.resolve("target/shop-0.0.1-SNAPSHOT.jar")).isRegularFile();

            List<String> aotRun = command(javaOfThisJvm(), AOT_RUN);
            String secondRun = run(project, password, aotRun);
            assertThat(secondRun)
                    .contains("Starting AOT-processed ShopApplication")
                    .contains(FirstApplicationTest.promised(markdown, "second run"));
        } finally {
            server.dropDatabaseAndUser(name);
        }
    }

    /** The page's pom.xml, sources and application.yml, with the test's database, user and server address. */
    private static void writeProject(Path project, TestDatabases server, String name) throws IOException {
        Path module = Docs.root().resolve("idgen-docs-examples");
        Files.copy(module.resolve("examples/mariadb/pom.xml"), project.resolve("pom.xml"));
        Path sources = module.resolve("src/main/java/com/example/shop");
        Path target = Files.createDirectories(project.resolve("src/main/java/com/example/shop"));
        try (Stream<Path> files = Files.list(sources)) {
            for (Path file : files.toList()) {
                Files.copy(file, target.resolve(file.getFileName()));
            }
        }
        String yaml = Files.readString(module.resolve("examples/mariadb/application.yml"));
        String documentedUrl = "url: jdbc:mariadb://localhost:3306/" + FirstApplicationTest.DATABASE_AND_USER + "\n";
        String documentedUser = "username: " + FirstApplicationTest.DATABASE_AND_USER + "\n";
        assertThat(yaml).contains(documentedUrl, documentedUser);
        yaml = yaml.replace(documentedUrl, "url: " + TestDatabases.withDatabase(server.serverUrl(), name) + "\n")
                .replace(documentedUser, "username: " + name + "\n");
        Path resources = Files.createDirectories(project.resolve("src/main/resources"));
        Files.writeString(resources.resolve("application.yml"), yaml);
    }

    /**
     * What {@code ./mvnw -B install -DskipTests} leaves in the local repository: each module's jar and pom, and the
     * parent pom, from the reactor's own build. A file is written beside its place and moved there, so that a build
     * reading the repository meanwhile never sees half a jar.
     */
    private static void installTheReactorsJars() throws IOException {
        Path root = Docs.root();
        String version = System.getProperty("idgen.version");
        assertThat(version).as("idgen.version (set by this module's pom)").isNotBlank();
        Path repository = localRepository().resolve("dev/idgen");
        install(
                root.resolve("pom.xml"),
                repository.resolve("idgen-parent/" + version),
                "idgen-parent-" + version + ".pom");
        int jars = 0;
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.sorted().toList()) {
                String artifactId = module.getFileName().toString();
                Path jar = module.resolve("target/" + artifactId + "-" + version + ".jar");
                if (!Files.isRegularFile(jar) || !Files.isRegularFile(module.resolve("pom.xml"))) {
                    continue;
                }
                Path directory = repository.resolve(artifactId + "/" + version);
                install(module.resolve("pom.xml"), directory, artifactId + "-" + version + ".pom");
                install(jar, directory, artifactId + "-" + version + ".jar");
                jars++;
            }
        }
        assertThat(root.resolve("idgen-spring-boot-starter/target/idgen-spring-boot-starter-" + version + ".jar"))
                .as("the starter's jar, which the reactor builds before this module's tests (%d jars found)", jars)
                .isRegularFile();
    }

    private static void install(Path file, Path directory, String name) throws IOException {
        Files.createDirectories(directory);
        Path partial = directory.resolve(name + "." + UUID.randomUUID() + ".part");
        Files.copy(file, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.move(
                partial, directory.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path localRepository() {
        String configured = System.getProperty("idgen.maven.local-repository");
        return configured == null || configured.isBlank()
                ? Path.of(System.getProperty("user.home"), ".m2", "repository")
                : Path.of(configured);
    }

    private static String mvn() {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path mvn = Path.of(directory, "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn.toString();
            }
        }
        return fail("The pages' commands run Maven as mvn, and there is none on the PATH: install Debian's maven"
                + " package (bash .ci/test does).");
    }

    private static String javaOfThisJvm() {
        return ChildJvm.command("256m").get(0);
    }

    /** A documented command line with its first word replaced by the binary that runs it. */
    private static List<String> command(String binary, String documented) {
        List<String> command = new ArrayList<>(List.of(documented.split(" ")));
        command.set(0, binary);
        return command;
    }

    /**
     * Runs a documented command in the project's folder, as the page's user does after {@code export DB_PASSWORD}:
     * with the password in the environment, the JDK of this test as Maven's ({@code JAVA_HOME}), and, when the build
     * was given another local repository, that one. Returns its output; fails with its tail if it fails.
     */
    private static String run(Path project, String password, List<String> command) throws Exception {
        List<String> full = new ArrayList<>(command);
        Path defaultRepository = Path.of(System.getProperty("user.home"), ".m2", "repository");
        if (full.get(0).endsWith("mvn") && !localRepository().equals(defaultRepository)) {
            full.add(1, "-Dmaven.repo.local=" + localRepository());
        }
        Path log = Files.createTempFile(project, "command", ".log");
        ProcessBuilder builder = new ProcessBuilder(full)
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("DB_PASSWORD", password);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // Maven's own JVM, as this project's .mvn/jvm.config has it (see ChildJvm); the application's JVMs as Maven
        // and the page start them.
        builder.environment().put("MAVEN_OPTS", String.join(" ", ChildJvm.FLAGS));
        Process process = builder.start();
        if (!process.waitFor(COMMAND_DEADLINE.toMinutes(), TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail("%s did not end within %s:%n%s", command, COMMAND_DEADLINE, tail(log));
        }
        String output = read(log);
        assertThat(process.exitValue())
                .as("%s in the project's folder failed:%n%s", String.join(" ", command), tail(log))
                .isZero();
        return output;
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(Path log) {
        List<String> lines = List.of(read(log).split("\n"));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
}
