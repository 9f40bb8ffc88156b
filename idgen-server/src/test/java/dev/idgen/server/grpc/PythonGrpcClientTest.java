package dev.idgen.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.idgen.server.DocumentedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python example of docs/server.md, as written: its two command lines (the stubs generated with grpc_tools, then
 * the script run) taken from the guide and run by bash from a directory laid out as the repository's root, against
 * the server the guide starts ({@link DocumentedServer}, on a new database). Only the server's address and the token
 * are put in. {@code python3} is Debian's {@code /usr/bin/python3} (with python3-grpcio and python3-grpc-tools), put
 * first on the PATH so that no other python3 answers. What the script prints must be what the guide shows.
 */
class PythonGrpcClientTest {

    private static final String PYTHON = "/usr/bin/python3";

    /** The guide's placeholder for the gRPC address. */
    private static final String DOCUMENTED_TARGET = "idgen-1:9090";

    private static DocumentedServer server;

    @BeforeAll
    static void startTheDocumentedServer() throws Exception {
        server = DocumentedServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theGuidesPythonCommandsPrintWhatTheGuideShows(@TempDir Path work) throws Exception {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            fail(PYTHON + " is missing: install Debian's python3, python3-grpcio and python3-grpc-tools");
        }
        String guide = Files.readString(DocumentedServer.GUIDE, StandardCharsets.UTF_8);
        List<String> lines = DocumentedServer.joinedLines(DocumentedServer.section(guide, "## gRPC"));
        String generate = lines.stream()
                .filter(line -> line.contains("grpc_tools.protoc"))
                .findFirst()
                .orElseThrow();
        int scriptAt = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("idgen_grpc_example.py") && !lines.get(i).startsWith("#")) {
                scriptAt = i;
            }
        }
        assertThat(scriptAt).as("the guide's line that runs the example").isNotNegative();
        String script = lines.get(scriptAt);
        List<String> shown = new ArrayList<>();
        for (int i = scriptAt + 1; i < lines.size() && lines.get(i).startsWith("#"); i++) {
            shown.add(lines.get(i).substring(1).strip());
        }
        assertThat(script).contains(DOCUMENTED_TARGET).contains("\"$TOKEN\"");

        // The repository's root as the guide's commands see it, without writing the stubs into the worktree.
        Files.createSymbolicLink(work.resolve("idgen-server"), Path.of("").toAbsolutePath());
        Path bin = Files.createDirectory(work.resolve("debian-python"));
        Files.createSymbolicLink(bin.resolve("python3"), Path.of(PYTHON));
        int port = server.context().getBean(GrpcServerLifecycle.class).port();

        run(work, bin, generate);
        List<String> printed = run(work, bin, script.replace(DOCUMENTED_TARGET, "127.0.0.1:" + port));

        assertThat(printed)
                .as("what the example printed, against what the guide shows")
                .hasSize(shown.size());
        for (int i = 0; i < shown.size(); i++) {
            // "..." in the guide stands for any text (a time, say).
            String pattern = Pattern.quote(shown.get(i)).replace("...", "\\E.*\\Q");
            assertThat(printed.get(i)).as("line %d of %s", i + 1, printed).matches(pattern);
        }
    }

    /** Runs one line of the guide in bash, with $TOKEN set; standard error apart, so a warning is not output. */
    private static List<String> run(Path directory, Path bin, String line) throws IOException, InterruptedException {
        Path errors = Files.createTempFile(directory, "stderr", ".txt");
        Path output = Files.createTempFile(directory, "stdout", ".txt");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", line)
                .directory(directory.toFile())
                .redirectOutput(output.toFile())
                .redirectError(errors.toFile());
        builder.environment().put("TOKEN", server.token());
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(line + " did not end within 180 s: " + Files.readString(errors));
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        String complaints = Files.readString(errors, StandardCharsets.UTF_8);
        assertThat(process.exitValue())
                .as("%s: %s %s", line, printed, complaints)
                .isZero();
        return new ArrayList<>(printed.lines().toList());
    }
}
