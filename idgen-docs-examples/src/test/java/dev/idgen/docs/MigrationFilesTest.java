package dev.idgen.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.jdbc.DatabaseDialect;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Flyway migration idgen-jdbc ships for each database holds exactly the DDL idgen itself runs with
 * {@code idgen.jdbc.initialize-schema=always} ({@code META-INF/idgen/*.sql} with the default table names), so the
 * two cannot drift apart; MariaDB's is MySQL's.
 */
class MigrationFilesTest {

    @ParameterizedTest
    @CsvSource({"mysql, MYSQL", "mariadb, MYSQL", "postgresql, POSTGRESQL", "h2, H2"})
    void theFlywayMigrationIsIdgensOwnDdl(String vendor, DatabaseDialect dialect) throws IOException {
        List<String> expected = List.of(
                dialect.ddl("segment", "idgen_segment"),
                dialect.ddl("ticket", "idgen_ticket"),
                dialect.ddl("worker", "idgen_worker"));

        assertThat(statements(read("db/idgen/flyway/" + vendor + "/R__idgen_tables.sql")))
                .isEqualTo(expected);
    }

    @Test
    void theLiquibaseChangelogRunsTheFlywayFilesOfEachDatabase() throws IOException {
        String changelog = read("db/changelog/idgen/idgen-tables.xml");
        for (String vendor : List.of("mysql", "mariadb", "postgresql", "h2")) {
            assertThat(changelog)
                    .contains("<sqlFile dbms=\"" + vendor + "\" path=\"db/idgen/flyway/" + vendor
                            + "/R__idgen_tables.sql\"");
        }
    }

    /** The file's statements, without its comment lines, split at the semicolons that end them. */
    private static List<String> statements(String sql) {
        String withoutComments =
                sql.lines().filter(line -> !line.startsWith("--")).collect(Collectors.joining("\n"));
        return Arrays.stream(withoutComments.split(";\n?"))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = MigrationFilesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
