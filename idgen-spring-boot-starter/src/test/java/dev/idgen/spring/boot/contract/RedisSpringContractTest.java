package dev.idgen.spring.boot.contract;

import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;

/**
 * The contract on {@code idgen.strategy=redis}: the real Redis, its windows reserved from the real MariaDB.
 */
class RedisSpringContractTest extends SpringIdServiceContract {

    private static final String SUFFIX =
            UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    private static final String TABLE = "idgen_contract_windows_" + SUFFIX;

    @Override
    protected List<String> properties() {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        TestServices.RedisEndpoint redis = TestServices.redis();
        return List.of(
                "idgen.strategy=redis",
                "idgen.redis.prefix=contract" + SUFFIX + ":",
                "idgen.redis.window-size=1000",
                "idgen.redis.verify-persistence=false",
                "spring.data.redis.host=" + redis.host(),
                "spring.data.redis.port=" + redis.port(),
                "idgen.jdbc.table=" + TABLE,
                "idgen.jdbc.initialize-schema=always",
                "spring.datasource.url=" + mariadb.url(),
                "spring.datasource.username=" + mariadb.username(),
                "spring.datasource.password=" + mariadb.password());
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }

    @AfterAll
    static void dropTable() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }
}
