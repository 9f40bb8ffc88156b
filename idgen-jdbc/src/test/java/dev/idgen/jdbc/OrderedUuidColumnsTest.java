package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.form.OrderedGuidGenerator;
import dev.idgen.core.form.UuidV7Generator;
import dev.idgen.test.services.TestServices;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Time-ordered UUIDs keep their order as keys in a real database: MariaDB's {@code BINARY(16)} and PostgreSQL's
 * {@code uuid} both compare the bytes left to right, so a {@link UuidV7Generator} and an
 * {@link OrderedGuidGenerator} in {@link OrderedGuidGenerator.Order#BYTES} order read back {@code ORDER BY} the key in
 * the order they were issued. The clock moves forwards and now and then backwards while they are issued, with many
 * IDs per millisecond, so the counters and the clock's steps are all in play.
 */
class OrderedUuidColumnsTest {

    private static final int COUNT = 100_000;

    private static final int BATCH = 1_000;

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final String table = "idgen_ordered_uuid_"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    /** How a database stores a UUID key and reads it back. */
    private interface Column {

        String type();

        void bind(PreparedStatement statement, UUID id) throws SQLException;

        UUID read(ResultSet rows) throws SQLException;
    }

    private static final Column BINARY_16 = new Column() {
        @Override
        public String type() {
            return "BINARY(16)";
        }

        @Override
        public void bind(PreparedStatement statement, UUID id) throws SQLException {
            statement.setBytes(
                    1,
                    ByteBuffer.allocate(16)
                            .putLong(id.getMostSignificantBits())
                            .putLong(id.getLeastSignificantBits())
                            .array());
        }

        @Override
        public UUID read(ResultSet rows) throws SQLException {
            ByteBuffer bytes = ByteBuffer.wrap(rows.getBytes(1));
            return new UUID(bytes.getLong(), bytes.getLong());
        }
    };

    private static final Column POSTGRES_UUID = new Column() {
        @Override
        public String type() {
            return "uuid";
        }

        @Override
        public void bind(PreparedStatement statement, UUID id) throws SQLException {
            statement.setObject(1, id);
        }

        @Override
        public UUID read(ResultSet rows) throws SQLException {
            return rows.getObject(1, UUID.class);
        }
    };

    /** COUNT IDs in the order issued; the clock moves 0 to 2 ms every few IDs and steps back by up to 20 ms. */
    private static List<UUID> issue(ManualTimeSource time, Supplier<UUID> next) {
        Random moves = new Random(2026);
        List<UUID> ids = new ArrayList<>(COUNT);
        while (ids.size() < COUNT) {
            int move = moves.nextInt(100);
            time.advanceMillis(move < 2 ? -moves.nextInt(21) : move % 3);
            for (int i = moves.nextInt(20); i >= 0 && ids.size() < COUNT; i--) {
                ids.add(next.get());
            }
        }
        return ids;
    }

    private static List<UUID> uuidV7s() {
        ManualTimeSource time = new ManualTimeSource(START);
        UuidV7Generator generator = UuidV7Generator.builder().timeSource(time).build();
        return issue(time, generator::next);
    }

    private static List<UUID> orderedGuids() {
        ManualTimeSource time = new ManualTimeSource(START);
        OrderedGuidGenerator generator = OrderedGuidGenerator.builder()
                .order(OrderedGuidGenerator.Order.BYTES)
                .timeSource(time)
                .build();
        return issue(time, generator::next);
    }

    /** Inserts the IDs in batches in one transaction, then reads them back ordered by the key. */
    private List<UUID> roundTrip(TestServices.JdbcEndpoint endpoint, Column column, List<UUID> ids) throws Exception {
        try (Connection connection = endpoint.connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
                statement.execute("CREATE TABLE " + table + " (id " + column.type() + " NOT NULL PRIMARY KEY)");
            }
            try {
                connection.setAutoCommit(false);
                try (PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
                    for (int i = 0; i < ids.size(); i++) {
                        column.bind(insert, ids.get(i));
                        insert.addBatch();
                        if ((i + 1) % BATCH == 0 || i == ids.size() - 1) {
                            insert.executeBatch();
                        }
                    }
                }
                connection.commit();
                List<UUID> read = new ArrayList<>(ids.size());
                try (Statement statement = connection.createStatement();
                        ResultSet rows = statement.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
                    while (rows.next()) {
                        read.add(column.read(rows));
                    }
                }
                return read;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        }
    }

    private void assertReadBackInIssueOrder(TestServices.JdbcEndpoint endpoint, Column column, List<UUID> ids)
            throws Exception {
        assertThat(new HashSet<>(ids)).as("no duplicates issued").hasSize(COUNT);
        List<UUID> read = roundTrip(endpoint, column, ids);
        assertThat(read).hasSize(COUNT);
        // Compared by index first: a failure names the first row out of place instead of printing 100,000 UUIDs.
        for (int i = 0; i < COUNT; i++) {
            if (!read.get(i).equals(ids.get(i))) {
                assertThat(read.get(i))
                        .as("row %d of ORDER BY id (issued as %s)", i, ids.get(i))
                        .isEqualTo(ids.get(i));
            }
        }
    }

    @Test
    void mariaDbBinary16KeepsTheOrderOfUuidV7s() throws Exception {
        assertReadBackInIssueOrder(TestServices.mariadb(), BINARY_16, uuidV7s());
    }

    @Test
    void mariaDbBinary16KeepsTheOrderOfBytesOrderedGuids() throws Exception {
        assertReadBackInIssueOrder(TestServices.mariadb(), BINARY_16, orderedGuids());
    }

    @Test
    void postgresUuidKeepsTheOrderOfUuidV7s() throws Exception {
        assertReadBackInIssueOrder(TestServices.postgres(), POSTGRES_UUID, uuidV7s());
    }

    @Test
    void postgresUuidKeepsTheOrderOfBytesOrderedGuids() throws Exception {
        assertReadBackInIssueOrder(TestServices.postgres(), POSTGRES_UUID, orderedGuids());
    }
}
