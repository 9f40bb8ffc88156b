package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.snowflake.SnowflakePreset;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** check against real tables of its own in the MariaDB and PostgreSQL {@code test} databases (.ci/setup). */
class CheckCommandTest {

    private static final String MARIADB_URL = env("IDGEN_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test");
    private static final String MARIADB_USER = env("IDGEN_TEST_MARIADB_USER", "root");
    private static final String MARIADB_PASSWORD = env("IDGEN_TEST_MARIADB_PASSWORD", "");
    private static final String POSTGRES_URL = env("IDGEN_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    private static final String POSTGRES_USER = env("IDGEN_TEST_POSTGRES_USER", "postgres");
    private static final String POSTGRES_PASSWORD = env("IDGEN_TEST_POSTGRES_PASSWORD", "");

    /** A table of this run's own: other test JVMs share the database. */
    private final String table =
            "idgen_cli_check_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);

    private final List<String[]> created = new ArrayList<>();

    @AfterEach
    void dropTables() throws SQLException {
        for (String[] database : created) {
            try (Connection connection = DriverManager.getConnection(database[0], database[1], database[2]);
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void startAboveFindsTheIdsAboveItAndExitsOne() throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= 30; id++) {
            ids.add(id * 100);
        }
        mariadbTable(ids);

        CliRun found = check("--start-above", "1500");

        assertThat(found.code()).isEqualTo(1);
        assertThat(found.out())
                .startsWith("15 IDs in " + table + ".id are above 1500: idgen would issue them again. The first 10:\n")
                .contains("  1600\n", "  2500\n")
                .doesNotContain("  2600\n", "  1500\n");
        assertThat(found.err()).isEmpty();

        CliRun none = check("--start-above", "3000");

        assertThat(none.code()).isZero();
        assertThat(none.out()).startsWith("No ID in " + table + ".id is above 3000");
    }

    @Test
    void presetFindsTheIdsOfIdgensWorkerIdsAndExitsOne() throws SQLException {
        long tick = 500_000_000_000L;
        // Old fleet on worker ids 0-31; one stray ID of worker 40, which idgen was to take.
        List<Long> ids = new ArrayList<>();
        for (long worker = 0; worker < 32; worker++) {
            ids.add(tick << 22 | worker << 12 | 7);
        }
        long stray = (tick + 1) << 22 | 40L << 12 | 1;
        ids.add(stray);
        mariadbTable(ids);

        CliRun found = check("--preset", "hutool", "--worker-ids", "32-1023");

        assertThat(found.code()).isEqualTo(1);
        assertThat(found.out())
                .isEqualTo("1 IDs in " + table + ".id are of worker ids 32-1023 in hutool's layout: idgen would issue"
                        + " them again.\n  " + stray + "\n");
        assertThat(SnowflakePreset.HUTOOL.decode(stray).workerId()).isEqualTo(40);

        CliRun none = check("--preset", "hutool", "--worker-ids", "41-1023");

        assertThat(none.code()).isZero();
        assertThat(none.out()).startsWith("No ID in " + table + ".id is of worker ids 41-1023");
    }

    @Test
    void presetReadsPostgresqlWithASchemaPrefix() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRES_URL, POSTGRES_USER, POSTGRES_PASSWORD);
                Statement statement = connection.createStatement()) {
            created.add(new String[] {POSTGRES_URL, POSTGRES_USER, POSTGRES_PASSWORD});
            statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY)");
            // Sonyflake: the machine id is the lowest 16 bits.
            statement.execute("INSERT INTO " + table + " VALUES (" + (1000L << 24 | 3L << 16 | 9) + "), ("
                    + (1001L << 24 | 12) + ")");
        }

        CliRun found = CliRun.of(
                "check",
                "--jdbc-url",
                POSTGRES_URL,
                "--user",
                POSTGRES_USER,
                "--password",
                POSTGRES_PASSWORD,
                "--table",
                "public." + table,
                "--column",
                "id",
                "--preset",
                "sonyflake",
                "--worker-ids",
                "10-20");

        assertThat(found.code()).isEqualTo(1);
        assertThat(found.out()).startsWith("1 IDs in public." + table + ".id are of worker ids 10-20");
    }

    @Test
    void aTableOrColumnThatIsNotAnIdentifierIsRefusedBeforeAnyQuery() {
        for (String bad : new String[] {"t; DROP TABLE x", "a.b.c", "1t", "t`", "t name"}) {
            CliRun run = CliRun.of(
                    "check",
                    "--jdbc-url",
                    "jdbc:mariadb://127.0.0.1:1/none",
                    "--table",
                    bad,
                    "--column",
                    "id",
                    "--start-above",
                    "1");

            assertThat(run.code()).as(bad).isEqualTo(2);
            assertThat(run.errLine()).as(bad).contains("--table '" + bad + "'");
        }
        CliRun column = CliRun.of(
                "check",
                "--jdbc-url",
                "jdbc:mariadb://127.0.0.1:1/none",
                "--table",
                "t",
                "--column",
                "id)",
                "--start-above",
                "1");
        assertThat(column.errLine()).contains("--column 'id)'");
    }

    @Test
    void aMissingTableIsOneLineAndExitsThree() {
        CliRun run = check("--start-above", "1");

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.errLine()).contains("cannot read " + table + ".id").contains("doesn't exist");
    }

    @Test
    void anUnreachableDatabaseIsOneLineAndExitsThree() {
        CliRun run = CliRun.of(
                "check",
                "--jdbc-url",
                "jdbc:mariadb://127.0.0.1:1/test?connectTimeout=2000",
                "--user",
                "root",
                "--table",
                "t",
                "--column",
                "id",
                "--preset",
                "hutool",
                "--worker-ids",
                "1");

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.errLine()).contains("--jdbc-url jdbc:mariadb://127.0.0.1:1/test");
    }

    @Test
    void aCheckNeedsEitherStartAboveOrPresetWithWorkerIds() {
        assertThat(check().errLine()).contains("--start-above").contains("--preset");
        assertThat(check("--preset", "hutool").code()).isEqualTo(2);
        assertThat(check("--start-above", "1", "--preset", "hutool").errLine()).contains("excludes");
        assertThat(check("--preset", "hutool", "--worker-ids", "0-1024").errLine())
                .contains("--worker-ids '0-1024'");
        assertThat(check("--preset", "snowflake", "--worker-ids", "1").errLine())
                .contains("--preset");
        assertThat(check("--start-above", "-3").errLine()).contains("--start-above '-3'");
    }

    private CliRun check(String... options) {
        List<String> args = new ArrayList<>(List.of(
                "check",
                "--jdbc-url",
                MARIADB_URL,
                "--user",
                MARIADB_USER,
                "--password",
                MARIADB_PASSWORD,
                "--table",
                table,
                "--column",
                "id"));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(String[]::new));
    }

    private void mariadbTable(List<Long> ids) throws SQLException {
        try (Connection connection = DriverManager.getConnection(MARIADB_URL, MARIADB_USER, MARIADB_PASSWORD)) {
            try (Statement statement = connection.createStatement()) {
                created.add(new String[] {MARIADB_URL, MARIADB_USER, MARIADB_PASSWORD});
                statement.execute("CREATE TABLE " + table + " (id BIGINT PRIMARY KEY)");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " VALUES (?)")) {
                for (long id : ids) {
                    insert.setLong(1, id);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
