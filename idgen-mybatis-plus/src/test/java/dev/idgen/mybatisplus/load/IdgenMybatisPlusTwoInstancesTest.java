package dev.idgen.mybatisplus.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration;
import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
import dev.idgen.mybatisplus.IdgenIdentifierGenerator;
import dev.idgen.mybatisplus.IdgenMybatisPlusAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenMyBatisAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mybatis.spring.annotation.MapperScan;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * MyBatis-Plus's ASSIGN_ID from each idgen strategy, taken by two instances at once (two application contexts, each
 * with its own idgen and its own MyBatis-Plus SqlSessionFactory over the same tables), on real MariaDB and PostgreSQL:
 * 4 threads, 2 per instance, each inserting 10,000 rows per strategy through MyBatis-Plus's saveBatch (a BATCH
 * executor, the driver batching the inserts). Snowflake's worker ids are leased (jdbc), not static. Every row is
 * there and no ID repeats: the key is the primary key, and count(distinct id) is checked as well.
 */
class IdgenMybatisPlusTwoInstancesTest {

    private static final int THREADS = 4;

    private static final int ROWS_PER_THREAD = 10_000;

    private static final int ROWS = THREADS * ROWS_PER_THREAD;

    private static final String[] TABLES = {
        "idgen_mpl_snowflake", "idgen_mpl_segment", "idgen_mpl_ticket", "idgen_mpl_redis"
    };

    enum Database {
        MARIADB,
        POSTGRESQL;

        TestServices.JdbcEndpoint endpoint() {
            return this == MARIADB ? TestServices.mariadb() : TestServices.postgres();
        }

        /** MariaDB's connector sends a batch as one bulk command by itself; PostgreSQL's needs telling. */
        String url() {
            String url = endpoint().url();
            return this == MARIADB ? url : url + (url.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true";
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenMyBatisAutoConfiguration.class,
                    IdgenMybatisPlusAutoConfiguration.class,
                    MybatisPlusAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues(
                    "spring.datasource.hikari.maximum-pool-size=4",
                    "spring.data.redis.host=" + TestServices.redis().host(),
                    "spring.data.redis.port=" + TestServices.redis().port(),
                    "idgen.jdbc.initialize-schema=always",
                    // The test is about uniqueness, and holds on a crowded machine: beside stress-ng a Redis round trip
                    // outlasted the default 500 ms and the insert failed (as it should: no ID, no guess).
                    "idgen.redis.timeout=10s",
                    "idgen.jdbc.timeout=30s",
                    "idgen.strategy=snowflake",
                    "idgen.snowflake.worker-id-assigner=jdbc",
                    "idgen.generators.idgen_mpl_segment.strategy=segment",
                    "idgen.generators.idgen_mpl_ticket.strategy=ticket",
                    "idgen.generators.idgen_mpl_redis.strategy=redis");

    @AfterAll
    static void dropTables() throws Exception {
        for (Database database : Database.values()) {
            for (String table : TABLES) {
                execute(database, "DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void twoInstancesInsertFortyThousandRowsPerStrategyWithoutARepeatedId(Database database) throws Exception {
        for (String table : TABLES) {
            execute(
                    database,
                    "DROP TABLE IF EXISTS " + table,
                    "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY, item VARCHAR(32) NOT NULL)");
        }
        ApplicationContextRunner instance = runner.withPropertyValues(
                "spring.datasource.url=" + database.url(),
                "spring.datasource.username=" + database.endpoint().username(),
                "spring.datasource.password=" + database.endpoint().password());
        instance.run(first -> instance.run(second -> {
            for (AssertableApplicationContext context : List.of(first, second)) {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(IdentifierGenerator.class)).isInstanceOf(IdgenIdentifierGenerator.class);
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<Void>> inserts = new ArrayList<>();
                for (int thread = 0; thread < THREADS; thread++) {
                    AssertableApplicationContext context = thread < THREADS / 2 ? first : second;
                    int number = thread;
                    inserts.add(pool.submit((Callable<Void>) () -> {
                        insert(context.getBean(Rows.SnowflakeService.class), Rows.SnowflakeRow::new, number);
                        insert(context.getBean(Rows.SegmentService.class), Rows.SegmentRow::new, number);
                        insert(context.getBean(Rows.TicketService.class), Rows.TicketRow::new, number);
                        insert(context.getBean(Rows.RedisService.class), Rows.RedisRow::new, number);
                        return null;
                    }));
                }
                for (Future<Void> insert : inserts) {
                    insert.get(5, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
        }));
        for (String table : TABLES) {
            assertThat(counts(database, table).subList(0, 3))
                    .as("rows, distinct IDs and distinct items of %s on %s", table, database)
                    .containsExactly((long) ROWS, (long) ROWS, (long) ROWS);
        }
        assertThat(counts(database, "idgen_mpl_ticket").get(3))
                .as("the ticket table's IDs are tickets (dense numbers), not MyBatis-Plus's own Snowflake's")
                .isLessThan(1L << 40);
    }

    private static <T extends Rows.Row> void insert(ServiceImpl<?, T> service, Supplier<T> row, int thread) {
        List<T> rows = new ArrayList<>(ROWS_PER_THREAD);
        for (int i = 0; i < ROWS_PER_THREAD; i++) {
            T entity = row.get();
            entity.item = thread + "/" + i;
            rows.add(entity);
        }
        assertThat(service.saveBatch(rows, 1_000)).isTrue();
        assertThat(rows).allSatisfy(entity -> assertThat(entity.id).isNotNull());
    }

    /** count(*), count(distinct id), count(distinct item), max(id). */
    private static List<Long> counts(Database database, String table) throws Exception {
        try (Connection connection = database.endpoint().connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT count(*), count(DISTINCT id), count(DISTINCT item)," + " max(id) FROM " + table)) {
            assertThat(rows.next()).isTrue();
            return List.of(rows.getLong(1), rows.getLong(2), rows.getLong(3), rows.getLong(4));
        }
    }

    private static void execute(Database database, String... statements) throws Exception {
        try (Connection connection = database.endpoint().connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @MapperScan(basePackageClasses = Rows.class)
    static class Services {
        @Bean
        Rows.SnowflakeService snowflakeService() {
            return new Rows.SnowflakeService();
        }

        @Bean
        Rows.SegmentService segmentService() {
            return new Rows.SegmentService();
        }

        @Bean
        Rows.TicketService ticketService() {
            return new Rows.TicketService();
        }

        @Bean
        Rows.RedisService redisService() {
            return new Rows.RedisService();
        }
    }
}
