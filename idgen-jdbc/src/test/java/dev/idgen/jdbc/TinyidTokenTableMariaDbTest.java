package dev.idgen.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.idgen.core.StoreUnavailableException;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tinyid's {@code tiny_id_token} read as Tinyid reads it, on MariaDB with Tinyid's DDL and sample rows. */
class TinyidTokenTableMariaDbTest {

    private final String table =
            "tiny_id_token_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private final HikariDataSource pool = TestServices.mariadb().pool(2);

    @AfterEach
    void drop() throws Exception {
        pool.close();
        execute("DROP TABLE IF EXISTS " + table);
    }

    private void execute(String sql) throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Test
    void eachTokenGetsItsBizTypesAndRowsNoNameCanBeAreLeftOut() throws Exception {
        execute("CREATE TABLE `" + table + "` (\n"
                + "  `id` int(11) unsigned NOT NULL AUTO_INCREMENT COMMENT '自增id',\n"
                + "  `token` varchar(255) NOT NULL DEFAULT '' COMMENT 'token',\n"
                + "  `biz_type` varchar(63) NOT NULL DEFAULT '' COMMENT '此token可访问的业务类型标识',\n"
                + "  `remark` varchar(255) NOT NULL DEFAULT '' COMMENT '备注',\n"
                + "  `create_time` timestamp NOT NULL DEFAULT '2010-01-01 00:00:00' COMMENT '创建时间',\n"
                + "  `update_time` timestamp NOT NULL DEFAULT '2010-01-01 00:00:00' COMMENT '更新时间',\n"
                + "  PRIMARY KEY (`id`)\n"
                + ") ENGINE=InnoDB AUTO_INCREMENT=1 DEFAULT CHARSET=utf8 COMMENT 'token信息表'");
        execute("INSERT INTO " + table + " (id, token, biz_type, remark, create_time, update_time) VALUES"
                + " (1, '0f673adf80504e2eaa552f5d791b644c', 'test', '1', '2017-12-14 16:36:46', '2017-12-14 16:36:48'),"
                + " (2, '0f673adf80504e2eaa552f5d791b644c', 'test_odd', '1', '2017-12-14 16:36:46',"
                + " '2017-12-14 16:36:48'), (3, 'other', 'bad name', '', '2017-12-14 16:36:46', '2017-12-14 16:36:48'),"
                + " (4, '', 'test', '', '2017-12-14 16:36:46', '2017-12-14 16:36:48')");
        TinyidTokenTable tokens = new TinyidTokenTable(pool, table, Duration.ofSeconds(5));
        assertThat(tokens.read()).containsOnlyKeys("0f673adf80504e2eaa552f5d791b644c");
        assertThat(tokens.read().get("0f673adf80504e2eaa552f5d791b644c")).containsExactly("test", "test_odd");
    }

    @Test
    void aMissingTableIsUnavailableNamingIt() {
        TinyidTokenTable tokens = new TinyidTokenTable(pool, table, Duration.ofSeconds(5));
        assertThatThrownBy(tokens::read)
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(table);
    }
}
