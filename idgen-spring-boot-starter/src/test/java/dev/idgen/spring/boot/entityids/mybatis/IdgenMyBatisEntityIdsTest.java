package dev.idgen.spring.boot.entityids.mybatis;

import static dev.idgen.spring.boot.entityids.EntityIdDatabase.ROWS;
import static dev.idgen.spring.boot.entityids.EntityIdDatabase.THREADS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.IdgenIdInterceptor;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenMyBatisAutoConfiguration;
import dev.idgen.spring.boot.entityids.EntityIdDatabase;
import java.util.ArrayList;
import java.util.List;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mybatis.spring.SqlSessionTemplate;
import org.mybatis.spring.annotation.MapperScan;
import org.mybatis.spring.boot.autoconfigure.MybatisAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code @IdgenId} on MyBatis parameters, on real MariaDB and PostgreSQL: 10,000 rows inserted from 4 threads as
 * multi-row inserts (a list, an array, named parameters) and through a {@code BATCH} executor, an ID set before the
 * insert kept, {@code String} and primitive {@code long} IDs.
 */
class IdgenMyBatisEntityIdsTest {

    private static final String[] TABLES = {"idgen_emb_order", "idgen_emb_ticket", "idgen_emb_line"};

    /** Rows per multi-row insert or per batch flush. */
    private static final int CHUNK = 500;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    MybatisAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenMyBatisAutoConfiguration.class))
            .withUserConfiguration(Mappers.class)
            .withPropertyValues(
                    "spring.datasource.hikari.maximum-pool-size=" + (THREADS + 1),
                    "idgen.generators.ticketno.form=uuid-v7");

    @AfterAll
    static void dropTables() throws Exception {
        for (EntityIdDatabase database : EntityIdDatabase.values()) {
            dropTables(database);
        }
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void tenThousandRowsFromFourThreadsGetDistinctIds(EntityIdDatabase database) throws Exception {
        createTables(database);
        runner.withPropertyValues(database.dataSourceProperties()).run(context -> {
            assertThat(context.getBean(SqlSessionFactory.class)
                            .getConfiguration()
                            .getInterceptors())
                    .hasExactlyElementsOfTypes(IdgenIdInterceptor.class);
            EntityIdMapper mapper = context.getBean(EntityIdMapper.class);
            SqlSessionTemplate batch =
                    new SqlSessionTemplate(context.getBean(SqlSessionFactory.class), ExecutorType.BATCH);
            TransactionTemplate transaction =
                    new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
            EntityIdDatabase.onFourThreads(thread -> transaction.executeWithoutResult(status -> {
                for (int from = 0; from < ROWS / THREADS; from += CHUNK) {
                    List<MyBatisOrder> orders = new ArrayList<>();
                    for (int i = from; i < from + CHUNK; i++) {
                        orders.add(new MyBatisOrder(null, "item " + thread + "/" + i));
                    }
                    switch (thread) {
                        case 0 -> assertThat(mapper.insertList(orders)).isEqualTo(CHUNK);
                        case 1 ->
                            assertThat(mapper.insertArray(orders.toArray(MyBatisOrder[]::new)))
                                    .isEqualTo(CHUNK);
                        case 2 ->
                            assertThat(mapper.insertNamed(orders, "named")).isEqualTo(CHUNK);
                        default -> {
                            EntityIdMapper batched = batch.getMapper(EntityIdMapper.class);
                            orders.forEach(batched::insert);
                            assertThat(batch.flushStatements()).hasSize(1);
                        }
                    }
                    assertThat(orders)
                            .allSatisfy(order -> assertThat(order.getId()).isPositive());
                }
            }));
            database.assertTenThousandDistinctIds("idgen_emb_order");
        });
    }

    @ParameterizedTest
    @EnumSource(EntityIdDatabase.class)
    void anIdSetBeforeInsertIsKeptAndStringAndPrimitiveIdsAreFilledIn(EntityIdDatabase database) throws Exception {
        createTables(database);
        runner.withPropertyValues(database.dataSourceProperties()).run(context -> {
            EntityIdMapper mapper = context.getBean(EntityIdMapper.class);
            MyBatisOrder preset = new MyBatisOrder(4242L, "preset");
            MyBatisOrder fresh = new MyBatisOrder(null, "fresh");
            MyBatisOrder presetInList = new MyBatisOrder(4343L, "preset in a list");
            MyBatisOrder freshInList = new MyBatisOrder(null, "fresh in a list");
            MyBatisTicket ticket = new MyBatisTicket(null, "string id");
            MyBatisTicket presetTicket = new MyBatisTicket("T-1", "preset string id");
            MyBatisLine line = new MyBatisLine(0, 3);
            MyBatisLine presetLine = new MyBatisLine(77, 4);
            mapper.insert(preset);
            mapper.insert(fresh);
            mapper.insertList(List.of(presetInList, freshInList));
            mapper.insertTicket(ticket);
            mapper.insertTicket(presetTicket);
            mapper.insertLine(line);
            mapper.insertLine(presetLine);
            assertThat(preset.getId()).isEqualTo(4242L);
            assertThat(presetInList.getId()).isEqualTo(4343L);
            assertThat(fresh.getId()).isPositive();
            assertThat(freshInList.getId()).isPositive().isNotEqualTo(fresh.getId());
            assertThat(ticket.getId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            assertThat(presetTicket.getId()).isEqualTo("T-1");
            assertThat(line.getId()).isPositive();
            assertThat(presetLine.getId()).isEqualTo(77L);
            assertThat(database.ids("idgen_emb_order"))
                    .containsExactlyInAnyOrder(4242L, fresh.getId(), 4343L, freshInList.getId());
            assertThat(database.ids("idgen_emb_ticket")).containsExactlyInAnyOrder(ticket.getId(), "T-1");
            assertThat(database.ids("idgen_emb_line")).containsExactlyInAnyOrder(line.getId(), 77L);
        });
    }

    @Test
    void idgenDisabledLeavesMyBatisAlone() {
        runner.withPropertyValues(EntityIdDatabase.POSTGRESQL.dataSourceProperties())
                .withPropertyValues("idgen.enabled=false")
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasSingleBean(SqlSessionFactory.class)
                        .doesNotHaveBean(IdgenIdInterceptor.class));
    }

    @Configuration(proxyBeanMethods = false)
    @MapperScan(basePackageClasses = EntityIdMapper.class)
    static class Mappers {}

    private static void createTables(EntityIdDatabase database) throws Exception {
        dropTables(database);
        database.execute(
                "CREATE TABLE idgen_emb_order (id BIGINT PRIMARY KEY, item VARCHAR(64))",
                "CREATE TABLE idgen_emb_ticket (id VARCHAR(64) PRIMARY KEY, title VARCHAR(64))",
                "CREATE TABLE idgen_emb_line (id BIGINT PRIMARY KEY, quantity INT)");
    }

    private static void dropTables(EntityIdDatabase database) throws Exception {
        for (String table : TABLES) {
            database.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
