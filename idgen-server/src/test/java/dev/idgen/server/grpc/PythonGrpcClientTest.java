package dev.idgen.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented Python example ({@code src/test/python/idgen_grpc_example.py}) against a real server: stubs generated
 * from the published {@code idgen.proto} with Debian's grpc_tools, then the script run as a user would.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PythonGrpcClientTest {

    private static final String PYTHON = "/usr/bin/python3";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("idgen.server.grpc.port", () -> "0");
        registry.add("idgen.server.clients.python.token-hash", () -> IdgenGrpcServiceTest.hash("python-token"));
    }

    @Autowired
    GrpcServerLifecycle server;

    @Test
    void thePythonExampleGetsIdsDecodesOneAndSeesTheRefusals(@TempDir Path work) throws Exception {
        Path module = Path.of("").toAbsolutePath();
        run(
                work,
                PYTHON,
                "-m",
                "grpc_tools.protoc",
                "-I" + module.resolve("src/main/proto"),
                "--python_out=.",
                "--grpc_python_out=.",
                "idgen.proto");
        Files.copy(module.resolve("src/test/python/idgen_grpc_example.py"), work.resolve("idgen_grpc_example.py"));
        List<String> output = run(work, PYTHON, "idgen_grpc_example.py", "127.0.0.1:" + server.port(), "python-token");

        assertThat(output.get(0)).matches("ids \\d+ \\d+ \\d+");
        String firstId = output.get(0).split(" ")[1];
        assertThat(output.get(1))
                .startsWith("decoded ")
                .contains("id=" + firstId)
                .contains("workerId=0");
        assertThat(output.get(2)).startsWith("refused INVALID_ARGUMENT count ").contains("count");
        assertThat(output.get(3)).isEqualTo("without a token UNAUTHENTICATED");
    }

    private static List<String> run(Path directory, String... command) throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            fail(PYTHON + " is missing: install Debian's python3, python3-grpcio and python3-grpc-tools");
        }
        // Standard error apart: a warning a Python library prints there must not be taken for the example's output.
        Path errors = Files.createTempFile(directory, "stderr", ".txt");
        Path output = Files.createTempFile(directory, "stdout", ".txt");
        Process process = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectOutput(output.toFile())
                .redirectError(errors.toFile())
                .start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not end within 180 s: " + Files.readString(errors));
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        String complaints = Files.readString(errors, StandardCharsets.UTF_8);
        if (complaints.contains("No module named")) {
            fail("Python's gRPC modules are missing (" + complaints.strip()
                    + "): install Debian's python3-grpcio and python3-grpc-tools");
        }
        assertThat(process.exitValue())
                .as("%s: %s %s", String.join(" ", command), printed, complaints)
                .isZero();
        return new ArrayList<>(printed.lines().toList());
    }
}
