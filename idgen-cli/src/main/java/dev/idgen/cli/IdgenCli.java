package dev.idgen.cli;

import dev.idgen.core.InvalidArgumentException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code idgen-cli} command: {@code decode}, {@code plan} and {@code check}. Bad input gets one line on stderr that
 * names the argument, never a stack trace: the tool is run by people in the middle of a migration.
 */
@Command(
        name = "idgen-cli",
        mixinStandardHelpOptions = true,
        version = "idgen-cli 0.1.0",
        description = "Reads IDs of idgen and of the libraries a fleet switches from, and plans the switch.",
        footer = {
            "",
            "Exit codes: 0 done (check: no ID would be issued again), 1 check found IDs idgen would issue again,"
                    + " 2 bad input, 3 the database could not be read."
        })
public final class IdgenCli implements Runnable {

    /** Exit code of success; of {@code check}, that no ID would be issued again. */
    public static final int OK = 0;

    /** Exit code of {@code check} when IDs idgen would issue again exist. */
    public static final int FOUND = 1;

    /** Exit code of input the tool cannot work with: an unknown command, option, preset, a bad ID or range. */
    public static final int USAGE = 2;

    /** Exit code of a failure outside the input: the database cannot be reached or read. */
    public static final int FAILURE = 3;

    private static final String MARIADB_LOGGING_DISABLE = "mariadb.logging.disable";

    @Spec
    private CommandLine.Model.CommandSpec spec;

    private final Clock clock;

    IdgenCli(Clock clock) {
        this.clock = clock;
    }

    public static void main(String[] args) {
        // MariaDB's driver prints a warning of its own on stderr for every failed query (its console logger, as no
        // SLF4J is in the jar): the one line the tool prints already says it. Unless the user asks for its logging.
        if (System.getProperty(MARIADB_LOGGING_DISABLE) == null) {
            System.setProperty(MARIADB_LOGGING_DISABLE, "true");
        }
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs one command in this JVM.
     *
     * @param args the command line, command first
     * @param out where the command's answer goes
     * @param err where the one line about bad input or a failure goes
     * @return the exit code: {@link #OK}, {@link #FOUND}, {@link #USAGE} or {@link #FAILURE}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Clock.systemUTC());
    }

    static int run(String[] args, PrintStream out, PrintStream err, Clock clock) {
        CommandLine line = new CommandLine(new IdgenCli(clock));
        line.addSubcommand("decode", new DecodeCommand(out, clock));
        // decode's IDs: "-5" is a negative ID to refuse as such, not an unknown option.
        line.getSubcommands().get("decode").setUnmatchedOptionsArePositionalParams(true);
        line.addSubcommand("plan", new PlanCommand(out, clock));
        line.addSubcommand("check", new CheckCommand(out));
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        line.setParameterExceptionHandler((e, arguments) -> {
            err.println("idgen-cli: " + oneLine(describe(e)));
            return USAGE;
        });
        line.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof UsageException || e instanceof InvalidArgumentException) {
                err.println("idgen-cli: " + oneLine(e.getMessage()));
                return USAGE;
            }
            if (e instanceof CheckFailure) {
                err.println("idgen-cli: " + oneLine(e.getMessage()));
                return FAILURE;
            }
            // A bug of the tool's: still one line, with the exception's class so that it can be reported.
            err.println("idgen-cli: unexpected " + e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()));
            return FAILURE;
        });
        return line.execute(args);
    }

    /** Without a command: say which there are. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is required: decode, plan or check (see --help)");
    }

    private static String describe(ParameterException e) {
        if (e instanceof UnmatchedArgumentException unmatched
                && e.getCommandLine().getParent() == null
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-")) {
            return "unknown command '" + unmatched.getUnmatched().get(0) + "': expected decode, plan or check";
        }
        return e.getMessage();
    }

    static String oneLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        return message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
