package dev.idgen.spring.boot.autoconfigure.segment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code idgen.jdbc.table-layout}: the segment strategy on Leaf's {@code leaf_alloc} and Tinyid's {@code tiny_id_info}
 * as their servers left them, on real MariaDB; layouts where they cannot serve fail start-up naming the property.
 */
class PeerTablesTest {

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private final String leaf = "leaf_alloc_" + suffix;
    private final String tinyid = "tiny_id_info_" + suffix;

    @BeforeEach
    void createPeersTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + leaf + " (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint(20)"
                    + " NOT NULL DEFAULT '1', step int(11) NOT NULL, description varchar(256) DEFAULT NULL,"
                    + " update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,"
                    + " PRIMARY KEY (biz_tag)) ENGINE=InnoDB");
            // Leaf handed out up to 4000 (max_id is the next ID it would hand out).
            statement.execute("INSERT INTO " + leaf + " (biz_tag, max_id, step, description)"
                    + " VALUES ('orders', 4001, 2000, 'orders')");
            statement.execute("CREATE TABLE " + tinyid + " (id bigint(20) NOT NULL AUTO_INCREMENT, biz_type"
                    + " varchar(63) NOT NULL DEFAULT '', begin_id bigint(20) NOT NULL DEFAULT '0', max_id bigint(20)"
                    + " NOT NULL DEFAULT '0', step int(11) DEFAULT '0', delta int(11) NOT NULL DEFAULT '1', remainder"
                    + " int(11) NOT NULL DEFAULT '0', create_time timestamp NOT NULL DEFAULT '2010-01-01 00:00:00',"
                    + " update_time timestamp NOT NULL DEFAULT '2010-01-01 00:00:00', version bigint(20) NOT NULL"
                    + " DEFAULT '0', PRIMARY KEY (id), UNIQUE KEY uniq_biz_type (biz_type)) ENGINE=InnoDB");
            // Tinyid handed out up to 7000.
            statement.execute("INSERT INTO " + tinyid + " (biz_type, begin_id, max_id, step, delta, remainder,"
                    + " version) VALUES ('payments', 1, 7000, 1000, 1, 0, 7)");
        }
    }

    @AfterEach
    void dropTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + leaf);
            statement.execute("DROP TABLE IF EXISTS " + tinyid);
        }
    }

    private ApplicationContextRunner runner(String... properties) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + mariadb.url(),
                        "spring.datasource.username=" + mariadb.username(),
                        "spring.datasource.password=" + mariadb.password(),
                        "idgen.strategy=segment",
                        "idgen.jdbc.initialize-schema=never")
                .withPropertyValues(properties);
    }

    private static long value(String sql) throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    @Test
    void onLeafsTableIdsGoOnFromLeafsMaxIdAndLeafGoesOnAfterIdgensBlock() throws Exception {
        runner("idgen.jdbc.table-layout=leaf", "idgen.jdbc.table=" + leaf).run(context -> {
            assertThat(context).hasNotFailed();
            IdService ids = context.getBean(IdService.class);
            assertThat(ids.nextId("orders")).isEqualTo(4001);
            assertThat(ids.nextId("orders")).isEqualTo(4002);
            // A Leaf server's next segment starts at max_id: past every ID of idgen's block.
            assertThat(value("SELECT max_id FROM " + leaf + " WHERE biz_tag = 'orders'"))
                    .isEqualTo(4001 + 1000);
        });
    }

    @Test
    void onTinyidsTableIdsGoOnAboveTinyidsMaxId() throws Exception {
        runner("idgen.jdbc.table-layout=tinyid", "idgen.jdbc.table=" + tinyid).run(context -> {
            assertThat(context).hasNotFailed();
            IdService ids = context.getBean(IdService.class);
            assertThat(ids.nextId("payments")).isEqualTo(7001);
            assertThat(value("SELECT max_id FROM " + tinyid + " WHERE biz_type = 'payments'"))
                    .isEqualTo(7000 + 1000);
            assertThat(value("SELECT version FROM " + tinyid + " WHERE biz_type = 'payments'"))
                    .as("a Tinyid server that read the row before loses its compare-and-set")
                    .isGreaterThan(7);
        });
    }

    @Test
    void aPeersLayoutAsTheWindowsOfRedisFailsStartUpNamingTheLayout() {
        runner("idgen.jdbc.table-layout=tinyid", "idgen.jdbc.table=" + tinyid, "idgen.segment.store=redis")
                .withPropertyValues(
                        "spring.data.redis.url=" + TestServices.redis().uri())
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.jdbc.table-layout"));
    }

    @Test
    void leafsTableOverSegmentServersFailsStartUpNamingTheServers() {
        runner("idgen.jdbc.table-layout=leaf", "idgen.jdbc.table=" + leaf, "idgen.segment.servers[0].data-source=x")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.segment.servers")
                        .hasMessageContaining("leaf_alloc in one database"));
    }
}
