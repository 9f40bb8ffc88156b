package dev.idgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Two databases of a Tinyid deployment on the machine's MariaDB: its test database and a second one beside it, each
 * with Tinyid's own DDL under a table name of the test's. Every pool asked for is closed, and the tables dropped.
 */
final class TinyidDatabases implements AutoCloseable {

    /** The second database, created if missing. */
    static final String SECOND = "idgen_tinyid_second";

    /** Tinyid's DDL (tinyid-server/db.sql), with the table's name of the test. */
    static String tinyidDdl(String table) {
        return "CREATE TABLE `" + table + "` (\n"
                + "  `id` bigint(20) NOT NULL AUTO_INCREMENT COMMENT '自增主键',\n"
                + "  `biz_type` varchar(63) NOT NULL DEFAULT '' COMMENT '业务类型，唯一',\n"
                + "  `begin_id` bigint(20) NOT NULL DEFAULT '0' COMMENT '开始id，仅记录初始值，无其他含义。初始化时begin_id和max_id应相同',\n"
                + "  `max_id` bigint(20) NOT NULL DEFAULT '0' COMMENT '当前最大id',\n"
                + "  `step` int(11) DEFAULT '0' COMMENT '步长',\n"
                + "  `delta` int(11) NOT NULL DEFAULT '1' COMMENT '每次id增量',\n"
                + "  `remainder` int(11) NOT NULL DEFAULT '0' COMMENT '余数',\n"
                + "  `create_time` timestamp NOT NULL DEFAULT '2010-01-01 00:00:00' COMMENT '创建时间',\n"
                + "  `update_time` timestamp NOT NULL DEFAULT '2010-01-01 00:00:00' COMMENT '更新时间',\n"
                + "  `version` bigint(20) NOT NULL DEFAULT '0' COMMENT '版本号',\n"
                + "  PRIMARY KEY (`id`),\n"
                + "  UNIQUE KEY `uniq_biz_type` (`biz_type`)\n"
                + ") ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COMMENT 'id信息表'";
    }

    final String table =
            "tiny_id_info_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final List<TestServices.JdbcEndpoint> endpoints = new ArrayList<>();
    private final List<HikariDataSource> pools = new ArrayList<>();

    /**
     * @param count 1 or 2 databases
     * @param createTables whether to create Tinyid's table in each now
     */
    TinyidDatabases(int count, boolean createTables) throws SQLException {
        TestServices.JdbcEndpoint first = TestServices.mariadb();
        endpoints.add(first);
        if (count > 1) {
            try (Connection connection = first.connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS " + SECOND);
            }
            String url = first.url();
            int path = url.indexOf('/', url.indexOf("//") + 2);
            int query = url.indexOf('?', path);
            String second = url.substring(0, path + 1) + SECOND + (query < 0 ? "" : url.substring(query));
            endpoints.add(new TestServices.JdbcEndpoint(second, first.username(), first.password()));
        }
        if (createTables) {
            for (TestServices.JdbcEndpoint endpoint : endpoints) {
                execute(endpoint, tinyidDdl(table));
            }
        }
    }

    int count() {
        return endpoints.size();
    }

    /** @return a new pool on the i-th database */
    HikariDataSource pool(int database, int size) {
        HikariDataSource pool = endpoints.get(database).pool(size);
        pools.add(pool);
        return pool;
    }

    /** @return a new pool on each database, in order */
    List<DataSource> pools(int size) {
        List<DataSource> all = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++) {
            all.add(pool(i, size));
        }
        return all;
    }

    void execute(int database, String sql) throws SQLException {
        execute(endpoints.get(database), sql);
    }

    private static void execute(TestServices.JdbcEndpoint endpoint, String sql) throws SQLException {
        try (Connection connection = endpoint.connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        pools.forEach(HikariDataSource::close);
        for (TestServices.JdbcEndpoint endpoint : endpoints) {
            execute(endpoint, "DROP TABLE IF EXISTS " + table);
        }
    }
}
