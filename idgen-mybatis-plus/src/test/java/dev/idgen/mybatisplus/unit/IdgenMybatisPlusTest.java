package dev.idgen.mybatisplus.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration;
import com.baomidou.mybatisplus.core.config.GlobalConfig;
import com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator;
import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.toolkit.GlobalConfigUtils;
import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import com.baomidou.mybatisplus.extension.toolkit.Db;
import com.example.mybatisplus.Order;
import com.example.mybatisplus.OrderMapper;
import dev.idgen.core.IdService;
import dev.idgen.mybatisplus.IdgenIdentifierGenerator;
import dev.idgen.mybatisplus.IdgenMybatisPlusAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.entity.IdgenMyBatisAutoConfiguration;
import dev.idgen.test.services.TestServices;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mybatis.spring.annotation.MapperScan;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * MyBatis-Plus with idgen on a real PostgreSQL: what each kind of key gets, and when idgen's generator is not used
 * (idgen off, a user's own bean). The documented entity, mapper and properties (com.example.mybatisplus) are the
 * ones inserted here.
 */
class IdgenMybatisPlusTest {

    private static final String[] TABLES = {"mp_order", "mp_ticket", "mp_code", "mp_plain", "mp_small"};

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    IdgenAutoConfiguration.class,
                    IdgenMyBatisAutoConfiguration.class,
                    IdgenMybatisPlusAutoConfiguration.class,
                    MybatisPlusAutoConfiguration.class))
            .withUserConfiguration(Mappers.class)
            .withPropertyValues(documentedProperties())
            .withPropertyValues(
                    "spring.datasource.url=" + TestServices.postgres().url(),
                    "spring.datasource.username=" + TestServices.postgres().username(),
                    "spring.datasource.password=" + TestServices.postgres().password(),
                    "spring.datasource.hikari.maximum-pool-size=2",
                    "idgen.generators.mp_code_form.form=uuid-v7",
                    // Tickets (small dense numbers) for the documented table's generator: IDs that cannot be
                    // MyBatis-Plus's own Snowflake's.
                    "idgen.generators.orders.strategy=ticket");

    @BeforeAll
    static void createTables() throws Exception {
        dropTables();
        execute(
                "CREATE TABLE mp_order (id BIGINT PRIMARY KEY, item VARCHAR(64))",
                "CREATE TABLE mp_ticket (id VARCHAR(32) PRIMARY KEY, title VARCHAR(64))",
                "CREATE TABLE mp_code (id VARCHAR(64) PRIMARY KEY, title VARCHAR(64))",
                "CREATE TABLE mp_plain (id VARCHAR(64) PRIMARY KEY, title VARCHAR(64))",
                "CREATE TABLE mp_small (id INT PRIMARY KEY, title VARCHAR(64))");
    }

    @AfterAll
    static void dropTables() throws Exception {
        for (String table : TABLES) {
            execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void eachKindOfKeyGetsItsIdAndAPresetIdIsKept() {
        runner.run(context -> {
            assertThat(GlobalConfigUtils.getGlobalConfig(
                                    context.getBean(SqlSessionFactory.class).getConfiguration())
                            .getIdentifierGenerator())
                    .isSameAs(context.getBean(IdentifierGenerator.class))
                    .isInstanceOf(IdgenIdentifierGenerator.class);
            IdgenIdentifierGenerator generator = context.getBean(IdgenIdentifierGenerator.class);

            Order order = new Order("fresh");
            Order preset = new Order("preset");
            preset.setId(4242L);
            context.getBean(OrderMapper.class).insert(order);
            context.getBean(OrderMapper.class).insert(preset);
            assertThat(order.getId()).isPositive().isLessThan(1L << 40);
            assertThat(preset.getId()).isEqualTo(4242L);
            // MyBatis-Plus's batch paths (a BATCH executor) take their IDs from the generator too.
            List<Order> viaDb = List.of(new Order("Db.saveBatch 1"), new Order("Db.saveBatch 2"));
            assertThat(Db.saveBatch(viaDb)).isTrue();
            List<Order> viaMapper = List.of(new Order("insert(list) 1"), new Order("insert(list) 2"));
            assertThat(context.getBean(OrderMapper.class).insert(viaMapper)).hasSize(1);
            List<String> orderIds = new ArrayList<>(List.of(order.getId().toString(), "4242"));
            for (Order batched : List.of(viaDb.get(0), viaDb.get(1), viaMapper.get(0), viaMapper.get(1))) {
                assertThat(batched.getId()).isPositive().isLessThan(1L << 40);
                orderIds.add(batched.getId().toString());
            }
            assertThat(ids("mp_order")).containsExactlyInAnyOrderElementsOf(orderIds);
            // The documented property maps the table onto the generator "orders".
            assertThat(generator.generator(order)).isEqualTo("orders");

            Entities.Ticket ticket = new Entities.Ticket(null, "uuid");
            Entities.Ticket presetTicket = new Entities.Ticket("t-1", "preset");
            context.getBean(Entities.TicketMapper.class).insert(ticket);
            context.getBean(Entities.TicketMapper.class).insert(presetTicket);
            assertThat(ticket.id).matches("[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}");
            assertThat(presetTicket.id).isEqualTo("t-1");
            assertThat(ids("mp_ticket")).containsExactlyInAnyOrder(ticket.id, "t-1");

            Entities.Code code = new Entities.Code();
            context.getBean(Entities.CodeMapper.class).insert(code);
            assertThat(code.id)
                    .as("the form string of @IdgenId's generator, not MyBatis-Plus's decimal")
                    .matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            assertThat(ids("mp_code")).containsExactly(code.id);

            Entities.Plain plain = new Entities.Plain();
            context.getBean(Entities.PlainMapper.class).insert(plain);
            assertThat(plain.id).matches("[1-9][0-9]*");
            assertThat(generator.generator(plain)).isEqualTo("mp_plain");

            assertThatThrownBy(() -> context.getBean(Entities.SmallMapper.class).insert(new Entities.Small()))
                    .rootCause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(Entities.Small.class.getName() + ".id: an Integer key")
                    .hasMessageContaining("long, Long, String, BigInteger or BigDecimal");
            assertThat(ids("mp_small")).isEmpty();

            assertThatThrownBy(() -> generator.nextId(new Entities.Odd()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("The table name mp$odd of " + Entities.Odd.class.getName())
                    .hasMessageContaining("idgen.mybatis-plus.generators[mp$odd]=<generator>");
        });
    }

    @Test
    void idWorkerFollowsTheLastContextStarted() {
        ApplicationContextRunner tickets = runner.withPropertyValues(
                "idgen.generators.mp_worker_a.strategy=ticket", "idgen.generators.mp_worker_b.strategy=ticket");
        tickets.withPropertyValues("idgen.mybatis-plus.default-generator=mp_worker_a")
                .run(first -> {
                    long before = first.getBean(IdService.class).nextId("mp_worker_a");
                    assertThat(IdWorker.getId()).isEqualTo(before + 1);
                    tickets.withPropertyValues("idgen.mybatis-plus.default-generator=mp_worker_b")
                            .run(second -> {
                                long last = second.getBean(IdService.class).nextId("mp_worker_b");
                                assertThat(IdWorker.getId()).isEqualTo(last + 1);
                                assertThat(first.getBean(IdService.class).nextId("mp_worker_a"))
                                        .as("the first context's generator no longer serves IdWorker")
                                        .isEqualTo(before + 2);
                            });
                });
    }

    @Test
    void aBadPropertyFailsStartUpNamingIt() {
        runner.withPropertyValues("idgen.mybatis-plus.generators.mp_order=bad name")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("idgen.mybatis-plus.generators.mp_order")
                        .hasMessageContaining("bad name"));
    }

    @Test
    void autoConfiguredFromTheModulesImportsAndOrderedBeforeMybatisPlus() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
                .contains(IdgenMybatisPlusAutoConfiguration.class.getName());
        Class<?>[] order = Configurations.getClasses(AutoConfigurations.of(
                MybatisPlusAutoConfiguration.class,
                IdgenMybatisPlusAutoConfiguration.class,
                IdgenAutoConfiguration.class));
        assertThat(order)
                .containsExactly(
                        IdgenAutoConfiguration.class,
                        IdgenMybatisPlusAutoConfiguration.class,
                        MybatisPlusAutoConfiguration.class);
    }

    @Test
    void idgenDisabledLeavesMybatisPlusItsOwnGenerator() {
        runner.withPropertyValues("idgen.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(IdgenIdentifierGenerator.class);
            assertThat(generatorOf(context.getBean(SqlSessionFactory.class)))
                    .isInstanceOf(DefaultIdentifierGenerator.class);
        });
    }

    @Test
    void aUsersOwnGeneratorWins() {
        runner.withUserConfiguration(OwnGenerator.class).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(IdgenIdentifierGenerator.class);
            assertThat(generatorOf(context.getBean(SqlSessionFactory.class)))
                    .isSameAs(context.getBean(IdentifierGenerator.class));
        });
    }

    private static IdentifierGenerator generatorOf(SqlSessionFactory factory) {
        GlobalConfig config = GlobalConfigUtils.getGlobalConfig(factory.getConfiguration());
        return config.getIdentifierGenerator();
    }

    @Configuration(proxyBeanMethods = false)
    @MapperScan(basePackageClasses = {OrderMapper.class, Entities.class})
    static class Mappers {}

    @Configuration(proxyBeanMethods = false)
    static class OwnGenerator {
        @Bean
        IdentifierGenerator ownGenerator() {
            return entity -> 7L;
        }
    }

    /** The documented application.properties, as the docs show them. */
    private static String[] documentedProperties() {
        Properties properties = new Properties();
        try (InputStream in =
                IdgenMybatisPlusTest.class.getResourceAsStream("/com/example/mybatisplus/application.properties")) {
            properties.load(in);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return properties.stringPropertyNames().stream()
                .map(name -> name + "=" + properties.getProperty(name))
                .toArray(String[]::new);
    }

    private static List<String> ids(String table) throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection connection = TestServices.postgres().connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id FROM " + table)) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        }
        return ids;
    }

    private static void execute(String... statements) throws Exception {
        try (Connection connection = TestServices.postgres().connect();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
