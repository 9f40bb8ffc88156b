package dev.idgen.jdbc;

import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one JDBC store knows about failovers of its database to a promoted replica: whether it can recognise one (its
 * table has the {@code writer} column), how far its rows jump, how many times this instance moved past one, the last
 * such move, and the database's replication as last read. Every JDBC store has one ({@code failovers()}).
 */
public final class JdbcFailovers {

    private static final System.Logger LOG = System.getLogger(JdbcFailovers.class.getName());

    private final JdbcStatements<?> statements;
    private final long jump;
    private final LongAdder count = new LongAdder();
    private volatile String last;
    /** The database's replication as last read, or {@code null}. */
    private volatile DatabaseReplication replication;

    JdbcFailovers(JdbcStatements<?> statements, long jump) {
        this.statements = statements;
        this.jump = jump;
    }

    /** Counts one move past a failover and logs it. */
    void record(String message) {
        count.increment();
        last = Instant.now() + ": " + message;
        LOG.log(System.Logger.Level.WARNING, message);
    }

    /**
     * @return whether the table records which server wrote each row, so that a failover is recognised; {@code null}
     *         until the database has been reached
     */
    public Boolean detection() {
        return statements.schema().writerColumnPresent();
    }

    /**
     * @return how far a row jumps after a failover, or -1 for a store whose rows do not jump (leases are fenced)
     */
    public long jump() {
        return jump;
    }

    /**
     * @return how many times this instance moved past a failover: rows jumped (segments, tickets), or lease tables
     *         fenced
     */
    public long count() {
        return count.sum();
    }

    /**
     * @return when and what this instance last moved past, in words, or {@code null}
     */
    public String last() {
        return last;
    }

    /**
     * Reads what a failover of the store's database can do (see {@link DatabaseReplication}), for the start-up log;
     * {@link #replication()} returns it afterwards.
     *
     * @throws dev.idgen.core.StoreUnavailableException when the database cannot be reached
     */
    public DatabaseReplication readReplication() {
        DatabaseReplication read = statements.execute(
                "read the database's replication", (connection, sql) -> DatabaseReplication.of(connection));
        replication = read;
        return read;
    }

    /**
     * @return the replication as last read by {@link #readReplication()}, or {@code null}
     */
    public DatabaseReplication replication() {
        return replication;
    }
}
