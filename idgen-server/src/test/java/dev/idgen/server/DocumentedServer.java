package dev.idgen.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.test.services.TestServices;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The server exactly as docs/server.md starts it: the guide's {@code TOKEN=} and {@code HASH=} lines run in bash,
 * then the app started with the guide's {@code java -jar} arguments against a fresh, empty database on the test's
 * MariaDB (created here, dropped by {@link #close()}). Only placeholders change: the database's host, name, user and
 * password, and the ports (HTTP on a free one, gRPC too, as the tests' {@code config/application.properties} sets).
 */
public final class DocumentedServer implements AutoCloseable {

    /** The guide, from the module's directory (where the build runs the tests). */
    public static final Path GUIDE = Path.of("../docs/server.md");

    /** The guide's placeholders for the database, with what the test puts in their place (database name aside). */
    static final String DOCUMENTED_URL = "jdbc:mariadb://db:3306/ids";

    static final String DOCUMENTED_USER = "idgen";

    static final String DOCUMENTED_PASSWORD = "...";

    private final String database;

    private final String token;

    private final List<String> arguments;

    private final ConfigurableApplicationContext context;

    private DocumentedServer(
            String database, String token, List<String> arguments, ConfigurableApplicationContext context) {
        this.database = database;
        this.token = token;
        this.arguments = arguments;
        this.context = context;
    }

    /** @return the server started from the guide's commands on a new database */
    public static DocumentedServer start() throws IOException, InterruptedException, SQLException {
        String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
        List<String> commands = joinedLines(section(guide, "## Run a server"));
        String tokenLine = only(commands, "TOKEN=");
        String hashLine = only(commands, "HASH=");
        // The guide's own recipe for the token and its hash, in bash: a wrong recipe fails the server's check.
        List<String> printed = bash(tokenLine + "\n" + hashLine + "\nprintf '%s\\n%s\\n' \"$TOKEN\" \"$HASH\"\n");
        assertThat(printed).as("the guide's TOKEN= and HASH= lines").hasSize(2);
        String token = printed.get(0);
        String hash = printed.get(1);
        assertThat(hash).isEqualTo(ServerHttp.tokenHash(token));

        String database =
                "idgen_guide_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        Matcher base = Pattern.compile("(jdbc:mariadb://[^/]+)/.*").matcher(mariadb.url());
        assertThat(base.matches()).as(mariadb.url()).isTrue();
        String url = base.group(1) + "/" + database;
        Map<String, String> placeholders = Map.of(
                "--spring.datasource.url=" + DOCUMENTED_URL,
                "--spring.datasource.url=" + url,
                "--spring.datasource.username=" + DOCUMENTED_USER,
                "--spring.datasource.username=" + mariadb.username(),
                "--spring.datasource.password=" + DOCUMENTED_PASSWORD,
                "--spring.datasource.password=" + (mariadb.password() == null ? "" : mariadb.password()));
        List<String> documented = javaArguments(only(commands, "java -jar "));
        assertThat(documented)
                .as("the guide's server command names the database placeholders this test replaces")
                .containsAll(placeholders.keySet());
        List<String> arguments = new ArrayList<>();
        for (String argument : documented) {
            arguments.add(placeholders.getOrDefault(argument, argument).replace("$HASH", hash));
        }
        execute(mariadb, "CREATE DATABASE " + database);
        try {
            ConfigurableApplicationContext context = ServerApps.start(arguments.toArray(String[]::new));
            return new DocumentedServer(database, token, List.copyOf(documented), context);
        } catch (RuntimeException | Error e) {
            execute(mariadb, "DROP DATABASE IF EXISTS " + database);
            throw e;
        }
    }

    /** @return the token the guide's {@code TOKEN=} line made */
    public String token() {
        return token;
    }

    /** @return the guide's {@code java -jar} arguments, as written */
    public List<String> documentedArguments() {
        return arguments;
    }

    /** @return the running server */
    public ConfigurableApplicationContext context() {
        return context;
    }

    /** @return its HTTP port */
    public int port() {
        return ServerApps.port(context);
    }

    /** @return the fresh database's name */
    public String database() {
        return database;
    }

    @Override
    public void close() throws SQLException {
        try {
            context.close();
        } finally {
            execute(TestServices.mariadb(), "DROP DATABASE IF EXISTS " + database);
        }
    }

    /**
     * @param heading a heading line, such as {@code ## HTTP}
     * @return the text of its section, up to the next heading of its level or above
     */
    public static String section(String guide, String heading) {
        int level = heading.indexOf(' ');
        StringBuilder section = null;
        boolean fenced = false;
        for (String line : guide.split("\n", -1)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            if (!fenced && line.matches("#{1," + level + "} .*")) {
                if (section != null) {
                    break;
                }
                if (line.equals(heading)) {
                    section = new StringBuilder();
                }
            }
            if (section != null) {
                section.append(line).append('\n');
            }
        }
        assertThat(section).as("docs/server.md has the section '%s'", heading).isNotNull();
        return section.toString();
    }

    /** @return the lines of the section's {@code ```bash} blocks, a line ending in a backslash joined to the next */
    public static List<String> joinedLines(String section) {
        List<String> lines = new ArrayList<>();
        Matcher blocks = Pattern.compile("```bash\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (blocks.find()) {
            StringBuilder line = new StringBuilder();
            for (String raw : blocks.group(1).split("\n", -1)) {
                if (raw.endsWith("\\")) {
                    line.append(raw, 0, raw.length() - 1);
                    continue;
                }
                line.append(raw);
                lines.add(line.toString());
                line.setLength(0);
            }
        }
        return lines;
    }

    /** @return the one line that starts with {@code start} */
    public static String only(List<String> lines, String start) {
        List<String> found =
                lines.stream().filter(line -> line.startsWith(start)).toList();
        assertThat(found).as("lines starting with '%s'", start).hasSize(1);
        return found.get(0);
    }

    /** The {@code --name=value} words of the {@code java -jar} line, quotes removed ({@code "$HASH"} stays a name). */
    static List<String> javaArguments(String line) {
        List<String> arguments = new ArrayList<>();
        for (String word : line.trim().split("\\s+")) {
            if (word.startsWith("#")) {
                break;
            }
            if (word.startsWith("--")) {
                arguments.add(word.replace("\"", ""));
            }
        }
        return arguments;
    }

    /** @return what bash printed for the script, line by line; fails when it exits other than 0 */
    static List<String> bash(String script) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("bash: %s%n%s", script, output).isZero();
        return output.lines().toList();
    }

    private static void execute(TestServices.JdbcEndpoint mariadb, String sql) throws SQLException {
        try (Connection connection =
                        DriverManager.getConnection(mariadb.url(), mariadb.username(), mariadb.password());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
