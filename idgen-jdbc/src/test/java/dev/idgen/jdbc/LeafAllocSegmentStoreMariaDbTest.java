package dev.idgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.segment.SegmentStore;
import dev.idgen.test.SegmentStoreContract;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/** The segment store contract on Leaf's {@code leaf_alloc} layout, on MariaDB. */
class LeafAllocSegmentStoreMariaDbTest extends SegmentStoreContract {

    private final String table =
            "leaf_alloc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<HikariDataSource> pools = new ArrayList<>();

    @Override
    protected SegmentStore store(long initialValue) {
        HikariDataSource pool = TestServices.mariadb().pool(4);
        pools.add(pool);
        return new JdbcSegmentStore(
                pool,
                SegmentTableLayout.LEAF,
                table,
                initialValue,
                SchemaInitialization.ALWAYS,
                Duration.ofSeconds(5),
                JdbcSegmentStore.DEFAULT_FAILOVER_JUMP);
    }

    @AfterEach
    void dropTable() throws Exception {
        pools.forEach(HikariDataSource::close);
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
