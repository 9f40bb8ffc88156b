package dev.idgen.jdbc;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A {@link SegmentStore} on one table row per name, through plain JDBC on a {@link DataSource}: MySQL, MariaDB,
 * PostgreSQL and H2, with the DDL in {@code META-INF/idgen/segment-*.sql}.
 *
 * <p>An allocation is one statement that adds {@code step} to the row's {@code max_id} and reads the new value back
 * on the same connection ({@code UPDATE ... RETURNING} on PostgreSQL, {@code SELECT ... FROM FINAL TABLE (UPDATE ...)}
 * on H2, {@code LAST_INSERT_ID(expr)} and {@code SELECT LAST_INSERT_ID()} on MySQL and MariaDB), committed on its
 * own: the row lock it takes lasts that one statement and makes allocations from any number of instances follow one another. A name not yet in the table is inserted with the
 * initial value first; when two instances insert the same name at once, one wins and the other's duplicate key is
 * ignored before both advance the row.
 *
 * <p>Every allocation borrows a connection of its own and commits before it returns, so it never joins an
 * application's transaction and an application's rollback never takes a block back. Give it a plain connection pool,
 * not a transaction-aware proxy.
 *
 * <p>The dialect is read from the database on first use, and the table created then if configured, so an
 * application starts while its database is down.
 */
public final class JdbcSegmentStore implements SegmentStore {

    /**
     * How far a row jumps when the database turns out to be a promoted copy that may have lost writes, unless
     * configured otherwise: 10^11, room for a fleet drawing 100 million IDs a second (segments served from memory
     * reach that in one busy instance) through a replica lag of over 15 minutes; after 1,000 failovers IDs are still
     * below 2^47, far below 2^63 and below 2^52, the redis strategy's limit.
     */
    public static final long DEFAULT_FAILOVER_JUMP = 100_000_000_000L;

    /** The segment table's name when none is configured (idgen's own layout). */
    public static final String DEFAULT_TABLE = "idgen_segment";

    private static final int INSERT_ATTEMPTS = 3;

    private final JdbcStatements<Sql> statements;
    private final SegmentTableLayout layout;
    private final String table;
    private final long initialValue;
    private final long failoverJump;
    private final JdbcFailovers failovers;

    /** The statements of one dialect, built once the database is known. */
    private record Sql(StampedCounter advance, String insert, String stampLeafRows) {

        static Sql of(
                Connection connection,
                DatabaseDialect dialect,
                SegmentTableLayout layout,
                String table,
                JdbcStatements<?> statements,
                JdbcFailovers failovers)
                throws SQLException {
            boolean stamped = statements.schema().writerColumn(connection, dialect);
            String insert = layout.insert(table, stamped ? WriterColumn.identity(dialect) : null);
            String stampLeafRows = layout == SegmentTableLayout.LEAF && stamped
                    ? "UPDATE " + table + " SET " + WriterColumn.NAME + " = " + WriterColumn.identity(dialect)
                            + " WHERE " + WriterColumn.NAME + " IS NULL"
                    : null;
            if (stampLeafRows != null) {
                stampLeafRows(statements, connection, stampLeafRows);
            }
            return new Sql(
                    new StampedCounter(
                            dialect,
                            table,
                            layout.key(),
                            "max_id",
                            null,
                            false,
                            stamped,
                            insert,
                            layout.what(),
                            failovers),
                    insert,
                    stampLeafRows);
        }

        /**
         * Stamps this server on the rows no idgen instance wrote yet: tags only Leaf servers served, which never set
         * the writer. A row left unstamped would be adopted without a jump after a promotion (as a row from before
         * the column is), so the IDs a Leaf server took from the lost primary could come again from idgen; stamped,
         * a promoted copy shows on it.
         */
        static void stampLeafRows(JdbcStatements<?> statements, Connection connection, String sql) throws SQLException {
            try (PreparedStatement stamp = statements.prepare(connection, sql)) {
                stamp.executeUpdate();
            }
        }
    }

    /**
     * A store whose rows jump {@link #DEFAULT_FAILOVER_JUMP} after a failover to a promoted replica.
     *
     * @param dataSource the database, a plain connection pool; its connection timeout bounds how long an allocation
     *        waits for a connection
     * @param table the table, checked by {@link SqlIdentifiers}
     * @param initialValue the {@code max_id} a new name starts from; its first ID is {@code initialValue + 1}
     * @param schemaInitialization when to create the table
     * @param timeout the longest one statement may take in the database, rounded up to whole seconds (at least one)
     * @throws InvalidArgumentException naming {@code table} or {@code initialValue} when it breaks its rule
     */
    public JdbcSegmentStore(
            DataSource dataSource,
            String table,
            long initialValue,
            SchemaInitialization schemaInitialization,
            Duration timeout) {
        this(dataSource, table, initialValue, schemaInitialization, timeout, DEFAULT_FAILOVER_JUMP);
    }

    /**
     * @param dataSource the database, a plain connection pool; its connection timeout bounds how long an allocation
     *        waits for a connection
     * @param table the table, checked by {@link SqlIdentifiers}
     * @param initialValue the {@code max_id} a new name starts from; its first ID is {@code initialValue + 1}
     * @param schemaInitialization when to create the table
     * @param timeout the longest one statement may take in the database, rounded up to whole seconds (at least one)
     * @param failoverJump how far a row jumps when the database turns out to be a promoted copy that may have lost
     *        writes (see {@link StampedCounter}): at least the IDs the fleet takes during the replica's lag; 0 turns
     *        the jump off (for databases whose failovers lose nothing)
     * @throws InvalidArgumentException naming {@code table}, {@code initialValue} or {@code failoverJump} when it
     *         breaks its rule
     */
    public JdbcSegmentStore(
            DataSource dataSource,
            String table,
            long initialValue,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            long failoverJump) {
        this(dataSource, SegmentTableLayout.IDGEN, table, initialValue, schemaInitialization, timeout, failoverJump);
    }

    /**
     * A store on a table of another layout: {@link SegmentTableLayout#LEAF Leaf's} {@code leaf_alloc}, shared with Leaf
     * servers still running.
     *
     * @param layout the table's columns and what a row's {@code max_id} means
     * @param dataSource the database, a plain connection pool
     * @param table the table, checked by {@link SqlIdentifiers}
     * @param initialValue a new name's first ID is {@code initialValue + 1}
     * @param schemaInitialization when to create the table
     * @param timeout the longest one statement may take in the database, rounded up to whole seconds (at least one)
     * @param failoverJump see {@link #JdbcSegmentStore(DataSource, String, long, SchemaInitialization, Duration, long)}
     * @throws InvalidArgumentException naming {@code table}, {@code initialValue} or {@code failoverJump} when it
     *         breaks its rule
     */
    public JdbcSegmentStore(
            DataSource dataSource,
            SegmentTableLayout layout,
            String table,
            long initialValue,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            long failoverJump) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.table = SqlIdentifiers.checkTable("table", table);
        if (initialValue < 0) {
            throw new InvalidArgumentException(
                    "initialValue", initialValue, "initialValue must be at least 0, but was " + initialValue);
        }
        if (failoverJump < 0 || failoverJump > MAX_FAILOVER_JUMP) {
            throw new InvalidArgumentException(
                    "failoverJump",
                    failoverJump,
                    "failoverJump must be between 0 and " + MAX_FAILOVER_JUMP + ", but was " + failoverJump);
        }
        this.initialValue = initialValue;
        this.failoverJump = failoverJump;
        this.statements = new JdbcStatements<>(
                dataSource,
                layout.description() + " " + this.table,
                layout.ddlKind(),
                this.table,
                schemaInitialization,
                timeout,
                null,
                this::prepare);
        this.failovers = new JdbcFailovers(statements, failoverJump);
    }

    private Sql prepare(Connection connection, DatabaseDialect dialect) throws SQLException {
        return Sql.of(connection, dialect, layout, table, statements, failovers);
    }

    /** The largest failover jump: 2^50, so that a thousand jumps still leave most of the 63 bits. */
    public static final long MAX_FAILOVER_JUMP = 1L << 50;

    /**
     * {@inheritDoc}
     *
     * <p>A connection that turns out to be broken (after a database restart) is replaced once: a repeated
     * allocation can at worst waste a block (a gap), never repeat one.
     *
     * @throws InvalidArgumentException naming {@code step} when it is below 1
     */
    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement: the row becomes {@code GREATEST(max_id, floor) + step}, so the block always lies above
     * {@code floor} and holds exactly {@code step} IDs.
     *
     * @throws InvalidArgumentException naming {@code step} when it is below 1
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        if (step < 1) {
            throw new InvalidArgumentException("step", step, "step must be at least 1, but was " + step);
        }
        long above = Math.max(0, floor);
        for (int attempt = 0; ; attempt++) {
            long max = statements.executeRetryingOnce(
                    "allocate " + step + " IDs for '" + name + "'",
                    (connection, sql) -> advance(connection, sql, name, layout.counterFloor(above), step));
            long first = Math.max(Math.max(1, above + 1), layout.firstOf(max, step));
            long last = layout.lastOf(max);
            if (last >= first) {
                return new Segment(first, last);
            }
            // Only a row of another layout below ID 1 (Leaf's max_id 0, or a floor inside the block) leaves nothing:
            // the next block is whole.
            if (attempt == 2) {
                throw new StoreUnavailableException("The row for '" + name + "' in " + table + " at " + max
                        + " gave no ID above " + above + " in three allocations");
            }
        }
    }

    private long advance(Connection connection, Sql sql, String name, long floor, long step) throws SQLException {
        for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
            long max = sql.advance().advance(statements, connection, name, floor, step, 0, failoverJump, true);
            if (max != JdbcStatements.NO_ROW) {
                return max;
            }
            insertIfAbsent(connection, sql, name);
        }
        throw new StoreUnavailableException("The row for '" + name + "' in " + table + " could not be created");
    }

    private void insertIfAbsent(Connection connection, Sql sql, String name) throws SQLException {
        try (PreparedStatement insert = statements.prepare(connection, sql.insert())) {
            insert.setString(1, name);
            insert.setLong(
                    2,
                    sql.advance()
                            .initialValue(statements, connection, layout.initialMax(initialValue), failoverJump, true));
            insert.executeUpdate();
        } catch (SQLException e) {
            // Another instance inserted the same new name first (concurrent inserts of one key can also end in a
            // deadlock on InnoDB, with one of them through); its row serves both.
            if (!SqlStates.isDuplicateKey(e) && !SqlStates.isDeadlock(e)) {
                throw e;
            }
        }
    }

    /**
     * Connects, creates the table if configured, and reads from it: the check behind the health contributor.
     *
     * @throws StoreUnavailableException when the database cannot be reached, a {@link TableMissingException} when it
     *         answered but the table is not there
     */
    @Override
    public void checkAvailable() {
        statements.execute("check availability", (connection, sql) -> {
            statements.schema().probeTable(connection);
            if (sql.stampLeafRows() != null) {
                // Tags added to Leaf's table since: stamped on every check (the health check's period), so that a
                // tag only Leaf servers serve is stamped long before a failover could lose its writes.
                Sql.stampLeafRows(statements, connection, sql.stampLeafRows());
            }
            return null;
        });
    }

    @Override
    public Optional<List<String>> names() {
        return Optional.of(statements.execute("list the names", (connection, sql) -> {
            List<String> names = new ArrayList<>();
            try (PreparedStatement select =
                            statements.prepare(connection, "SELECT " + layout.key() + " FROM " + table);
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String name = rows.getString(1);
                    if (IdArguments.isName(name)) {
                        names.add(name);
                    }
                }
            }
            return names;
        }));
    }

    /**
     * @return what this store knows about failovers of its database to a promoted replica
     */
    public JdbcFailovers failovers() {
        return failovers;
    }

    /**
     * @return the table the segments live in
     */
    public String table() {
        return table;
    }

    /**
     * @return for example {@code table idgen_segment on MariaDB jdbc:mariadb://127.0.0.1:3306/test}: the database as
     *         the first connection identified it, without credentials ({@code on a database not reached yet} before);
     *         never a database call
     */
    @Override
    public String toString() {
        return "table " + table + " on " + statements.database();
    }
}
