package dev.idgen.spring.boot.autoconfigure.segment;

import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.TimeSource;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Where a segment generator's names have lived, so that a store switch never starts them again at 1.
 *
 * <p><b>The signal.</b> An empty store looks the same to a fresh install and to a switch, so idgen marks, in each
 * store a generator runs on, two counters under reserved names no user name can take (they start with an underscore):
 * {@code _idgen.live.<generator>}, stamped with the time each start takes the store as the generator's home, and
 * {@code _idgen.left.<generator>}, stamped when a switch moves the generator away from it. A stamp is
 * {@value #STAMP_BASE} plus the wall time in milliseconds, written with the store's own floor (so a stamp never goes
 * back), and read by allocating one from the counter (a counter never stamped holds the store's initial value plus
 * the reads, far below {@value #STAMP_BASE}). At start-up, before any name is served:
 * <ul>
 *   <li>a store whose latest stamp is {@code live} is the generator's home: it goes on;
 *   <li>a store whose latest stamp is {@code left} was left for another store: the generator's names went on there,
 *       so it refuses unless the switch back is configured ({@code switch-from} or {@code start-above});
 *   <li>a store with no stamp is new to the generator: every other store the application is configured for (its
 *       DataSource's segment table, etcd, ZooKeeper) is read, and if one is the generator's home, or was left by it
 *       (its names went on somewhere, and not here), or is a segment table from before these marks that holds names,
 *       the start refuses unless the switch is configured; otherwise it is a fresh install.
 * </ul>
 * A start that takes the store stamps it {@code live}; one that switches also stamps {@code left} on the store it
 * comes from and on every other home found, so that a later start there refuses. A {@code switch-from} that names a
 * store the generator left refuses too: its names went on elsewhere, above what that store handed out.
 *
 * <p>Nothing is allocated for a user's name before the check passes, so a start that refuses leaves no key or row
 * behind to trap the next one. A store that does not answer at start-up is checked on the first load instead, which
 * fails (and is retried) until the check passes. Stores without marks: idgen servers ({@code remote}, whose names
 * idgen checks), segment servers, and an application's own {@link SegmentStore} bean; for them the other stores are
 * read at every start, and only a home found there (not a store left, which may have been left for this one) refuses.
 * So a switch to such a store is seen only while the store it leaves is configured or is the DataSource's table. Redis is not read as another store: a Redis segment store keeps its floor in the segment table,
 * which is.
 */
final class StoreHistory {

    private static final Log log = LogFactory.getLog(StoreHistory.class);

    /**
     * Far above any initial value people set, and below 2^52 with a stamp added (Redis scripts count exactly only up
     * to 2^52): a counter above it holds a stamp.
     */
    static final long STAMP_BASE = 1L << 50;

    /**
     * How far a stamp goes past the stamp it must beat: every read adds 1 to a counter (both counters of a store are
     * read together, so reads alone never reorder them), and a stamp exactly 1 past could be tied by a read racing it.
     */
    static final long GAP = 1L << 30;

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._:-]{1,40}");

    /** Another store the application is configured for, read when the generator's own store is new to it. */
    record OtherStore(String description, MarkReader marks) {}

    /** Reads (and, for a switch, stamps) one store's marks. */
    interface MarkReader {

        /** @return the {@code live} and {@code left} counters' values, 0 when absent */
        long[] read(String live, String left);

        /** @param floor the stamp, or the store's {@code live} value when that is later: the stamp must pass it */
        void stampLeft(String left, long floor);

        /** @return whether the latest {@link #read} found names but no marks: a store from before the marks */
        default boolean heldNamesWithoutMarks() {
            return false;
        }
    }

    private final String generator;
    private final String storeDescription;
    private final String storeKind;
    private final SegmentStore store;
    private final boolean marks;
    private final List<OtherStore> others;
    private final OtherStore previous;
    private final boolean switchConfigured;
    private final String switchAdvice;
    private final Runnable copyNames;
    private final TimeSource clock;
    private volatile boolean checked;

    /**
     * @param storeKind the store's kind in a mark's name: jdbc, etcd, ..., remote, servers
     * @param store the generator's store
     * @param marks whether the store keeps marks (see the class comment)
     * @param others the other stores the application is configured for
     * @param previous the store named by {@code switch-from} when it keeps marks, or null
     * @param switchConfigured whether {@code switch-from} or {@code start-above} is set
     * @param switchAdvice what to set, for the refusal
     * @param copyNames raises every name the previous store lists in this one above what it handed out: run once the
     *     stamps are written, by the start that switches (the one that stamps the previous store left)
     */
    StoreHistory(
            String generator,
            String storeDescription,
            String storeKind,
            SegmentStore store,
            boolean marks,
            List<OtherStore> others,
            OtherStore previous,
            boolean switchConfigured,
            String switchAdvice,
            Runnable copyNames,
            TimeSource clock) {
        this.generator = generator;
        this.storeDescription = storeDescription;
        this.storeKind = storeKind;
        this.store = store;
        this.marks = marks;
        this.others = others;
        this.previous = previous;
        this.switchConfigured = switchConfigured;
        this.switchAdvice = switchAdvice;
        this.copyNames = copyNames;
        this.clock = clock;
    }

    /**
     * The start-up check: refuses with an {@link IdgenStartupException}, or defers to the first load when a store does
     * not answer.
     */
    void checkAtStartup() {
        try {
            check();
        } catch (StoreUnavailableException e) {
            log.warn("Where generator '" + generator + "' lived before could not be checked at start-up ("
                    + e.getMessage() + "); its names wait for the check on their first load");
        } catch (Refusal e) {
            throw new IdgenStartupException(e.getMessage(), switchAdvice);
        }
    }

    /**
     * Before a name's first load: passes once the check has passed; otherwise checks.
     *
     * @throws StoreUnavailableException when the check refuses or a store does not answer
     */
    void checkBeforeLoad() {
        if (checked) {
            return;
        }
        try {
            check();
        } catch (Refusal e) {
            throw new StoreUnavailableException(e.getMessage() + ". " + switchAdvice);
        }
    }

    private synchronized void check() {
        if (checked) {
            return;
        }
        String live = mark("live");
        String left = mark("left");
        long stamp = STAMP_BASE + clock.currentTimeMillis();
        boolean fresh = true;
        boolean home = false;
        long ownLeft = 0;
        if (marks) {
            long ownLive = store.allocate(live, 1).last();
            ownLeft = store.allocate(left, 1).last();
            State state = State.of(ownLive, ownLeft);
            if (state == State.LEFT && !switchConfigured) {
                throw new Refusal("Generator '" + generator + "' left " + storeDescription + " for another store at "
                        + Instant.ofEpochMilli(ownLeft - STAMP_BASE) + " and its names went on there: starting on "
                        + storeDescription + " again would issue their IDs again");
            }
            fresh = state == State.NEW;
            home = state == State.LIVE;
        }
        long previousLive = -1;
        State previousState = null;
        if (previous != null) {
            long[] values = previous.marks().read(live, left);
            State state = State.of(values[0], values[1]);
            previousState = state;
            if (state == State.LEFT) {
                // Once the switch is done (this store is home), a switch-from left in place names the store left
                // for this one: nothing to do. Before it, it names a store the names have left.
                // A store without marks cannot say it is home: the previous store says whether it was left for one.
                boolean leftForThis = false;
                if (!marks) {
                    long[] leftFor = previous.marks().read(mark("to." + storeKind), left);
                    leftForThis = leftFor[0] > STAMP_BASE && leftFor[0] > leftFor[1];
                }
                if (!home && !leftForThis) {
                    throw new Refusal("switch-from names " + previous.description() + ", but generator '" + generator
                            + "' left it for another store at " + Instant.ofEpochMilli(values[1] - STAMP_BASE)
                            + ": its names went on there, and starting above what " + previous.description()
                            + " handed out would issue their IDs again. Name the store they are on now"
                            + (marks ? "" : " (or, if that is " + storeDescription + ", remove switch-from)"));
                }
            } else {
                // Stamped left, even when it holds no stamp (idgen from before the marks), or when this store is
                // already home (a start cut short before this stamp): its instances still running refuse their next
                // block from now on, and a start there refuses.
                previousLive = Math.max(0, values[0]);
            }
        }
        List<OtherStore> homes = new ArrayList<>();
        List<Long> homesLive = new ArrayList<>();
        if (fresh || !marks) {
            for (OtherStore other : others) {
                long[] values;
                try {
                    values = other.marks().read(live, left);
                } catch (StoreUnavailableException e) {
                    if (marks) {
                        throw e;
                    }
                    // Read at every start of a store without marks: another store's outage must not stop it.
                    log.warn("Generator '" + generator + "': whether " + other.description() + " holds its names"
                            + " could not be read (" + e.getMessage() + "); going on without it");
                    continue;
                }
                State state = State.of(values[0], values[1]);
                boolean otherHome = state == State.LIVE
                        || state == State.NEW && other.marks().heldNamesWithoutMarks();
                // A store the generator left says its names went on somewhere: a store new to them is not a fresh
                // install. It says nothing to a store without marks, which may be where they went.
                if (otherHome || state == State.LEFT && marks) {
                    homes.add(other);
                    homesLive.add(otherHome ? values[0] : -1L);
                }
            }
        }
        if (previousState == State.NEW) {
            // switch-from names a store that never held the generator's names while another is their home: its
            // values say nothing of theirs.
            for (int i = 0; i < homes.size(); i++) {
                if (homesLive.get(i) >= 0 && !homes.get(i).description().startsWith(previous.description())) {
                    throw new Refusal("switch-from names " + previous.description() + ", which never held generator '"
                            + generator + "''s names, but " + homes.get(i).description() + " is their home: starting"
                            + " above what " + previous.description() + " handed out would issue their IDs again."
                            + " Name the store they are on now");
                }
            }
        }
        if (!homes.isEmpty() && !switchConfigured) {
            throw new Refusal("Generator '" + generator + "' has had names on "
                    + homes.stream().map(OtherStore::description).toList() + ", but its store is now "
                    + storeDescription + (marks ? ", which holds none of them" : "")
                    + ": starting them again would issue their IDs again");
        }
        // This store first: a start cut short between the stamps then finds it home, and stamps the others left
        // (above, as switch-from still names them) before any name is read.
        if (marks && !home) {
            // Past the store's own left stamp, whatever the clocks say: a switch back makes it home again. Not
            // stamped when already home: a plain restart racing a switch elsewhere must not undo its left stamp.
            store.allocateAbove(live, 1, Math.max(stamp, ownLeft + GAP));
        }
        if (previousLive >= 0) {
            long leftStamp = Math.max(stamp, previousLive + GAP);
            previous.marks().stampLeft(left, leftStamp);
            if (!marks) {
                // Left for a store without marks, and which kind: a later start there with switch-from still set
                // is the same switch, not a switch from a store the names left for another.
                previous.marks().stampLeft(mark("to." + storeKind), leftStamp + GAP);
            }
        }
        if (switchConfigured) {
            for (int i = 0; i < homes.size(); i++) {
                if (homesLive.get(i) >= 0) {
                    // Past the home's own live stamp, whatever the clocks say: the next start there sees it left.
                    homes.get(i).marks().stampLeft(left, Math.max(stamp, homesLive.get(i) + GAP));
                }
            }
        }
        if (previousLive >= 0) {
            // After the stamps: an instance that starts on the previous store from now on refuses to.
            copyNames.run();
        }
        if (!homes.isEmpty()) {
            log.info("Generator '" + generator + "' switched to " + storeDescription + " from "
                    + homes.stream().map(OtherStore::description).toList());
        }
        checked = true;
    }

    /** The mark's name: the generator's name as it is when short and plain, else a digest of it. */
    String mark(String kind) {
        return "_idgen." + kind + "." + key(generator);
    }

    static String key(String generator) {
        if (PLAIN.matcher(generator).matches()) {
            return generator;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(generator.getBytes(StandardCharsets.UTF_8));
            return "h" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Marks on a segment store, read and written through its own allocations. */
    static MarkReader marksOf(SegmentStore store) {
        return new MarkReader() {
            @Override
            public long[] read(String live, String left) {
                return new long[] {
                    store.allocate(live, 1).last(), store.allocate(left, 1).last()
                };
            }

            @Override
            public void stampLeft(String left, long floor) {
                store.allocateAbove(left, 1, floor);
            }
        };
    }

    /**
     * Marks in a segment table, read with a plain query so that a table that is not idgen's store gets no row; for
     * the default generator, a table with names but no mark of any generator (idgen from before the marks) counts as
     * its home.
     *
     * @param table a checked table name
     * @param key the column holding a row's name ({@code name} in idgen's table)
     * @param stampLeft writes a stamp, through the table's segment store
     * @param legacyCounts whether names without marks count as the generator's (the default generator's)
     */
    static OtherStore segmentTable(
            String description,
            DataSource dataSource,
            String table,
            String key,
            Supplier<SegmentStore> stampLeft,
            boolean legacyCounts) {
        boolean[] legacy = new boolean[1];
        MarkReader reader = new MarkReader() {
            @Override
            public boolean heldNamesWithoutMarks() {
                return legacy[0];
            }

            @Override
            public long[] read(String live, String left) {
                long[] values = new long[2];
                try (Connection connection = dataSource.getConnection()) {
                    try (PreparedStatement select = connection.prepareStatement(
                            "SELECT " + key + ", max_id FROM " + table + " WHERE " + key + " IN (?, ?)")) {
                        select.setString(1, live);
                        select.setString(2, left);
                        try (ResultSet rows = select.executeQuery()) {
                            while (rows.next()) {
                                values[live.equals(rows.getString(1)) ? 0 : 1] = rows.getLong(2);
                            }
                        }
                    }
                    try (PreparedStatement names = connection.prepareStatement("SELECT COUNT(*), SUM(CASE WHEN " + key
                            + " LIKE '!_idgen.%' ESCAPE '!' THEN 1 ELSE 0 END) FROM " + table)) {
                        try (ResultSet rows = names.executeQuery()) {
                            rows.next();
                            // Names in a table no generator ever marked: idgen from before the marks. Whose names
                            // they are is not known, so only the default generator takes them as its history.
                            legacy[0] = legacyCounts && rows.getLong(1) > 0 && rows.getLong(2) == 0;
                        }
                    }
                } catch (SQLException e) {
                    if (isMissingTable(e)) {
                        return values;
                    }
                    throw new StoreUnavailableException(
                            "The segment table " + table + " could not be read: " + e.getMessage(), e);
                }
                return values;
            }

            @Override
            public void stampLeft(String left, long floor) {
                stampLeft.get().allocateAbove(left, 1, floor);
            }
        };
        return new OtherStore(description, reader);
    }

    private static boolean isMissingTable(SQLException e) {
        String state = e.getSQLState();
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return "42S02".equals(state)
                || "42P01".equals(state)
                || "42S04".equals(state)
                || message.contains("doesn't exist")
                || message.contains("does not exist")
                || message.contains("not found");
    }

    private enum State {
        NEW,
        LIVE,
        LEFT;

        static State of(long live, long left) {
            boolean liveStamped = live > STAMP_BASE;
            boolean leftStamped = left > STAMP_BASE;
            if (!liveStamped && !leftStamped) {
                return NEW;
            }
            return leftStamped && (!liveStamped || left > live) ? LEFT : LIVE;
        }
    }

    /** The check's refusal, turned into a start-up failure or a failed load by the caller. */
    private static final class Refusal extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message, null, false, false);
        }
    }
}
