package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.jdbc.RowCounterSql.Rows;
import org.junit.jupiter.api.Test;

/**
 * The counter's statement text per dialect, without a database: the parameters come in the order {@link RowCounter}
 * binds them (floor, delta, name, guard), the row is raised to the floor before the delta is added, only the rows of
 * the writer asked for match, and a row taken over from another writer (or none) is stamped with this server.
 */
class RowCounterSqlTest {

    @Test
    void mysqlStoresTheNewValueForLastInsertIdAndReadsItBack() {
        RowCounterSql sql = RowCounterSql.of(DatabaseDialect.MYSQL, "t", "name", "id", "increment", Rows.WRITTEN_HERE);

        assertThat(sql.update())
                .isEqualTo("UPDATE t SET id = LAST_INSERT_ID(GREATEST(id, ?) + ?)"
                        + " WHERE name = ? AND increment = ? AND writer = CAST(@@server_id AS CHAR)");
        assertThat(sql.readBack()).isEqualTo("SELECT LAST_INSERT_ID()");
    }

    @Test
    void postgresReturnsTheNewValueAndStampsARowWrittenElsewhere() {
        RowCounterSql sql =
                RowCounterSql.of(DatabaseDialect.POSTGRESQL, "t", "name", "max_id", null, Rows.WRITTEN_ELSEWHERE);
        String identity = WriterColumn.identity(DatabaseDialect.POSTGRESQL);

        assertThat(sql.update())
                .isEqualTo("UPDATE t SET max_id = GREATEST(max_id, ?) + ?, writer = " + identity
                        + " WHERE name = ? AND writer <> " + identity + " RETURNING max_id");
        assertThat(sql.readBack()).isNull();
    }

    @Test
    void h2ReadsTheNewValueFromTheFinalTableAndStampsAnUnstampedRow() {
        RowCounterSql sql = RowCounterSql.of(DatabaseDialect.H2, "t", "name", "id", "increment", Rows.UNSTAMPED);

        assertThat(sql.update())
                .isEqualTo("SELECT id FROM FINAL TABLE (UPDATE t SET id = GREATEST(id, ?) + ?, writer = 'h2'"
                        + " WHERE name = ? AND increment = ? AND writer IS NULL)");
        assertThat(sql.readBack()).isNull();
    }

    @Test
    void withoutAWriterColumnAnyRowOfTheNameMatchesAndNothingIsStamped() {
        for (DatabaseDialect dialect : DatabaseDialect.values()) {
            RowCounterSql sql = RowCounterSql.of(dialect, "t", "name", "id", null, Rows.ANY);

            assertThat(sql.update()).doesNotContain("writer").contains(" WHERE name = ?");
        }
    }
}
