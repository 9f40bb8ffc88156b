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
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterEach;

/**
 * The segment store contract on a real database. Every store a test asks for has its own connection pool and
 * {@link SqlSessionFactory}, as separate application instances would, on one table created for the test.
 */
abstract class JdbcSegmentStoreContract extends SegmentStoreContract {

    protected final String table = "idgen_segment_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private final List<HikariDataSource> pools = new ArrayList<>();

    protected abstract TestServices.JdbcEndpoint endpoint();

    @Override
    protected SegmentStore store(long initialValue) {
        return new JdbcSegmentStore(sqlSessionFactory(), table, initialValue, SchemaInitialization.ALWAYS,
                Duration.ofSeconds(5));
    }

    protected SqlSessionFactory sqlSessionFactory() {
        HikariDataSource pool = endpoint().pool(4);
        pools.add(pool);
        return TestServices.sqlSessionFactory(pool);
    }

    @AfterEach
    void dropTable() throws Exception {
        if (!pools.isEmpty()) {
            try (Connection connection = pools.get(0).getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
        pools.forEach(HikariDataSource::close);
    }
}
