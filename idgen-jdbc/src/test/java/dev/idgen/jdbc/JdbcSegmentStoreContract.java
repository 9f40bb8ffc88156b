package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.test.SegmentStoreContract;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The segment store contract on a real database, plus what only the JDBC store has. Every store a test asks for has
 * its own connection pool, as separate application instances would, on one table created for the test.
 */
abstract class JdbcSegmentStoreContract extends SegmentStoreContract {

    protected final String table =
            "idgen_segment_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<HikariDataSource> pools = new ArrayList<>();

    protected abstract TestServices.JdbcEndpoint endpoint();

    @Override
    protected SegmentStore store(long initialValue) {
        return new JdbcSegmentStore(pool(4), table, initialValue, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
    }

    protected HikariDataSource pool(int size) {
        HikariDataSource pool = endpoint().pool(size);
        pools.add(pool);
        return pool;
    }

    @AfterEach
    void dropTable() throws Exception {
        pools.forEach(HikariDataSource::close);
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void anApplicationTransactionThatRollsBackTakesNoBlockBack() throws Exception {
        // The pool lends manual-commit connections, as many applications configure theirs.
        HikariDataSource pool = pool(2);
        pool.setAutoCommit(false);
        JdbcSegmentStore store =
                new JdbcSegmentStore(pool, table, 0, SchemaInitialization.ALWAYS, Duration.ofSeconds(5));
        String name = uniqueName();
        String marker = uniqueName();
        assertThat(store.allocate(name, 10)).isEqualTo(new Segment(1, 10));
        Segment taken;
        try (Connection application = pool.getConnection()) {
            application.setAutoCommit(false);
            try (PreparedStatement write =
                    application.prepareStatement("INSERT INTO " + table + " (name, max_id, step) VALUES (?, 0, 0)")) {
                write.setString(1, marker);
                write.executeUpdate();
            }
            taken = store.allocate(name, 10);
            application.rollback();
        }
        assertThat(taken).isEqualTo(new Segment(11, 20));
        assertThat(maxId(marker))
                .as("the application's own write was rolled back")
                .isNull();
        assertThat(maxId(name))
                .as("the row kept the advance taken during the transaction")
                .isEqualTo(20);
        assertThat(store.allocate(name, 10).first()).as("never issued again").isEqualTo(21);
    }

    @Test
    void withoutSchemaInitializationTheTableComesFromTheShippedDdl() throws Exception {
        JdbcSegmentStore store =
                new JdbcSegmentStore(pool(2), table, 0, SchemaInitialization.NEVER, Duration.ofSeconds(5));
        String name = uniqueName();
        assertThatThrownBy(() -> store.allocate(name, 10))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(table)
                .hasMessageContaining("allocate 10 IDs for '" + name + "'");
        DatabaseDialect dialect;
        try (Connection connection = endpoint().connect()) {
            dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
        }
        assertThatThrownBy(store::checkAvailable)
                .isInstanceOfSatisfying(TableMissingException.class, e -> {
                    assertThat(e.table()).isEqualTo(table);
                    assertThat(e.kind()).isEqualTo("segment");
                    assertThat(e.ddlResource()).isEqualTo(dialect.ddlResource("segment"));
                })
                .hasMessageStartingWith("The segment table " + table + " does not exist (schema initialization never);"
                        + " create it from " + dialect.ddlResource("segment"));
        try (Connection connection = endpoint().connect();
                Statement statement = connection.createStatement()) {
            statement.execute(dialect.ddl("segment", table));
        }
        store.checkAvailable();
        assertThat(store.allocate(name, 10)).isEqualTo(new Segment(1, 10));
    }

    @Test
    void aStepBelowOneIsRefusedNamingTheArgument() {
        SegmentStore store = store(0);
        assertThatThrownBy(() -> store.allocate(uniqueName(), 0))
                .isInstanceOf(InvalidArgumentException.class)
                .satisfies(e ->
                        assertThat(((InvalidArgumentException) e).argument()).isEqualTo("step"));
    }

    /**
     * @return the row's max_id read on a connection of the test's own, or {@code null} when there is no row
     */
    private Long maxId(String name) throws SQLException {
        try (Connection connection = endpoint().connect();
                PreparedStatement select =
                        connection.prepareStatement("SELECT max_id FROM " + table + " WHERE name = ?")) {
            select.setString(1, name);
            try (ResultSet result = select.executeQuery()) {
                return result.next() ? result.getLong(1) : null;
            }
        }
    }
}
