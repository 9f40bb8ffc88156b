package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar ({@code target/idgen-cli.jar}, run by failsafe after the package phase) with {@code java -jar}:
 * one run of {@code check} against a table MariaDB does not have. It needs picocli, idgen-core and the JDBC driver
 * inside the jar, and holds the jar to the tool's promise of one line on stderr: what the driver itself prints there
 * only shows in a JVM of the tool's own. The commands' logic is tested in-process; this is the jar's only JVM.
 */
class CliJarIT {

    private static final Path JAR = Path.of("target", "idgen-cli.jar");

    @Test
    void theJarAnswersAMissingTableWithOneLine() throws Exception {
        assertThat(Files.isRegularFile(JAR))
                .as("%s is missing: run the package phase first (./mvnw verify -pl idgen-cli)", JAR.toAbsolutePath())
                .isTrue();
        String table =
                "idgen_cli_jar_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        JAR.toString(),
                        "check",
                        "--jdbc-url",
                        env("IDGEN_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"),
                        "--user",
                        env("IDGEN_TEST_MARIADB_USER", "root"),
                        "--password",
                        env("IDGEN_TEST_MARIADB_PASSWORD", ""),
                        "--table",
                        table,
                        "--column",
                        "id",
                        "--start-above",
                        "10")
                .start();
        process.getOutputStream().close();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the jar ends").isTrue();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(process.exitValue()).as("exit code; stderr: %s", err).isEqualTo(3);
        assertThat(out).isEmpty();
        assertThat(err.lines()).as(err).hasSize(1);
        assertThat(err).startsWith("idgen-cli: cannot read " + table + ".id").contains("doesn't exist");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
