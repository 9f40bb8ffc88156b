package dev.idgen.jdbc;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.mybatis.spring.SqlSessionTemplate;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A {@link SegmentStore} on one table row per name, through MyBatis on the application's {@link SqlSessionFactory}.
 *
 * <p>An allocation is one short transaction: {@code UPDATE ... SET max_id = max_id + step} and a read back of
 * {@code max_id} (one {@code UPDATE ... RETURNING} on PostgreSQL). The row lock taken by the update makes allocations
 * from any number of instances follow one another. A name not yet in the table is inserted with the initial value in a
 * transaction of its own; when two instances insert the same name at once, one wins and the other's duplicate key is
 * ignored before both advance the row.
 *
 * <p>The dialect is read from the database on first use, and the table created then if configured, so an
 * application starts while its database is down.
 */
public final class JdbcSegmentStore implements SegmentStore {

    private static final int INSERT_ATTEMPTS = 3;

    private final SegmentMapper mapper;
    private final DataSource dataSource;
    private final TransactionTemplate transactions;
    private final String table;
    private final long initialValue;
    private final SchemaInitialization schemaInitialization;
    private final int networkTimeoutMillis;
    private volatile DatabaseDialect dialect;

    /**
     * The pool as the transaction manager sees it: every connection it opens has its reads bounded before the first
     * statement (Spring's {@code setAutoCommit(false)} is one): a transaction timeout becomes a statement timeout, which
     * the database enforces, so a database that stops answering (frozen, or a network that drops packets) would hang
     * the allocation on its socket with no end. As an {@link org.springframework.core.InfrastructureProxy} it binds
     * the transaction to the pool itself, where the MyBatis mapper finds it. The pool restores the connection's own
     * setting when it takes it back.
     */
    private static final class BoundedDataSource extends org.springframework.jdbc.datasource.DelegatingDataSource
            implements org.springframework.core.InfrastructureProxy {

        private final int networkTimeoutMillis;

        BoundedDataSource(DataSource dataSource, int networkTimeoutMillis) {
            super(dataSource);
            this.networkTimeoutMillis = networkTimeoutMillis;
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = super.getConnection();
            try {
                bound(connection, networkTimeoutMillis);
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            return connection;
        }

        @Override
        public Object getWrappedObject() {
            return getTargetDataSource();
        }
    }

    private static void bound(Connection connection, int networkTimeoutMillis) throws SQLException {
        try {
            connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
        } catch (java.sql.SQLFeatureNotSupportedException e) {
            // A driver without network timeouts (H2 in memory has no network): its statement timeout is all there is.
        }
    }

    /**
     * @param sqlSessionFactory the application's factory; the segment mapper is added to its configuration
     * @param table the table, checked by {@link SqlIdentifiers}
     * @param initialValue the {@code max_id} a new name starts from; its first ID is {@code initialValue + 1}
     * @param schemaInitialization when to create the table
     * @param timeout the longest one allocation may take in the database
     */
    public JdbcSegmentStore(SqlSessionFactory sqlSessionFactory, String table, long initialValue,
            SchemaInitialization schemaInitialization, Duration timeout) {
        this.table = SqlIdentifiers.checkTable("table", table);
        if (initialValue < 0) {
            throw new dev.idgen.core.InvalidArgumentException("initialValue", initialValue,
                    "initialValue must be at least 0, but was " + initialValue);
        }
        this.initialValue = initialValue;
        this.schemaInitialization = schemaInitialization;
        Configuration configuration = sqlSessionFactory.getConfiguration();
        synchronized (configuration) {
            // Added to the application's factory, beside (not instead of) its own mapper scanning.
            if (!configuration.hasMapper(SegmentMapper.class)) {
                configuration.addMapper(SegmentMapper.class);
            }
        }
        this.mapper = new SqlSessionTemplate(sqlSessionFactory).getMapper(SegmentMapper.class);
        this.dataSource = configuration.getEnvironment().getDataSource();
        int networkTimeoutMillis = (int) Math.max(1, timeout.toMillis());
        this.networkTimeoutMillis = networkTimeoutMillis;
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(
                new BoundedDataSource(dataSource, networkTimeoutMillis)));
        this.transactions.setTimeout((int) Math.max(1, timeout.toSeconds()));
    }

    @Override
    public Segment allocate(String name, long step) {
        try {
            return allocateOnce(name, step);
        } catch (StoreUnavailableException first) {
            if (!(first.getCause() instanceof org.springframework.dao.DataAccessException)
                    && !(first.getCause() instanceof org.springframework.transaction.TransactionException)) {
                throw first;
            }
            // One retry: after the database restarts, the pool's first connection is often a dead one. Retrying an
            // allocation can at worst waste a block (a gap), never repeat one.
            try {
                return allocateOnce(name, step);
            } catch (StoreUnavailableException second) {
                second.addSuppressed(first);
                throw second;
            }
        }
    }

    private Segment allocateOnce(String name, long step) {
        try {
            DatabaseDialect current = prepare();
            for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
                Long max = transactions.execute(status -> advance(current, name, step));
                if (max != null) {
                    return new Segment(max - step + 1, max);
                }
                insertIfAbsent(name);
            }
            throw new StoreUnavailableException("The row for '" + name + "' in " + table + " could not be created");
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StoreUnavailableException("Could not allocate " + step + " IDs for '" + name + "' from " + table
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Connects, and creates the table if configured: the check behind the health contributor.
     *
     * @throws StoreUnavailableException when the database cannot be reached or the table not be created
     */
    @Override
    public void checkAvailable() {
        try {
            prepare();
            transactions.execute(status -> mapper.maxId(table, "idgen-health-check"));
        } catch (RuntimeException e) {
            throw e instanceof StoreUnavailableException unavailable ? unavailable
                    : new StoreUnavailableException("The segment table " + table + " is unavailable: " + e.getMessage(), e);
        }
    }

    public String table() {
        return table;
    }

    private Long advance(DatabaseDialect current, String name, long step) {
        if (current == DatabaseDialect.POSTGRESQL) {
            return mapper.advanceReturning(table, name, step);
        }
        if (mapper.advance(table, name, step) == 0) {
            return null;
        }
        return mapper.maxId(table, name);
    }

    private void insertIfAbsent(String name) {
        try {
            transactions.executeWithoutResult(status -> mapper.insert(table, name, initialValue));
        } catch (DuplicateKeyException e) {
            // Another instance inserted the same new name first; its row serves both.
        }
    }

    private DatabaseDialect prepare() {
        DatabaseDialect known = dialect;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (dialect == null) {
                Connection connection = DataSourceUtils.getConnection(dataSource);
                try {
                    if (!DataSourceUtils.isConnectionTransactional(connection, dataSource)) {
                        // Not an application transaction's connection: that one keeps its own settings.
                        bound(connection, networkTimeoutMillis);
                    }
                    DatabaseMetaData metaData = connection.getMetaData();
                    DatabaseDialect detected = DatabaseDialect.of(metaData.getDatabaseProductName());
                    if (schemaInitialization.createsTableOn(detected, metaData.getURL())) {
                        createTable(connection, detected);
                    }
                    dialect = detected;
                } catch (SQLException e) {
                    throw new StoreUnavailableException("Could not prepare the segment table " + table + ": "
                            + e.getMessage(), e);
                } finally {
                    DataSourceUtils.releaseConnection(connection, dataSource);
                }
            }
            return dialect;
        }
    }

    private void createTable(Connection connection, DatabaseDialect detected) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(detected.ddl("segment", table));
        } catch (SQLException e) {
            // PostgreSQL's CREATE TABLE IF NOT EXISTS can still fail when another instance creates the table at the
            // same moment; the table existing now is all that matters.
            try (Statement check = connection.createStatement()) {
                check.executeQuery("SELECT max_id FROM " + table + " WHERE 1 = 0").close();
            } catch (SQLException notThere) {
                e.addSuppressed(notThere);
                throw e;
            }
        }
    }


    @Override
    public String toString() {
        return "JdbcSegmentStore[table=" + table + "]";
    }
}
