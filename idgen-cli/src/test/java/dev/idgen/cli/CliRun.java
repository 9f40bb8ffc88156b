package dev.idgen.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** One in-process run of the tool: its exit code and what it printed. */
record CliRun(int code, String out, String err) {

    /** The tests' "now": decode marks readings after it as in the future. */
    static final Instant NOW = Instant.parse("2026-12-03T00:00:00Z");

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = IdgenCli.run(args, o, e, Clock.fixed(NOW, ZoneOffset.UTC));
        }
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** @return the one line on stderr, after checking there is exactly one and no stack trace */
    String errLine() {
        String[] lines = err.split("\\R");
        if (lines.length != 1 || err.contains("\tat ") || !err.startsWith("idgen-cli: ")) {
            throw new AssertionError("expected one line on stderr, but got:\n" + err);
        }
        return lines[0];
    }
}
