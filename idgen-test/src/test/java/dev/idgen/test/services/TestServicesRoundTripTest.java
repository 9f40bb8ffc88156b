package dev.idgen.test.services;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Proves the test support reaches each real service with a write and a read back.
 */
class TestServicesRoundTripTest {

    @Test
    void redisStoresAndIncrements() {
        RedisClient client = RedisClient.create(TestServices.redis().uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String key = "idgen:test:" + UUID.randomUUID();
            try {
                assertThat(redis.incrby(key, 41)).isEqualTo(41);
                assertThat(redis.incr(key)).isEqualTo(42);
                assertThat(redis.get(key)).isEqualTo("42");
            } finally {
                redis.del(key);
            }
        } finally {
            client.shutdown();
        }
    }

    @Test
    void mariadbWritesAndReadsBack() throws Exception {
        assertDatabaseRoundTrip(TestServices.mariadb(), "MariaDB");
    }

    @Test
    void postgresWritesAndReadsBack() throws Exception {
        assertDatabaseRoundTrip(TestServices.postgres(), "PostgreSQL");
    }

    private static void assertDatabaseRoundTrip(TestServices.JdbcEndpoint endpoint, String product) throws Exception {
        String table = "idgen_roundtrip_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection connection = endpoint.connect()) {
            assertThat(connection.getMetaData().getDatabaseProductName()).containsIgnoringCase(product);
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE " + table + " (name VARCHAR(64) PRIMARY KEY, max_id BIGINT NOT NULL)");
                try {
                    try (PreparedStatement insert =
                            connection.prepareStatement("INSERT INTO " + table + " (name, max_id) VALUES (?, ?)")) {
                        insert.setString(1, "orders");
                        insert.setLong(2, 1000);
                        assertThat(insert.executeUpdate()).isEqualTo(1);
                    }
                    try (PreparedStatement update = connection.prepareStatement(
                            "UPDATE " + table + " SET max_id = max_id + ? WHERE name = ?")) {
                        update.setLong(1, 500);
                        update.setString(2, "orders");
                        assertThat(update.executeUpdate()).isEqualTo(1);
                    }
                    try (ResultSet rows = statement.executeQuery("SELECT max_id FROM " + table)) {
                        assertThat(rows.next()).isTrue();
                        assertThat(rows.getLong(1)).isEqualTo(1500);
                    }
                } finally {
                    statement.execute("DROP TABLE " + table);
                }
            }
        }
    }
}
