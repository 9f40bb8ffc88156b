package dev.idgen.jdbc;

import dev.idgen.core.CircuitBreaker;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.coalesce.DeadlinePassedException;
import dev.idgen.core.coalesce.RangeCoalescer;
import dev.idgen.core.segment.SegmentStartFloor;
import dev.idgen.jdbc.TicketTable.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * One Flickr ticket server: a table with one row per name, on MySQL, MariaDB, PostgreSQL or H2, that hands out
 * {@code offset + k * increment} for k = 1, 2, ..., behind a {@link CircuitBreaker}. DDL in
 * {@code META-INF/idgen/ticket-*.sql}.
 *
 * <p>A round trip is one statement that advances the row by {@code count * increment} and reads the new value back on
 * the same connection ({@code UPDATE ... RETURNING} on PostgreSQL, {@code FINAL TABLE} on H2, on MySQL and MariaDB
 * {@code LAST_INSERT_ID(expr)}, whose value the server reports in the update's reply; {@code SELECT LAST_INSERT_ID()}
 * only for a driver that does not pass it on). The row lock lasts that one statement, so concurrent clients queue
 * instead of deadlocking as Flickr's {@code REPLACE INTO} does on InnoDB.
 *
 * <p><b>Combining.</b> {@link #nextId(String)} calls for one name that arrive while {@value #MAX_IN_FLIGHT} round
 * trips for it are in flight wait, and the next round trip takes one ID for each of them ({@code UPDATE ... + n *
 * increment}, up to {@value #MAX_BATCH} callers) and hands the range out ({@link RangeCoalescer}). A caller that finds
 * fewer in flight runs its round trip at once, on its own thread. A round trip only serves calls that were waiting
 * before it started, so <b>a call that starts after another call to this server returned gets a larger ID</b>, as
 * with one round trip per call.
 * {@link #take(String, int)} (batches) is one round trip of its own, not combined. Calls for the first
 * {@value #COALESCED_NAMES} names are combined; further names each get one round trip per call.
 *
 * <p>Every round trip runs on a connection of its own in auto-commit, outside any application transaction: the update
 * is committed before its ID is handed out, whatever the pool's auto-commit default, and an application transaction
 * that rolls back cannot take an issued ID back.
 *
 * <p>Each row records the increment (the number of servers) it was written with, and only a server with that
 * increment advances it: a server count changed without migrating the rows would otherwise hand out IDs another
 * server also hands out.
 *
 * <p>The breaker opens on a failed round trip; once {@code retryAfter} has passed (on the monotonic clock), exactly
 * one caller probes the server, and a success closes it again. Only the probe's own outcome moves the half-open
 * breaker, reported on the probe's thread even when another caller led the round trip that served it.
 *
 * <p><b>Bounded waits.</b> No call waits longer than the timeout, counted from its start, queueing behind another
 * caller's round trip included; then it throws {@link StoreUnavailableException}. A database that stops answering
 * (stopped, paused, a dropped network) can hold a connection attempt or a pool's acquisition or validation far longer
 * than any statement timeout, none of which is the caller's to wait for: so connections are borrowed from the pool
 * on a small executor of the server's own while the caller waits at most until its deadline, and are then kept for
 * the next calls for a short while ({@link ConnectionLeases}: back to the pool after 100 ms idle or 1 s out). A round
 * trip on a kept connection runs on the caller's own thread with the connection's network timeout (its socket reads)
 * set to the time the call has left: no thread hand-off in the normal case, and no query timeout (the network timeout
 * ends the wait no later; a statement the server still runs then, say one waiting for the row's lock, ends on the
 * server's terms). A call that times out may still have advanced the row: that wastes IDs (a gap), never repeats one.
 * On H2 (embedded H2 has no socket, over TCP it ignores network timeouts) and on a driver without network timeouts,
 * every round trip runs on the executor, the caller waiting at most until its deadline.
 *
 * <p>This class decides when, for whom and on which thread a round trip runs; what a round trip sends to the table is
 * {@link TicketTable}, and the executor with its bounded waits {@link BoundedExecutor}.
 */
public final class TicketServer implements AutoCloseable {

    /** The most {@link #nextId(String)} calls one round trip serves. */
    public static final int MAX_BATCH = 1024;

    /**
     * The most round trips for one name in flight at once (see {@link RangeCoalescer}). With one, callers alternate in
     * two groups, each call waits about two round trips, and the database flushes one commit at a time. Measured
     * against MariaDB on the same 2 cores at 16 threads, against plain JDBC: with slow commits (1-2 ms flushes) 1 in
     * flight served 0.5-0.95 times as many calls, 4 served 1.7-2.3 times; with fast commits 1 served 3.7-3.9 times, 4
     * served 3.1-3.3 times, 8 only 2.2 times (smaller batches).
     */
    public static final int MAX_IN_FLIGHT = 4;

    /** How many names get their calls combined; calls for further names get one round trip each. */
    public static final int COALESCED_NAMES = 1000;

    /** IDs handed out before the table was in use, per name: the floor of every round trip besides its own. */
    private final SegmentStartFloor startFloor;

    private final String id;
    private final String table;
    private final int offset;
    private final int increment;
    private final Duration timeout;
    private final long timeoutNanos;
    private final TicketTable ticketTable;
    private final JdbcStatements<Sql> statements;
    private final CircuitBreaker breaker;
    private final BoundedExecutor executor;
    private final ConnectionLeases<Sql> leases;
    private final JdbcFailovers failovers;

    /**
     * The highest ID this instance took per name (for the first {@link #COALESCED_NAMES} names): every round trip
     * raises the row to at least it first, so a database that went back (a promoted replica that lagged) never hands
     * this instance's own IDs out again.
     */
    private final ConcurrentHashMap<String, AtomicLong> highest = new ConcurrentHashMap<>();

    /** One per name, for the first {@link #COALESCED_NAMES} names. */
    private final ConcurrentHashMap<String, RangeCoalescer> coalescers = new ConcurrentHashMap<>();

    private final AtomicInteger coalescedNames = new AtomicInteger();

    private final LongAdder calls = new LongAdder();
    private final AtomicLong errors = new AtomicLong();
    private final LongAdder issued = new LongAdder();
    private volatile String lastError;

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database, a plain connection pool
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param createTable whether to create the table on first use ({@link SchemaInitialization#ALWAYS}) or never
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included
     * @param retryAfter how long the breaker stays open after a failure
     * @param timeSource the monotonic clock for the breaker
     */
    public TicketServer(
            String id,
            DataSource dataSource,
            String table,
            int offset,
            int increment,
            boolean createTable,
            Duration timeout,
            Duration retryAfter,
            TimeSource timeSource) {
        this(
                id,
                dataSource,
                table,
                offset,
                increment,
                createTable ? SchemaInitialization.ALWAYS : SchemaInitialization.NEVER,
                timeout,
                retryAfter,
                timeSource);
    }

    /**
     * How far a ticket row jumps when the database turns out to be a promoted copy that may have lost writes, unless
     * configured otherwise: one million tickets per server, room for 10,000 tickets a second through 100 s of replica
     * lag. Tickets are chosen for dense numbers; a jump is a gap of that many, once per failover.
     */
    public static final long DEFAULT_FAILOVER_JUMP = 1_000_000L;

    /**
     * A server whose rows jump {@link #DEFAULT_FAILOVER_JUMP} after a failover to a promoted replica.
     *
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database, a plain connection pool
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param schemaInitialization when to create the table on first use
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included;
     *        each statement's own timeout is this rounded up to whole seconds
     * @param retryAfter how long the breaker stays open after a failure, from 0 to
     *        {@link CircuitBreaker#MAX_OPEN_DURATION}
     * @param timeSource the monotonic clock for the breaker
     * @throws InvalidArgumentException naming {@code offset}, {@code table} or {@code retryAfter} when it breaks its
     *         rule
     */
    public TicketServer(
            String id,
            DataSource dataSource,
            String table,
            int offset,
            int increment,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            Duration retryAfter,
            TimeSource timeSource) {
        this(
                id,
                dataSource,
                table,
                offset,
                increment,
                schemaInitialization,
                timeout,
                retryAfter,
                timeSource,
                DEFAULT_FAILOVER_JUMP);
    }

    /**
     * @param id a name for metrics and health, e.g. the DataSource bean name
     * @param dataSource the server's database, a plain connection pool
     * @param table the table name, checked by {@link SqlIdentifiers}
     * @param offset this server's offset, from 0 to {@code increment - 1}
     * @param increment the number of servers
     * @param schemaInitialization when to create the table on first use
     * @param timeout the longest one call may wait on the database, connecting and borrowing a connection included;
     *        each statement's own timeout is this rounded up to whole seconds
     * @param retryAfter how long the breaker stays open after a failure, from 0 to
     *        {@link CircuitBreaker#MAX_OPEN_DURATION}
     * @param timeSource the monotonic clock for the breaker
     * @param failoverJump how many tickets a row skips when the database turns out to be a promoted copy that may have
     *        lost writes (rounded up to a multiple of {@code increment}, so the server keeps its residue): at least the
     *        tickets the fleet takes from this server during the replica's lag; 0 turns the jump off
     * @throws InvalidArgumentException naming {@code offset}, {@code table}, {@code retryAfter} or
     *         {@code failoverJump} when it breaks its rule
     */
    public TicketServer(
            String id,
            DataSource dataSource,
            String table,
            int offset,
            int increment,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            Duration retryAfter,
            TimeSource timeSource,
            long failoverJump) {
        this(
                id,
                dataSource,
                table,
                offset,
                increment,
                schemaInitialization,
                timeout,
                retryAfter,
                timeSource,
                failoverJump,
                SegmentStartFloor.NONE);
    }

    /**
     * As {@link #TicketServer(String, DataSource, String, int, int, SchemaInitialization, Duration, Duration,
     * TimeSource, long)}, with IDs handed out before this table was in use.
     *
     * @param startFloor what each name's tickets must lie above besides the row (an auto-increment column's highest
     *        value, a start-above setting): passed as the floor of every round trip, so a new row, or one below it,
     *        moves past it in the same statement
     */
    public TicketServer(
            String id,
            DataSource dataSource,
            String table,
            int offset,
            int increment,
            SchemaInitialization schemaInitialization,
            Duration timeout,
            Duration retryAfter,
            TimeSource timeSource,
            long failoverJump,
            SegmentStartFloor startFloor) {
        this.startFloor = Objects.requireNonNull(startFloor, "startFloor");
        if (failoverJump < 0 || failoverJump > JdbcSegmentStore.MAX_FAILOVER_JUMP) {
            throw new InvalidArgumentException(
                    "failoverJump",
                    failoverJump,
                    "failoverJump must be between 0 and " + JdbcSegmentStore.MAX_FAILOVER_JUMP + ", but was "
                            + failoverJump);
        }
        if (increment < 1 || offset < 0 || offset >= increment) {
            throw new InvalidArgumentException(
                    "offset",
                    offset,
                    "offset must be between 0 and increment - 1 (" + (increment - 1) + "), but was " + offset);
        }
        this.id = Objects.requireNonNull(id, "id");
        this.table = SqlIdentifiers.checkTable("table", table);
        this.offset = offset;
        this.increment = increment;
        Objects.requireNonNull(schemaInitialization, "schemaInitialization");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new InvalidArgumentException("timeout", timeout, "timeout must be positive, but was " + timeout);
        }
        this.timeoutNanos = timeout.toNanos();
        if (retryAfter == null
                || retryAfter.isNegative()
                || retryAfter.compareTo(CircuitBreaker.MAX_OPEN_DURATION) > 0) {
            throw new InvalidArgumentException(
                    "retryAfter",
                    retryAfter,
                    "retryAfter must be between 0 and " + CircuitBreaker.MAX_OPEN_DURATION + ", but was " + retryAfter);
        }
        this.breaker = new CircuitBreaker(retryAfter, timeSource);
        this.ticketTable = new TicketTable(
                id, dataSource, this.table, offset, increment, schemaInitialization, timeout, failoverJump);
        this.statements = ticketTable.statements();
        this.executor = new BoundedExecutor(id, timeoutNanos);
        this.leases = new ConnectionLeases<>(dataSource, statements, executor.executor(), timeout, executor::timedOut);
        this.failovers = ticketTable.failovers();
    }

    /**
     * @return whether a call may go to this server now: the breaker is closed, or this caller won the one probe
     *         allowed once the retry-after has passed
     */
    public boolean tryAcquire() {
        return breaker.tryAcquire();
    }

    /**
     * @return whether the breaker is open or being probed (the last call failed)
     */
    public boolean isOpen() {
        return breaker.isOpen();
    }

    /**
     * Probes a server whose breaker is open once its retry-after has passed, with the table check's round trip (bounded
     * by the timeout, issuing no ID), and closes the breaker when it answers. For the health check: without it a
     * server that failed once (at start-up, say, on a machine too busy to answer within the timeout) would show down
     * until a call for an ID came, and a readiness probe that waits on that health would keep those calls away for
     * good. Touches the database only while the breaker is open, at most once per retry-after.
     *
     * @return whether this call probed the server
     */
    public boolean probeIfDue() {
        if (!breaker.tryProbe()) {
            return false;
        }
        try {
            checkTable();
        } catch (StoreUnavailableException e) {
            return true; // checkTable reported the failure to the breaker: open again for the retry-after
        } catch (RuntimeException e) {
            // A missing table or an unsupported database: the server answered, but cannot serve.
            lastError = String.valueOf(e.getMessage());
            breaker.onFailure();
            return true;
        }
        if (breaker.onSuccess()) {
            lastError = null;
        }
        return true;
    }

    /**
     * Takes one ID, in a round trip shared with the calls for {@code name} waiting meanwhile (see the class comment).
     *
     * @return the ID
     * @throws StoreUnavailableException when the round trip fails (the breaker opens), or none took this call within
     *         the timeout
     */
    public long nextId(String name) {
        RangeCoalescer coalescer = coalescers.get(name);
        if (coalescer == null) {
            coalescer = coalescerFor(name);
            if (coalescer == null) {
                return take(name, 1);
            }
        }
        long id;
        try {
            id = coalescer.next();
        } catch (RuntimeException e) {
            if (breaker.isOpen()) {
                probeFailed(e);
            }
            throw e;
        }
        if (breaker.isOpen()) {
            // This call may be the probe, served by a round trip another caller led (whose own report does not move
            // a half-open breaker): the probe reports on its own thread.
            breaker.onSuccess();
        }
        return id;
    }

    /**
     * Reports a failed call, when it is the probe of the half-open breaker (otherwise the breaker ignores it): a call
     * whose time ran out before its round trip was sent, or that was interrupted, says nothing about the server.
     */
    private void probeFailed(RuntimeException e) {
        if (e instanceof DeadlinePassedException || Thread.currentThread().isInterrupted()) {
            breaker.onAbandoned();
        } else {
            breaker.onFailure();
        }
    }

    private RangeCoalescer coalescerFor(String name) {
        return coalescers.computeIfAbsent(name, key -> {
            if (coalescedNames.incrementAndGet() > COALESCED_NAMES) {
                coalescedNames.decrementAndGet();
                return null;
            }
            return new RangeCoalescer(
                    (int n, long deadline) -> roundTrip(key, n, deadline),
                    MAX_BATCH,
                    MAX_IN_FLIGHT,
                    increment,
                    timeout,
                    "ticket server " + id + " for '" + key + "'");
        });
    }

    /**
     * Drops the combining state and the remembered highest ticket of the names {@code which} accepts (see
     * {@link TicketIdService#forgetNames}); their rows stay. A call in flight for such a name completes; the next call for it starts combining afresh.
     *
     * @return the names forgotten
     */
    List<String> forgetNames(Predicate<? super String> which) {
        List<String> forgotten = new ArrayList<>();
        for (String name : coalescers.keySet()) {
            if (which.test(name) && coalescers.remove(name) != null) {
                coalescedNames.decrementAndGet();
                forgotten.add(name);
            }
        }
        // A passed period's highest ticket no longer needs guarding here (its row only moves forward), and its place
        // goes to a new name.
        highest.keySet().removeIf(which);
        return forgotten;
    }

    /**
     * Takes {@code count} IDs in one round trip of their own.
     *
     * @return the last of them; the others are {@code last - k * increment} for k from 1 to count - 1
     * @throws StoreUnavailableException when the server fails; the breaker opens
     */
    public long take(String name, int count) {
        return roundTrip(name, count, System.nanoTime() + timeoutNanos);
    }

    private long roundTrip(String name, int count, long deadline) {
        if (deadline - System.nanoTime() <= 0) {
            // The time ran out before anything was sent (a caller that led a shared round trip was woken late on a
            // busy machine): that says nothing about the server, so its breaker stays as it is.
            breaker.onAbandoned();
            throw new DeadlinePassedException(executor.timedOut(null).getMessage());
        }
        calls.increment();
        AtomicLong highestOfName = highestOf(name);
        long served = highestOfName == null ? 0 : highestOfName.get();
        try {
            // Inside the try: a start floor that cannot be read (its table's database is down) fails the call.
            long floor =
                    startFloor == SegmentStartFloor.NONE ? served : Math.max(served, aligned(startFloor.above(name)));
            // A connection found broken (after a restart) is replaced once: each attempt advances the row again, so
            // a retry can waste IDs (a gap) but never repeat one.
            long last;
            Sql known = statements.prepared();
            if (known != null && known.onCallerThread()) {
                // On this thread; the connection's reads are bounded by the time left, sooner than a query timeout.
                last = leases.execute(
                        "take IDs",
                        deadline,
                        (connection, sql) -> ticketTable.takeOnce(connection, sql, name, floor, count, false));
            } else {
                last = executor.bounded(
                        deadline,
                        () -> statements.executeRetryingOnce(
                                "take IDs",
                                (connection, sql) -> ticketTable.takeOnce(connection, sql, name, floor, count, true)));
            }
            if (highestOfName != null) {
                highestOfName.accumulateAndGet(last, Math::max);
            }
            breaker.onSuccess();
            // Read before write: many threads rewriting this shared word on every call would contend.
            if (lastError != null) {
                lastError = null;
            }
            issued.add(count);
            return last;
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    /**
     * Connects, creates the table if configured, and checks that it is there, within the timeout: the start-up check.
     * A database that does not answer is a failure like any other call's (the breaker opens); a table that is missing
     * or a database idgen has no statements for is reported as such.
     *
     * @throws TicketTableMissingException when the database answered but the table is not there
     * @throws UnsupportedTicketDatabaseException when the database is not MySQL, MariaDB, PostgreSQL or H2
     * @throws StoreUnavailableException when the database could not be reached
     */
    public void checkTable() {
        try {
            long deadline = System.nanoTime() + timeoutNanos;
            executor.bounded(
                    deadline,
                    () -> statements.execute("check the table", (connection, sql) -> {
                        ticketTable.probe(connection, sql.dialect());
                        return null;
                    }));
        } catch (TicketTableMissingException | UnsupportedTicketDatabaseException e) {
            throw e;
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    private StoreUnavailableException failed(RuntimeException e) {
        if (Thread.currentThread().isInterrupted()) {
            // The caller was interrupted: that says nothing about the server.
            breaker.onAbandoned();
        } else {
            errors.incrementAndGet();
            lastError = String.valueOf(e.getMessage());
            breaker.onFailure();
        }
        return e instanceof StoreUnavailableException unavailable
                ? unavailable
                : new StoreUnavailableException("Ticket server " + id + " failed: " + e.getMessage(), e);
    }

    /**
     * Gives the connections this server keeps back to the pool and stops its executor; calls after this fail.
     */
    @Override
    public void close() {
        leases.close();
        executor.shutdownNow();
    }

    /**
     * Administrative reset of one name to its start. See {@link TicketIdService#reset(String)}.
     */
    void reset(String name) {
        long deadline = System.nanoTime() + timeoutNanos;
        // A reset starts the name over on purpose: this instance's own highest must not push it back up.
        highest.remove(name);
        executor.bounded(
                deadline,
                () -> statements.execute(
                        "reset '" + name + "'", (connection, sql) -> ticketTable.reset(connection, sql, name)));
    }

    /**
     * A start floor moved up to this server's own residue: the row advances by {@code increment} from
     * {@code GREATEST(row, floor)}, so a floor of another residue would make every server issue the same tickets.
     */
    private long aligned(long floor) {
        return floor + Math.floorMod(offset - floor, increment);
    }

    /**
     * @return the name's highest ID holder, or {@code null} beyond {@link #COALESCED_NAMES} names (their floor is 0:
     *         the failover jump alone keeps them apart)
     */
    private AtomicLong highestOf(String name) {
        AtomicLong known = highest.get(name);
        if (known != null || highest.size() >= COALESCED_NAMES) {
            return known;
        }
        return highest.computeIfAbsent(name, key -> new AtomicLong());
    }

    /**
     * @return whether the connection's network timeout bounds everything a statement waits for: the driver has one,
     *         and it is not H2 (embedded, a statement waiting for a lock has no socket to time out; over TCP, H2
     *         accepts the network timeout and ignores it)
     */
    static boolean boundsItsReads(Connection connection, DatabaseDialect dialect) throws SQLException {
        return dialect != DatabaseDialect.H2 && JdbcStatements.networkTimeout(connection) >= 0;
    }

    /**
     * @return how many statements a round trip sends once the database is known: 1, or 2 on MySQL and MariaDB with a
     *         driver that does not report {@code LAST_INSERT_ID(expr)} (for tests)
     */
    int statementsPerRoundTrip() {
        Sql sql = statements.prepared();
        return sql == null ? -1 : sql.advance().statementsPerAdvance();
    }

    public String id() {
        return id;
    }

    public String table() {
        return table;
    }

    public int offset() {
        return offset;
    }

    /**
     * @return how many round trips (statements advancing the row) this server was asked for; combined calls share
     *         one, so with concurrent callers of one name this is less than the calls made
     */
    public long calls() {
        return calls.sum();
    }

    public long errors() {
        return errors.get();
    }

    /**
     * @return how many IDs this server has handed out through this instance
     */
    public long issued() {
        return issued.sum();
    }

    public String lastError() {
        return lastError;
    }

    /**
     * @return what this store knows about failovers of its database to a promoted replica
     */
    public JdbcFailovers failovers() {
        return failovers;
    }

    /**
     * For the start-up line and logs, never a database call.
     *
     * @return for example {@code ticket table idgen_ticket on MariaDB jdbc:mariadb://127.0.0.1:3306/test}, the
     *         database as the first connection identified it (or {@code on a database not reached yet})
     */
    public String describe() {
        return "ticket table " + table + " on " + statements.database();
    }

    @Override
    public String toString() {
        return "TicketServer[" + id + ", offset " + offset + " of " + increment + "]";
    }
}
