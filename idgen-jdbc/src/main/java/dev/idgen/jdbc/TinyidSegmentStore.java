package dev.idgen.jdbc;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.Segment;
import dev.idgen.core.segment.SegmentStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * A {@link SegmentStore} on Didi Tinyid's {@code tiny_id_info} table, in place, on every database a Tinyid deployment
 * spreads it over, so that idgen instances can run beside Tinyid servers through a rolling replacement.
 *
 * <p><b>Tinyid's rows.</b> Each database has a row per {@code biz_type} with {@code max_id}, {@code step},
 * {@code delta}, {@code remainder} and {@code version}. A Tinyid server picks one database at random, reads the row,
 * and moves {@code max_id} from {@code m} to {@code m + step} with a compare-and-set on {@code max_id} and
 * {@code version}; its segment is then the IDs in {@code (m, m + step]} that leave {@code remainder} when divided by
 * {@code delta}. With {@code d} databases, their rows have {@code delta = d} and remainders {@code 0 .. d-1}, so the
 * databases never issue the same ID.
 *
 * <p><b>A block of idgen's.</b> idgen's blocks are contiguous. To take {@code (a, a + step]} whole, the store moves the
 * name's row <em>in every database</em> to {@code a + step}, where {@code a} is the highest {@code max_id} of them
 * (and at least the caller's floor), with Tinyid's update statement, on the condition that the row is still at or below
 * {@code a}: a Tinyid server that took a segment meanwhile took IDs at or below {@code a} only. Once every row is
 * there, no Tinyid server can hand out an ID of the range in any residue, and the IDs each row skips (from its old
 * {@code max_id} to {@code a}) are a gap, never a repeat. A row found past {@code a} (another idgen instance, or a
 * Tinyid segment across {@code a}) starts the allocation over; the rows already moved stay moved, which again only
 * skips IDs. Every update also raises {@code version}, so a Tinyid server that read the row before loses its
 * compare-and-set and reads again, as it does against another Tinyid server.
 *
 * <p><b>What it refuses.</b> The rows of a name must make up one whole family: the same {@code delta} everywhere,
 * every remainder from 0 to {@code delta - 1} exactly once, so {@code delta} equals the number of databases. A row
 * with {@code delta 2} in a single database (Tinyid's sample {@code test_odd}) issues only one residue: idgen could not
 * keep to it, and refuses the name rather than hand out IDs of another form. A name with no row anywhere gets one in each
 * database (for the i-th database {@code delta} is the number of databases and {@code remainder} i: every instance
 * must list the databases in the same order, as for idgen's own segment servers), so Tinyid servers can serve it as
 * well. A name with rows in some databases only is refused once an instance that may still be creating them had time
 * to: a row made up in a database listed in place of the one that holds its residue would issue that residue's IDs
 * again. A row with a negative {@code step} is refused: a Tinyid server would move {@code max_id} back.
 *
 * <p><b>Failovers.</b> Tinyid's table records no writer, so a database that fails over to a replica that lagged
 * behind is not recognised here: its rows go back, and Tinyid servers and this store alike would issue again what the
 * lost primary handed out. The caller's floor still keeps each idgen instance above what it served itself. Run the
 * Tinyid databases without asynchronous failover until the switch is done, then move to idgen's own table (see
 * docs/switching.md), which recognises a promoted replica.
 */
public final class TinyidSegmentStore implements SegmentStore {

    /** The {@code step} column of a row this store creates: what Tinyid servers then take per segment. */
    public static final int NEW_ROW_STEP = 1000;

    /** The longest name: Tinyid's {@code biz_type} is a {@code varchar(63)}. */
    static final int MAX_NAME_LENGTH = 63;

    /** How many times a name with rows in some databases only is read again, for an instance still creating them. */
    static final int CREATION_WAITS = 20;

    /** How many times an allocation starts over after losing a compare-and-set, before it reports the store busy. */
    static final int ATTEMPTS = 50;

    private final List<JdbcStatements<DatabaseDialect>> databases;
    private final String table;
    private final long initialValue;
    private final String select;
    private final String update;
    private final String insert;

    /** One database's row of a name, as Tinyid's select reads it. */
    private record Row(long id, long maxId, long step, long version, int delta, int remainder) {}

    /**
     * @param dataSources Tinyid's databases, each a plain connection pool; for names that have rows in any order (a
     *        row's remainder says which residue it issues), but the same order on every instance, which gives a new
     *        name's rows their remainders
     * @param table the table, checked by {@link SqlIdentifiers}
     * @param initialValue a name new to every database starts with this {@code max_id}; its first ID is one above
     * @param schemaInitialization when to create the table
     * @param timeout the longest one statement may take in the database, rounded up to whole seconds (at least one)
     * @throws InvalidArgumentException naming {@code dataSources}, {@code table} or {@code initialValue}
     */
    public TinyidSegmentStore(
            List<DataSource> dataSources,
            String table,
            long initialValue,
            SchemaInitialization schemaInitialization,
            Duration timeout) {
        if (dataSources == null || dataSources.isEmpty()) {
            throw new InvalidArgumentException("dataSources", dataSources, "Tinyid needs at least one database");
        }
        this.table = SqlIdentifiers.checkTable("table", table);
        if (initialValue < 0) {
            throw new InvalidArgumentException(
                    "initialValue", initialValue, "initialValue must be at least 0, but was " + initialValue);
        }
        this.initialValue = initialValue;
        List<JdbcStatements<DatabaseDialect>> statements = new ArrayList<>();
        for (DataSource dataSource : dataSources) {
            statements.add(new JdbcStatements<>(
                    dataSource,
                    "Tinyid's table " + this.table,
                    "tinyid",
                    this.table,
                    schemaInitialization,
                    timeout,
                    null,
                    (connection, dialect) -> dialect));
        }
        this.databases = List.copyOf(statements);
        // Tinyid's own statements (TinyIdInfoDAOImpl), with the table's name configured.
        this.select = "select id, biz_type, begin_id, max_id, step, delta, remainder, create_time, update_time, version"
                + " from " + this.table + " where biz_type = ?";
        // Tinyid's update, with "at or below" where Tinyid compares max_id and version for equality: a Tinyid server
        // that took a segment ending at or below the block's start took none of its IDs, so the move still holds.
        this.update = "update " + this.table + " set max_id= ?, update_time=now(), version=version+1"
                + " where id=? and max_id<=? and biz_type=?";
        this.insert = "INSERT INTO " + this.table + " (biz_type, begin_id, max_id, step, delta, remainder, create_time,"
                + " update_time, version) VALUES (?, ?, ?, " + NEW_ROW_STEP + ", ?, ?, now(), now(), 0)";
    }

    @Override
    public Segment allocate(String name, long step) {
        return allocateAbove(name, step, 0);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The block is {@code (a, a + step]} with {@code a} the highest {@code max_id} of the name's rows and at least
     * {@code floor}: every row moves to its end.
     *
     * @throws InvalidArgumentException naming {@code step} when it is below 1
     */
    @Override
    public Segment allocateAbove(String name, long step, long floor) {
        if (step < 1) {
            throw new InvalidArgumentException("step", step, "step must be at least 1, but was " + step);
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new InvalidArgumentException(
                    "name",
                    name,
                    "Tinyid's biz_type holds " + MAX_NAME_LENGTH + " characters at most, but '" + name + "' has "
                            + name.length());
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            List<Row> rows = rows(name);
            long from = Math.max(0, floor);
            for (Row row : rows) {
                from = Math.max(from, row.maxId());
            }
            long to = Math.addExact(from, step);
            if (moveAll(name, rows, from, to)) {
                return new Segment(from + 1, to);
            }
            backOff(attempt);
        }
        throw new StoreUnavailableException("Tinyid's rows of '" + name + "' in " + table + " moved past "
                + ATTEMPTS + " blocks in a row before this instance could take one (Tinyid servers or idgen instances"
                + " taking segments at once)");
    }

    /**
     * Moves every row from at most {@code from} to {@code to}, in the order of their remainders: instances contending
     * for one name meet at the same row first, so one of them gets through instead of each winning a different row.
     *
     * @return whether every row moved; a row already past {@code from} stops at once
     */
    private boolean moveAll(String name, List<Row> rows, long from, long to) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt(i -> rows.get(i).remainder()));
        for (int i : order) {
            Row row = rows.get(i);
            JdbcStatements<DatabaseDialect> database = databases.get(i);
            int moved = database.executeRetryingOnce("move '" + name + "' to " + to, (connection, dialect) -> {
                try (PreparedStatement update = database.prepare(connection, this.update)) {
                    update.setLong(1, to);
                    update.setLong(2, row.id());
                    update.setLong(3, from);
                    update.setString(4, name);
                    return update.executeUpdate();
                }
            });
            if (moved != 1) {
                return false;
            }
        }
        return true;
    }

    /** A random pause growing with the attempts (at most 20 ms), so that contenders fall out of step. */
    private static void backOff(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1 + Math.min(20, attempt * 2L)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while allocating from Tinyid's table", e);
        }
    }

    /**
     * @return the name's row in each database, in the order of the databases, created in all of them when none has
     *         one
     * @throws StoreUnavailableException when the rows do not make up one family of residues, or a database fails
     */
    private List<Row> rows(String name) {
        List<Row> rows = read(name);
        if (rows.stream().allMatch(Objects::isNull)) {
            // A name new to every database: a row in each, its remainder by its place in the list (the same on every
            // instance, as for idgen's own segment servers).
            for (int i = 0; i < databases.size(); i++) {
                create(databases.get(i), name, i);
            }
            rows = read(name);
        }
        // Rows in some databases only: another instance may be creating them; the rest is never made up here (a
        // database listed in place of the one that holds a residue would take its IDs again).
        for (int wait = 0; rows.contains(null) && wait < CREATION_WAITS; wait++) {
            backOff(wait);
            rows = read(name);
        }
        checkFamily(name, rows);
        return rows;
    }

    private void create(JdbcStatements<DatabaseDialect> database, String name, int remainder) {
        database.execute("create a row for '" + name + "'", (connection, dialect) -> {
            try (PreparedStatement insert = database.prepare(connection, this.insert)) {
                insert.setString(1, name);
                insert.setLong(2, initialValue);
                insert.setLong(3, initialValue);
                insert.setInt(4, databases.size());
                insert.setInt(5, remainder);
                insert.executeUpdate();
            } catch (SQLException e) {
                // Another instance created it first.
                if (!SqlStates.isDuplicateKey(e) && !SqlStates.isDeadlock(e)) {
                    throw e;
                }
            }
            return null;
        });
    }

    private List<Row> read(String name) {
        List<Row> rows = new ArrayList<>();
        for (JdbcStatements<DatabaseDialect> database : databases) {
            rows.add(database.execute("read the row of '" + name + "'", (connection, dialect) -> {
                try (PreparedStatement select = database.prepare(connection, this.select)) {
                    select.setString(1, name);
                    try (ResultSet result = select.executeQuery()) {
                        if (!result.next()) {
                            return null;
                        }
                        return new Row(
                                result.getLong("id"),
                                result.getLong("max_id"),
                                result.getLong("step"),
                                result.getLong("version"),
                                result.getInt("delta"),
                                result.getInt("remainder"));
                    }
                }
            }));
        }
        return rows;
    }

    private void checkFamily(String name, List<Row> rows) {
        TreeSet<Integer> remainders = new TreeSet<>();
        int delta = -1;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (row == null) {
                throw new StoreUnavailableException("'" + name + "' has rows in " + table + " on some of the"
                        + " databases but none on " + databases.get(i).database() + ": idgen creates a name's rows only"
                        + " where it has none at all. Insert the missing row with the delta and remainder the others"
                        + " leave free and a max_id at least their highest, or list the database that holds it");
            }
            if (row.step() < 0) {
                throw new StoreUnavailableException("'" + name + "' has step " + row.step() + " in " + table + " on "
                        + databases.get(i).database() + ": a Tinyid server would move max_id back and hand out IDs"
                        + " again; set a positive step");
            }
            if (delta == -1) {
                delta = row.delta();
            }
            if (row.delta() != delta || row.remainder() < 0 || row.remainder() >= row.delta()) {
                throw family(name, rows);
            }
            remainders.add(row.remainder());
        }
        if (delta != rows.size() || remainders.size() != rows.size()) {
            throw family(name, rows);
        }
    }

    private StoreUnavailableException family(String name, List<Row> rows) {
        StringBuilder found = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            found.append(i == 0 ? "" : ", ").append(databases.get(i).database());
            found.append(row == null ? ": no row" : ": delta " + row.delta() + " remainder " + row.remainder());
        }
        return new StoreUnavailableException("The rows of '" + name + "' in " + table + " (" + found
                + ") do not cover every residue once: idgen hands out contiguous blocks, and can take them only when"
                + " it is given every database of the Tinyid deployment, whose rows have delta equal to their number"
                + " and each remainder from 0 to delta - 1 once. Configure all of Tinyid's databases, or keep this"
                + " name on Tinyid");
    }

    /** Reaches every database and reads no row from the table: an allocation needs them all. */
    @Override
    public void checkAvailable() {
        for (JdbcStatements<DatabaseDialect> database : databases) {
            database.execute("check availability", (connection, dialect) -> {
                database.schema().probeTable(connection);
                return null;
            });
        }
    }

    @Override
    public Optional<List<String>> names() {
        TreeSet<String> names = new TreeSet<>();
        for (JdbcStatements<DatabaseDialect> database : databases) {
            database.execute("list the names", (connection, dialect) -> {
                try (PreparedStatement select = database.prepare(connection, "SELECT biz_type FROM " + table);
                        ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        String name = rows.getString(1);
                        if (IdArguments.isName(name)) {
                            names.add(name);
                        }
                    }
                }
                return null;
            });
        }
        return Optional.of(List.copyOf(names));
    }

    /** @return the table */
    public String table() {
        return table;
    }

    @Override
    public String toString() {
        return "Tinyid's table " + table + " on " + databases.size() + " database(s)";
    }
}
