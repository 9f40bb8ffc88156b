package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store's table on a real MariaDB, on a connection of the test's own: created from the dialect's DDL (again without
 * harm), probed, and checked for the writer column, which is added only where idgen manages the schema.
 */
class TableSchemaMariaDbTest {

    private final String table =
            "idgen_ts_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final HikariDataSource pool = TestServices.mariadb().pool(1);

    @AfterEach
    void dropTable() throws Exception {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            pool.close();
        }
    }

    private TableSchema schema(SchemaInitialization initialization) {
        return new TableSchema("the ticket table " + table, "ticket", table, initialization, 5);
    }

    @Test
    void aTableIsCreatedFromItsDdlAndFoundByTheProbe() throws Exception {
        try (Connection connection = pool.getConnection()) {
            TableSchema schema = schema(SchemaInitialization.ALWAYS);
            assertThatThrownBy(() -> schema.probeTable(connection))
                    .isInstanceOfSatisfying(
                            SQLException.class,
                            e -> assertThat(SqlStates.isMissingTable(e)).isTrue());

            schema.createTable(connection, DatabaseDialect.MYSQL);
            // Again, as a second instance starting does: MariaDB's DDL says IF NOT EXISTS. (The fallback for a
            // database whose DDL races, PostgreSQL's, is not reached here.)
            schema.createTable(connection, DatabaseDialect.MYSQL);

            schema.probeTable(connection);
            assertThat(schema.writerColumn(connection, DatabaseDialect.MYSQL)).isTrue();
            assertThat(schema.writerColumnPresent()).isTrue();
        }
    }

    @Test
    void aMissingWriterColumnIsAddedOnlyWhereIdgenManagesTheSchema() throws Exception {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (name VARCHAR(64) NOT NULL PRIMARY KEY, id BIGINT NOT NULL,"
                    + " increment INT NOT NULL, update_time TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))");

            TableSchema unmanaged = schema(SchemaInitialization.NEVER);
            assertThat(unmanaged.writerColumnPresent()).as("not looked yet").isNull();
            assertThat(unmanaged.writerColumn(connection, DatabaseDialect.MYSQL))
                    .isFalse();
            assertThat(unmanaged.writerColumnPresent()).isFalse();
            assertThat(hasWriterColumn(connection)).isFalse();

            TableSchema managed = schema(SchemaInitialization.ALWAYS);
            assertThat(managed.writerColumn(connection, DatabaseDialect.MYSQL)).isTrue();
            assertThat(managed.writerColumnPresent()).isTrue();
            assertThat(hasWriterColumn(connection)).isTrue();
        }
    }

    private boolean hasWriterColumn(Connection connection) throws SQLException {
        try (ResultSet columns = connection.getMetaData().getColumns(null, null, table, WriterColumn.NAME)) {
            return columns.next();
        }
    }
}
