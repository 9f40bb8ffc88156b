package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar ({@code target/idgen-cli.jar}, run by failsafe after the package phase) with {@code java -jar}:
 * one run of {@code check} against a MariaDB table, which needs picocli, idgen-core and the JDBC driver inside the jar.
 * The commands' logic is tested in-process; this is the jar's only JVM.
 */
class CliJarIT {

    private static final Path JAR = Path.of("target", "idgen-cli.jar");

    @Test
    void theJarRunsCheckAgainstMariadb() throws Exception {
        assertThat(Files.isRegularFile(JAR))
                .as("%s is missing: run the package phase first (./mvnw verify -pl idgen-cli)", JAR.toAbsolutePath())
                .isTrue();
        String url = env("IDGEN_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test");
        String user = env("IDGEN_TEST_MARIADB_USER", "root");
        String password = env("IDGEN_TEST_MARIADB_PASSWORD", "");
        String table =
                "idgen_cli_jar_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY)");
            try {
                statement.execute("INSERT INTO " + table + " VALUES (5), (50), (500)");

                Process process = new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "-jar",
                                JAR.toString(),
                                "check",
                                "--jdbc-url",
                                url,
                                "--user",
                                user,
                                "--password",
                                password,
                                "--table",
                                table,
                                "--column",
                                "id",
                                "--start-above",
                                "10")
                        .redirectError(ProcessBuilder.Redirect.PIPE)
                        .start();
                process.getOutputStream().close();
                assertThat(process.waitFor(60, TimeUnit.SECONDS))
                        .as("the jar ends")
                        .isTrue();
                String out = read(process.getInputStream().readAllBytes());
                String err = read(process.getErrorStream().readAllBytes());

                assertThat(process.exitValue()).as("exit code; stderr: %s", err).isEqualTo(1);
                assertThat(out)
                        .isEqualTo(
                                "2 IDs in " + table + ".id are above 10: idgen would issue them again.\n  50\n  500\n");
            } finally {
                statement.execute("DROP TABLE " + table);
            }
        }
    }

    private static String read(byte[] bytes) throws IOException {
        return new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
