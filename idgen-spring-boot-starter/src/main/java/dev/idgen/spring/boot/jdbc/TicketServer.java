package dev.idgen.spring.boot.jdbc;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSessionFactory;
import org.mybatis.spring.SqlSessionTemplate;
import java.sql.SQLIntegrityConstraintViolationException;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One Flickr ticket server: a MySQL or MariaDB table with one row per name that hands out {@code offset + k * increment}
 * for k = 1, 2, ..., with a circuit breaker in front of it.
 *
 * <p>The breaker opens on a failure and stays open for {@code retryAfter}; then one call is let through (half-open)
 * and closes it again on success.
 */
public final class TicketServer {

    private static final int INSERT_ATTEMPTS = 3;

    private final String id;
    private final TicketMapper mapper;
    private final SqlSessionFactory sqlSessionFactory;
    private final DataSource dataSource;
    private final TransactionTemplate transactions;
    private final String table;
    private final int offset;
    private final int increment;
    private final boolean createTable;
    private final long retryAfterMillis;
    private final TimeSource timeSource;
    private volatile boolean prepared;

    /** 0 while closed; otherwise the time the breaker may let a probe through. */
    private final AtomicLong openUntil = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile String lastError;

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param sqlSessionFactory a factory on the server's DataSource; the ticket mapper is added to it
     * @param table the checked table name
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param createTable whether to create the table on first use
     * @param timeout the longest an administrative reset may take; ticket calls run in auto-commit and are bounded by
     *        the driver's own timeouts (for MariaDB, socketTimeout in the JDBC URL)
     * @param retryAfter how long the breaker stays open after a failure
     * @param timeSource the clock for the breaker
     */
    public TicketServer(String id, SqlSessionFactory sqlSessionFactory, String table, int offset, int increment,
            boolean createTable, Duration timeout, Duration retryAfter, TimeSource timeSource) {
        this.id = id;
        this.table = SqlIdentifiers.checkTable("table", table);
        this.offset = offset;
        this.increment = increment;
        this.createTable = createTable;
        this.retryAfterMillis = retryAfter.toMillis();
        this.timeSource = timeSource;
        Configuration configuration = sqlSessionFactory.getConfiguration();
        synchronized (configuration) {
            if (!configuration.hasMapper(TicketMapper.class)) {
                configuration.addMapper(TicketMapper.class);
            }
        }
        this.sqlSessionFactory = sqlSessionFactory;
        this.mapper = new SqlSessionTemplate(sqlSessionFactory).getMapper(TicketMapper.class);
        this.dataSource = configuration.getEnvironment().getDataSource();
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.transactions.setTimeout((int) Math.max(1, timeout.toSeconds()));
    }

    /**
     * @return whether the breaker lets a call through now (closed, or open long enough for a probe)
     */
    public boolean isAvailable() {
        long until = openUntil.get();
        return until == 0 || timeSource.currentTimeMillis() >= until;
    }

    /**
     * @return whether the breaker is open (the last call failed)
     */
    public boolean isOpen() {
        return openUntil.get() != 0;
    }

    /**
     * Takes {@code count} IDs in one round trip.
     *
     * @return the last of them; the others are {@code last - k * increment} for k from 1 to count - 1
     * @throws StoreUnavailableException when the server fails; the breaker opens
     */
    public long take(String name, int count) {
        calls.incrementAndGet();
        try {
            try {
                return takeOnce(name, count);
            } catch (PersistenceException | org.springframework.dao.DataAccessException e) {
                // One retry, for a pooled connection the server closed (after a restart). A retry can waste IDs
                // (a gap) but never repeat one: each attempt advances the row again.
                return takeOnce(name, count);
            }
        } catch (RuntimeException e) {
            errors.incrementAndGet();
            lastError = String.valueOf(e.getMessage());
            openUntil.set(timeSource.currentTimeMillis() + retryAfterMillis);
            throw e instanceof StoreUnavailableException unavailable ? unavailable
                    : new StoreUnavailableException("Ticket server " + id + " failed: " + e.getMessage(), e);
        }
    }

    private long takeOnce(String name, int count) {
        prepare();
        for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
            // One session, one connection, auto-commit: the UPDATE commits on its own (its row lock is held for that
            // one statement only) and LAST_INSERT_ID() reads the value it left on the same connection. Two round
            // trips, as raw JDBC would make; no transaction needed, and none of its extra round trips.
            try (SqlSession session = sqlSessionFactory.openSession(true)) {
                TicketMapper tickets = session.getMapper(TicketMapper.class);
                if (tickets.advance(table, name, count, increment) == 1) {
                    long last = tickets.lastInsertId();
                    // Read before write: 16 threads rewriting these shared words on every call would contend.
                    if (openUntil.get() != 0) {
                        openUntil.set(0);
                    }
                    if (lastError != null) {
                        lastError = null;
                    }
                    return last;
                }
                try {
                    tickets.insert(table, name, offset);
                } catch (PersistenceException e) {
                    if (!(e.getCause() instanceof SQLIntegrityConstraintViolationException)) {
                        throw e;
                    }
                    // Another client created the row first.
                }
            }
        }
        throw new StoreUnavailableException("The row for '" + name + "' in " + table + " could not be created");
    }

    /**
     * Administrative reset of one name to its start. See {@code TicketIdService#reset}.
     */
    void reset(String name) {
        prepare();
        transactions.executeWithoutResult(status -> mapper.reset(table, name, offset));
    }

    private void prepare() {
        if (prepared) {
            return;
        }
        synchronized (this) {
            if (!prepared) {
                Connection connection = DataSourceUtils.getConnection(dataSource);
                try {
                    DatabaseDialect dialect = DatabaseDialect.of(connection.getMetaData().getDatabaseProductName());
                    if (dialect != DatabaseDialect.MYSQL) {
                        throw new StoreUnavailableException("Ticket server " + id + " is " + dialect
                                + ": the ticket strategy needs MySQL or MariaDB (LAST_INSERT_ID)");
                    }
                    if (createTable) {
                        try (Statement statement = connection.createStatement()) {
                            statement.execute(dialect.ddl("ticket", table));
                        }
                    }
                    prepared = true;
                } catch (SQLException e) {
                    throw new StoreUnavailableException("Could not prepare ticket server " + id + ": " + e.getMessage(), e);
                } finally {
                    DataSourceUtils.releaseConnection(connection, dataSource);
                }
            }
        }
    }

    public String id() {
        return id;
    }

    public int offset() {
        return offset;
    }

    public long calls() {
        return calls.get();
    }

    public long errors() {
        return errors.get();
    }

    public String lastError() {
        return lastError;
    }

    @Override
    public String toString() {
        return "TicketServer[" + id + ", offset " + offset + " of " + increment + "]";
    }
}
