package dev.idgen.cli;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.SnowflakePreset;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code check}: the IDs of a table's column that idgen would issue again. With {@code --start-above N}, idgen issues
 * every ID above N, so each existing one above N is a repeat; with {@code --preset} and the worker ids idgen will use,
 * idgen issues every ID of those worker ids, so each existing one that decodes to one of them is.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Reads a table's ID column and reports the IDs idgen would issue again: a count and up to 10 examples.",
            "Exit 0 when there are none, 1 when there are."
        })
final class CheckCommand implements Callable<Integer> {

    /** A table or column name, with an optional schema: spliced into the query, so nothing else gets in. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

    private static final int EXAMPLES = 10;

    @Option(names = "--jdbc-url", required = true, paramLabel = "<url>", description = "e.g. jdbc:mariadb://host/db")
    private String jdbcUrl;

    @Option(names = "--user", paramLabel = "<user>", description = "The database user.")
    private String user;

    // From the environment when not given: a password on the command line is in the shell's history and ps.
    @Option(
            names = "--password",
            paramLabel = "<password>",
            defaultValue = "${env:IDGEN_CLI_PASSWORD}",
            description = "Default: the environment variable IDGEN_CLI_PASSWORD.")
    private String password;

    @Option(names = "--table", required = true, paramLabel = "<table>", description = "[schema.]table")
    private String table;

    @Option(names = "--column", required = true, paramLabel = "<column>", description = "The ID column.")
    private String column;

    @Option(
            names = "--start-above",
            paramLabel = "<id>",
            description = "idgen's idgen.snowflake.switch.start-above or idgen.segment.start-above.")
    private String startAbove;

    @Option(names = "--preset", paramLabel = "<preset>", description = "The layout the table's IDs were made in.")
    private String preset;

    @Option(
            names = "--worker-ids",
            paramLabel = "<ranges>",
            description = "The worker ids idgen will use in that layout, e.g. 32-1023.")
    private String workerIds;

    private final PrintStream out;

    CheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        String tableName = identifier("--table", table);
        String columnName = identifier("--column", column);
        if (startAbove != null && (preset != null || workerIds != null)) {
            throw new UsageException("--start-above excludes --preset and --worker-ids: give one check or the other");
        }
        if (startAbove != null) {
            long above = parseStartAbove();
            return report(aboveCount(tableName, columnName, above), tableName, columnName, "above " + above);
        }
        if (preset == null || workerIds == null) {
            throw new UsageException("give either --start-above <id>, or --preset <preset> with --worker-ids <ranges>");
        }
        SnowflakePreset layout;
        try {
            layout = SnowflakePreset.parse(preset);
        } catch (InvalidArgumentException e) {
            throw new UsageException("invalid value for --preset: " + e.getMessage());
        }
        WorkerIdRanges ranges = WorkerIdRanges.parse(workerIds, "--worker-ids", layout.maxWorkerId());
        return report(
                workerCount(tableName, columnName, layout, ranges),
                tableName,
                columnName,
                "of worker ids " + ranges + " in " + layout.key() + "'s layout");
    }

    /** The count and examples found. */
    private record Found(long count, List<Long> examples) {}

    private Found aboveCount(String tableName, String columnName, long above) {
        String where = " FROM " + tableName + " WHERE " + columnName + " > ?";
        try (Connection connection = connect()) {
            long count;
            try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*)" + where)) {
                statement.setLong(1, above);
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    count = rows.getLong(1);
                }
            }
            List<Long> examples = new ArrayList<>();
            try (PreparedStatement statement =
                    connection.prepareStatement("SELECT " + columnName + where + " ORDER BY " + columnName)) {
                statement.setLong(1, above);
                statement.setMaxRows(EXAMPLES);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        examples.add(rows.getLong(1));
                    }
                }
            }
            return new Found(count, examples);
        } catch (SQLException e) {
            throw failure(tableName, columnName, e);
        }
    }

    /** Decodes every ID of the column: the worker id's place depends on the preset, so SQL cannot pick them out. */
    private Found workerCount(String tableName, String columnName, SnowflakePreset layout, WorkerIdRanges ranges) {
        try (Connection connection = connect()) {
            // A cursor, not the whole column in memory: PostgreSQL streams only outside auto-commit.
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            long count = 0;
            List<Long> examples = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT " + columnName + " FROM " + tableName + " WHERE " + columnName + " >= 0")) {
                statement.setFetchSize(1000);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        long id = rows.getLong(1);
                        if (ranges.contains(layout.decode(id).workerId())) {
                            count++;
                            if (examples.size() < EXAMPLES) {
                                examples.add(id);
                            }
                        }
                    }
                }
            }
            connection.rollback();
            return new Found(count, examples);
        } catch (SQLException e) {
            throw failure(tableName, columnName, e);
        }
    }

    private int report(Found found, String tableName, String columnName, String which) {
        String place = tableName + "." + columnName;
        if (found.count() == 0) {
            out.println("No ID in " + place + " is " + which + ": idgen would issue none of them again.");
            return IdgenCli.OK;
        }
        out.println(found.count() + " IDs in " + place + " are " + which + ": idgen would issue them again."
                + (found.count() > found.examples().size()
                        ? " The first " + found.examples().size() + ":"
                        : ""));
        for (long id : found.examples()) {
            out.println("  " + id);
        }
        return IdgenCli.FOUND;
    }

    private Connection connect() throws SQLException {
        // Short: an unreachable database should answer the person at the terminal in seconds, not minutes.
        DriverManager.setLoginTimeout(10);
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    private CheckFailure failure(String tableName, String columnName, SQLException e) {
        return new CheckFailure("cannot read " + tableName + "." + columnName + " at --jdbc-url " + jdbcUrl + ": "
                + IdgenCli.oneLine(e.getMessage()));
    }

    private long parseStartAbove() {
        try {
            long id = Long.parseLong(startAbove.trim());
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // Told below, with the rest.
        }
        throw new UsageException("invalid value for --start-above '" + startAbove + "': expected a decimal number from"
                + " 0 to " + Long.MAX_VALUE);
    }

    private static String identifier(String option, String text) {
        if (!IDENTIFIER.matcher(text).matches()) {
            throw new UsageException("invalid value for " + option + " '" + text + "': expected a name of letters,"
                    + " digits and underscores, with an optional schema. prefix");
        }
        return text;
    }
}
