package dev.idgen.spring.boot.autoconfigure.jdbc;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.core.segment.SegmentStartFloor;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.jdbc.ColumnMaximum;
import dev.idgen.spring.boot.autoconfigure.diagnostics.IdgenStartupException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Where each name of a segment or ticket generator starts, from its settings: {@code start-above} for every name,
 * {@code names.<name>.start-above} and {@code names.<name>.start-above-max-of} per name, and the previous store of a
 * store switch. Each name's floor is worked out once per instance, on its first load, and kept: the names a generator
 * serves at once are bounded by its {@code max-names}, and the floors kept are bounded too.
 */
public final class StartFloors implements SegmentStartFloor {

    private static final Log log = LogFactory.getLog(StartFloors.class);

    /** How many names' floors are kept (see {@link #known}). */
    private static final int MAX_KNOWN = 100_000;

    private final long startAbove;
    private final Map<String, Long> startAboveByName;
    private final Map<String, ColumnMaximum> maxOfByName;
    private final DataSource dataSource;
    private final Duration timeout;
    private final SegmentStore previous;
    private final String previousName;
    /**
     * Floors worked out, kept so that a name whose buffers are forgotten and made again does not read its column or
     * the previous store again. Bounded: a caller cycling through new names cannot grow it without end (past the bound
     * a name is read again each time its buffers are made).
     */
    private final Map<String, Long> known = new ConcurrentHashMap<>();

    private StartFloors(Builder builder) {
        this.startAbove = builder.startAbove;
        this.startAboveByName = Map.copyOf(builder.startAboveByName);
        this.maxOfByName = Map.copyOf(builder.maxOfByName);
        this.dataSource = builder.dataSource;
        this.timeout = builder.timeout;
        this.previous = builder.previous;
        this.previousName = builder.previousName;
    }

    /**
     * @param prefix the generator's prefix for the settings' names, e.g. {@code idgen.segment}
     * @return a builder
     */
    public static Builder builder(String prefix) {
        return new Builder(prefix);
    }

    @Override
    public long above(String name) {
        Long floor = known.get(name);
        if (floor != null) {
            return floor;
        }
        long above = Math.max(startAbove, startAboveByName.getOrDefault(name, 0L));
        ColumnMaximum column = maxOfByName.get(name);
        if (column != null) {
            above = Math.max(above, column.read(dataSource, timeout));
        }
        if (previous != null) {
            // One ID from the previous store: its block starts above everything that store handed out for the
            // name, whichever instance took it. Through the store's own allocation, so it is as safe as any.
            try {
                above = Math.max(above, previous.allocate(name, 1).last());
            } catch (RuntimeException e) {
                throw new StoreUnavailableException(
                        "'" + name + "' cannot start until the store it is switching from (" + previousName
                                + ") says what it handed out: " + e.getMessage(),
                        e);
            }
        }
        if (known.size() < MAX_KNOWN) {
            known.put(name, above);
        }
        return above;
    }

    /** Builds {@link StartFloors}, checking each setting and naming it when it is wrong. */
    public static final class Builder {

        private final String prefix;
        private long startAbove;
        private final Map<String, Long> startAboveByName = new LinkedHashMap<>();
        private final Map<String, ColumnMaximum> maxOfByName = new LinkedHashMap<>();
        private DataSource dataSource;
        private Duration timeout = Duration.ofSeconds(5);
        private SegmentStore previous;
        private String previousName;
        private String dataSourceUser;

        private Builder(String prefix) {
            this.prefix = prefix;
        }

        /** @param startAbove {@code start-above}, or null */
        public Builder startAbove(Long startAbove) {
            if (startAbove != null) {
                this.startAbove = checked(prefix + ".start-above", startAbove);
            }
            return this;
        }

        /**
         * @param name the name as written under {@code names}
         * @param startAbove its {@code start-above}, or null
         * @param maxOf its {@code start-above-max-of}, or null
         */
        public Builder name(String name, Long startAbove, String maxOf) {
            String property = prefix + ".names." + name;
            try {
                IdArguments.checkName(name);
            } catch (InvalidArgumentException e) {
                throw new InvalidConfigurationPropertyValueException(prefix + ".names", name, e.getMessage());
            }
            if (startAbove != null) {
                startAboveByName.put(name, checked(property + ".start-above", startAbove));
            }
            if (maxOf != null) {
                try {
                    maxOfByName.put(name, ColumnMaximum.parse("start-above-max-of", maxOf));
                } catch (InvalidArgumentException e) {
                    throw new InvalidConfigurationPropertyValueException(
                            property + ".start-above-max-of", maxOf, e.getMessage());
                }
                dataSourceUser = property + ".start-above-max-of";
            }
            return this;
        }

        /** @param dataSource the database the columns are read from, or null when there is none */
        public Builder dataSource(DataSource dataSource, Duration timeout) {
            this.dataSource = dataSource;
            this.timeout = timeout;
            return this;
        }

        /** @param previous the store a store switch comes from, and its setting as the user wrote it */
        public Builder previous(SegmentStore previous, String previousName) {
            this.previous = previous;
            this.previousName = previousName;
            return this;
        }

        /**
         * Checks each column once, so that a missing table or column fails start-up naming its setting; a database
         * that does not answer now does not (each name reads its column again on its first load, and waits for it).
         *
         * @return the floors, or {@link SegmentStartFloor#NONE} when nothing is set
         */
        public SegmentStartFloor build() {
            if (startAbove == 0 && startAboveByName.isEmpty() && maxOfByName.isEmpty() && previous == null) {
                return SegmentStartFloor.NONE;
            }
            if (dataSourceUser != null && dataSource == null) {
                throw IdgenStartupException.missingDataSource(
                        dataSourceUser + " (it reads the column from the application's database)",
                        "remove " + dataSourceUser);
            }
            maxOfByName.forEach((name, column) -> {
                try {
                    column.read(dataSource, timeout);
                } catch (InvalidArgumentException e) {
                    throw new InvalidConfigurationPropertyValueException(
                            prefix + ".names." + name + ".start-above-max-of", column.toString(), e.getMessage());
                } catch (StoreUnavailableException e) {
                    if (e.getCause() instanceof SQLException sql
                            && sql.getSQLState() != null
                            && sql.getSQLState().startsWith("42")) {
                        throw new InvalidConfigurationPropertyValueException(
                                prefix + ".names." + name + ".start-above-max-of",
                                column.toString(),
                                "the database refused SELECT MAX(...) on it: " + sql.getMessage());
                    }
                    log.warn("The highest " + column + " (" + prefix + ".names." + name + ".start-above-max-of)"
                            + " could not be read at start-up; '" + name + "' reads it again before its first IDs: "
                            + e.getMessage());
                }
            });
            return new StartFloors(this);
        }

        private static long checked(String property, long value) {
            if (value < 0 || value >= Long.MAX_VALUE / 2) {
                throw new InvalidConfigurationPropertyValueException(
                        property, value, "must be between 0 and 2^62 (IDs above it must still fit 63 bits)");
            }
            return value;
        }
    }
}
