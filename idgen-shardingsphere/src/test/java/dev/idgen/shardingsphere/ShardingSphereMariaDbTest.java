package dev.idgen.shardingsphere;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.shardingsphere.OrderWriter;
import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.forms.shard.ShardedSnowflake;
import dev.idgen.shardingsphere.autoconfigure.IdgenShardingSphereAutoConfiguration;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.TestServices;
import dev.idgen.test.services.TestServices.JdbcEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.shardingsphere.driver.ShardingSphereDriver;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * ShardingSphere-JDBC 5.5.2 over two real MariaDB databases ({@code idgen_ss<pid>_0} and {@code _1}) as two shards:
 * shard-form order IDs and customer keys routed by {@code IDGEN_SHARD}, checked in each database with plain JDBC;
 * keys from {@code IDGEN} inserted by two instances at once, each with a worker id leased from a table, through two
 * Spring contexts and through two standalone configurations.
 */
class ShardingSphereMariaDbTest {

    private static final String YAML_URL = "jdbc:mariadb://127.0.0.1:3306/idgen_ss_";

    /** Databases of this JVM's own: builds of other branches run this test against the same server at once. */
    private static final String DATABASE = "idgen_ss" + ProcessHandle.current().pid() + "_";

    private static final int CUSTOMERS = 24;
    private static final int EVENTS_PER_INSTANCE = 400;
    private static final int ROWS_PER_INSERT = 100;

    private static JdbcEndpoint server;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(IdgenAutoConfiguration.class, IdgenShardingSphereAutoConfiguration.class))
            .withUserConfiguration(IdgenDatabase.class)
            .withPropertyValues(
                    "idgen.snowflake.worker-id-assigner=jdbc",
                    "idgen.jdbc.initialize-schema=always",
                    "idgen.generators.order.form=shard",
                    "idgen.generators.order.shard.logical-shards=1024");

    @BeforeAll
    static void createShards() throws SQLException {
        server = TestServices.mariadb();
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            for (int shard = 0; shard < 2; shard++) {
                statement.execute("DROP DATABASE IF EXISTS " + DATABASE + shard);
                statement.execute("CREATE DATABASE " + DATABASE + shard);
                statement.execute("CREATE TABLE " + DATABASE + shard + ".t_customer (customer_key VARCHAR(64) PRIMARY"
                        + " KEY, name VARCHAR(64) NOT NULL)");
                statement.execute("CREATE TABLE " + DATABASE + shard + ".t_order (order_id BIGINT PRIMARY KEY,"
                        + " customer_key VARCHAR(64) NOT NULL, item VARCHAR(64) NOT NULL)");
                statement.execute("CREATE TABLE " + DATABASE + shard + ".t_event (event_id BIGINT PRIMARY KEY,"
                        + " source VARCHAR(16) NOT NULL)");
            }
        }
    }

    @AfterAll
    static void dropShards() throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            for (int shard = 0; shard < 2; shard++) {
                statement.execute("DROP DATABASE IF EXISTS " + DATABASE + shard);
            }
        }
    }

    @Test
    void twoSpringContextsRouteShardFormOrdersToTheirCustomersAndKeyEventsWithoutARepeat() {
        runner.withPropertyValues("idgen.shardingsphere.registration=a")
                .run(a -> runner.withPropertyValues("idgen.shardingsphere.registration=b")
                        .run(b -> {
                            assertThat(a).hasNotFailed();
                            assertThat(b).hasNotFailed();
                            try (ShardingSphereSource shopA =
                                            shop("shop.yaml", Map.of("        type: IDGEN\n", registered("a")));
                                    ShardingSphereSource shopB =
                                            shop("shop.yaml", Map.of("        type: IDGEN\n", registered("b")))) {
                                Map<String, List<Long>> orders =
                                        placeOrders(a.getBean(IdForms.class), shopA.dataSource());
                                findOrdersAgain(orders, shopB.dataSource());
                                assertEveryRowOnItsShard(orders);

                                insertEventsAtOnce(shopA.dataSource(), shopB.dataSource(), "a", "b");
                                IdService idsA = a.getBean(IdService.class);
                                IdService idsB = b.getBean(IdService.class);
                                Set<Long> workersA = workerIds("a", idsA);
                                Set<Long> workersB = workerIds("b", idsB);
                                assertThat(workersA).hasSize(1);
                                assertThat(workersB).hasSize(1).doesNotContainAnyElementsOf(workersA);
                            }
                        }));
        assertThat(IdgenRegistry.find("a")).isNull();
        assertThat(IdgenRegistry.find("b")).isNull();
    }

    @Test
    void withoutSpringTwoConfigurationsLeaseTwoWorkerIdsAndAnAlgorithmBuiltTwiceSharesOne() throws Exception {
        int before = StandaloneIdgens.count();
        try (ShardingSphereSource one = shop("shop-standalone.yaml", Map.of("events-1", "ss-standalone-1"));
                ShardingSphereSource two = shop("shop-standalone.yaml", Map.of("events-1", "ss-standalone-2"));
                ShardingSphereSource oneAgain = shop("shop-standalone.yaml", Map.of("events-1", "ss-standalone-1"))) {
            insertEventsAtOnce(one.dataSource(), two.dataSource(), "one", "two");
            insertEvents(oneAgain.dataSource(), "one-again", 1);
            // Three DataSources, two configurations: two idgens, two leases.
            assertThat(StandaloneIdgens.count()).isEqualTo(before + 2);
            try (Connection connection = shard(0).connect();
                    Statement statement = connection.createStatement();
                    ResultSet held = statement.executeQuery(
                            "SELECT COUNT(*) FROM idgen_worker WHERE owner LIKE 'ss-standalone-%'")) {
                assertThat(held.next()).isTrue();
                assertThat(held.getInt(1)).isEqualTo(2);
            }
            Map<String, Set<Long>> workers = new HashMap<>();
            for (Map.Entry<Long, String> event : events().entrySet()) {
                long worker = (event.getKey() >>> 12) & 1023;
                workers.computeIfAbsent(event.getValue(), source -> new HashSet<>())
                        .add(worker);
            }
            assertThat(workers.get("one")).hasSize(1).isEqualTo(workers.get("one-again"));
            assertThat(workers.get("two")).hasSize(1).doesNotContainAnyElementsOf(workers.get("one"));
        }
    }

    @Test
    void withoutSpringSegmentsComeFromATable() {
        Properties props = new Properties();
        props.setProperty("strategy", "segment");
        props.setProperty("jdbc-url", shard(1).url());
        props.setProperty("jdbc-username", server.username());
        props.setProperty("jdbc-password", server.password() == null ? "" : server.password());
        props.setProperty("table", "idgen_ss_segment");
        props.setProperty("initialize-schema", "always");
        props.setProperty("segment-step", "50");
        IdgenKeyGenerateAlgorithm algorithm = new IdgenKeyGenerateAlgorithm();
        algorithm.init(props);
        AlgorithmSQLContext context = new AlgorithmSQLContext("shop", "shop", "t_invoice", "invoice_id");
        assertThat(new ArrayList<Object>(algorithm.generateKeys(context, 3))).containsExactly(1L, 2L, 3L);
        assertThat(new ArrayList<Object>(algorithm.generateKeys(context, 2))).containsExactly(4L, 5L);
    }

    /**
     * ShardingSphere's is the only DataSource, so idgen's lease table goes through it, pinned by a {@code !SINGLE}
     * rule to ds_0. Two instances (two contexts, each a ShardingSphere DataSource of its own, the second started
     * after the first created the table) must find one lease table: each leases a worker id of its own.
     */
    @Test
    void twoBootDataSourcesOnShardingSpheresDriverShareOnePinnedLeaseTable() {
        System.setProperty("idgen.ss.url-0", shard(0).url());
        System.setProperty("idgen.ss.url-1", shard(1).url());
        System.setProperty("idgen.ss.username", server.username());
        System.setProperty("idgen.ss.password", server.password() == null ? "" : server.password());
        try {
            // Three instances (unpinned, each would pick ds_0 or ds_1 at random: the test then fails 7 times in 8).
            // Only the first registers its idgen (one JVM, one 'default' name); the others' keys are checked directly.
            bootRunner("a")
                    .run(a -> bootRunner("b")
                            .run(b -> bootRunner("c").run(c -> {
                                assertThat(a).hasNotFailed();
                                assertThat(b).hasNotFailed();
                                assertThat(c).hasNotFailed();
                                assertThat(a.getBean(DataSource.class)).isNotSameAs(b.getBean(DataSource.class));
                                insertEvents(a.getBean(DataSource.class), "boot", 1);
                                IdService idsA = a.getBean(IdService.class);
                                assertThat(workerIds("boot", idsA)).containsExactly(workerId(idsA));
                                assertThat(List.of(
                                                workerId(idsA),
                                                workerId(b.getBean(IdService.class)),
                                                workerId(c.getBean(IdService.class))))
                                        .as("the three instances' worker ids")
                                        .doesNotHaveDuplicates();
                                assertOneLeaseTableInTheFirstDatabase(3);
                            })));
        } finally {
            System.clearProperty("idgen.ss.url-0");
            System.clearProperty("idgen.ss.url-1");
            System.clearProperty("idgen.ss.username");
            System.clearProperty("idgen.ss.password");
        }
    }

    /** Plain JDBC: idgen_boot_worker is in the first database only, holding the instances' leases. */
    private static void assertOneLeaseTableInTheFirstDatabase(int leases) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement()) {
            try (ResultSet tables = statement.executeQuery("SELECT table_schema FROM information_schema.tables WHERE"
                    + " table_name = 'idgen_boot_worker' AND table_schema LIKE '" + DATABASE + "%'")) {
                assertThat(tables.next()).isTrue();
                assertThat(tables.getString(1)).isEqualTo(DATABASE + 0);
                assertThat(tables.next()).as("a second lease table").isFalse();
            }
            try (ResultSet held = statement.executeQuery("SELECT COUNT(*) FROM " + DATABASE + "0.idgen_boot_worker")) {
                assertThat(held.next()).isTrue();
                assertThat(held.getInt(1)).isEqualTo(leases);
            }
        }
    }

    /** A Boot application on ShardingSphere's driver; the instance's name in the URL keeps the driver's cache apart. */
    private static ApplicationContextRunner bootRunner(String instance) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        IdgenAutoConfiguration.class,
                        IdgenShardingSphereAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.driver-class-name=" + ShardingSphereDriver.class.getName(),
                        "spring.datasource.url=jdbc:shardingsphere:classpath:shardingsphere/events-boot.yaml"
                                + "?placeholder-type=system_props&instance=" + instance,
                        "spring.datasource.hikari.maximum-pool-size=2",
                        "idgen.snowflake.worker-id-assigner=jdbc",
                        "idgen.jdbc.initialize-schema=always",
                        "idgen.jdbc.worker-table=idgen_boot_worker",
                        "idgen.shardingsphere.enabled=" + instance.equals("a"));
    }

    private static long workerId(IdService ids) {
        return ((Number) ids.decode(ids.nextId("probe")).toMap().get("workerId")).longValue();
    }

    private static String registered(String name) {
        return "        type: IDGEN\n        props:\n          registration: " + name + "\n";
    }

    private static Map<String, List<Long>> placeOrders(IdForms forms, DataSource shop) throws SQLException {
        OrderWriter writer = new OrderWriter(forms, shop);
        Map<String, List<Long>> orders = new HashMap<>();
        try (Connection connection = shop.getConnection();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO t_customer (customer_key, name) VALUES (?, ?)")) {
            for (int i = 0; i < CUSTOMERS; i++) {
                String key = "customer-" + i;
                insert.setString(1, key);
                insert.setString(2, "Customer " + i);
                insert.executeUpdate();
                List<Long> ids = new ArrayList<>();
                for (int n = 0; n < 2; n++) {
                    ids.add(writer.placeOrder(key, "item " + n));
                }
                orders.put(key, ids);
            }
        }
        return orders;
    }

    private static void findOrdersAgain(Map<String, List<Long>> orders, DataSource shop) throws SQLException {
        try (Connection connection = shop.getConnection();
                PreparedStatement byId =
                        connection.prepareStatement("SELECT customer_key FROM t_order WHERE order_id = ?");
                PreparedStatement customer =
                        connection.prepareStatement("SELECT name FROM t_customer WHERE customer_key = ?");
                PreparedStatement byCustomer = connection.prepareStatement(
                        "SELECT order_id FROM t_order WHERE customer_key = ? ORDER BY order_id")) {
            for (Map.Entry<String, List<Long>> entry : orders.entrySet()) {
                for (long id : entry.getValue()) {
                    byId.setLong(1, id);
                    assertThat(strings(byId)).containsExactly(entry.getKey());
                }
                customer.setString(1, entry.getKey());
                assertThat(strings(customer))
                        .containsExactly("Customer " + entry.getKey().substring(9));
                byCustomer.setString(1, entry.getKey());
                assertThat(strings(byCustomer))
                        .containsExactlyInAnyOrderElementsOf(
                                entry.getValue().stream().map(String::valueOf).toList());
            }
        }
    }

    /** Plain JDBC to each database: every row is in the database its ID's (or key's) shard names. */
    private static void assertEveryRowOnItsShard(Map<String, List<Long>> orders) throws SQLException {
        ShardedSnowflake routing = ShardedSnowflake.builder()
                .generator(SnowflakeGenerator.builder()
                        .layout(ShardedSnowflake.defaultLayout(1024))
                        .workerId(0)
                        .build())
                .logicalShards(1024)
                .build();
        int orderRows = 0;
        int customerRows = 0;
        Set<Integer> shardsUsed = new HashSet<>();
        for (int shard = 0; shard < 2; shard++) {
            try (Connection connection = shard(shard).connect();
                    Statement statement = connection.createStatement()) {
                try (ResultSet rows = statement.executeQuery("SELECT order_id, customer_key FROM t_order")) {
                    while (rows.next()) {
                        assertThat(routing.shardOf(rows.getLong(1), 2)).isEqualTo(shard);
                        assertThat(routing.shardOf(rows.getString(2), 2)).isEqualTo(shard);
                        assertThat(orders.get(rows.getString(2))).contains(rows.getLong(1));
                        orderRows++;
                        shardsUsed.add(shard);
                    }
                }
                try (ResultSet rows = statement.executeQuery("SELECT customer_key FROM t_customer")) {
                    while (rows.next()) {
                        assertThat(routing.shardOf(rows.getString(1), 2)).isEqualTo(shard);
                        customerRows++;
                    }
                }
            }
        }
        assertThat(orderRows).isEqualTo(CUSTOMERS * 2);
        assertThat(customerRows).isEqualTo(CUSTOMERS);
        assertThat(shardsUsed).containsExactly(0, 1);
    }

    /** Both instances insert at once, without the key column; every key in either database is distinct. */
    private static void insertEventsAtOnce(DataSource first, DataSource second, String one, String two)
            throws Exception {
        int before = events().size();
        CountDownLatch start = new CountDownLatch(1);
        CompletableFuture<Void> a = CompletableFuture.runAsync(() -> insertAfter(start, first, one));
        CompletableFuture<Void> b = CompletableFuture.runAsync(() -> insertAfter(start, second, two));
        start.countDown();
        CompletableFuture.allOf(a, b).get(30, TimeUnit.SECONDS);
        Map<Long, String> events = events();
        assertThat(events).hasSize(before + 2 * EVENTS_PER_INSTANCE);
        assertThat(events.values().stream().filter(one::equals)).hasSize(EVENTS_PER_INSTANCE);
        assertThat(events.values().stream().filter(two::equals)).hasSize(EVENTS_PER_INSTANCE);
    }

    private static void insertAfter(CountDownLatch start, DataSource shop, String source) {
        try {
            start.await();
            insertEvents(shop, source, EVENTS_PER_INSTANCE / ROWS_PER_INSERT);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void insertEvents(DataSource shop, String source, int statements) throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO t_event (source) VALUES (?)");
        sql.append(", (?)".repeat(ROWS_PER_INSERT - 1));
        try (Connection connection = shop.getConnection();
                PreparedStatement insert = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < statements; i++) {
                for (int row = 1; row <= ROWS_PER_INSERT; row++) {
                    insert.setString(row, source);
                }
                assertThat(insert.executeUpdate()).isEqualTo(ROWS_PER_INSERT);
            }
        }
    }

    /** @return every event of both databases by key; a key in both, or twice, fails the primary keys or the count */
    private static Map<Long, String> events() throws SQLException {
        Map<Long, String> events = new HashMap<>();
        for (int shard = 0; shard < 2; shard++) {
            try (Connection connection = shard(shard).connect();
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT event_id, source FROM t_event")) {
                while (rows.next()) {
                    assertThat(events.put(rows.getLong(1), rows.getString(2)))
                            .as("event %d in both databases", rows.getLong(1))
                            .isNull();
                }
            }
        }
        return events;
    }

    private static Set<Long> workerIds(String source, IdService ids) throws SQLException {
        Set<Long> workers = new HashSet<>();
        for (Map.Entry<Long, String> event : events().entrySet()) {
            if (event.getValue().equals(source)) {
                workers.add(((Number) ids.decode(event.getKey()).toMap().get("workerId")).longValue());
            }
        }
        return workers;
    }

    private static List<String> strings(PreparedStatement query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    private static JdbcEndpoint shard(int shard) {
        String url = server.url();
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        String params = query < 0 ? "" : url.substring(query);
        return new JdbcEndpoint(
                path.substring(0, path.lastIndexOf('/') + 1) + DATABASE + shard + params,
                server.username(),
                server.password());
    }

    /** A ShardingSphere DataSource from a YAML of src/test/resources/shardingsphere, on the test's MariaDB. */
    private static ShardingSphereSource shop(String resource, Map<String, String> changes)
            throws SQLException, IOException {
        String yaml;
        try (InputStream in = ShardingSphereMariaDbTest.class.getResourceAsStream("/shardingsphere/" + resource)) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (int shard = 0; shard < 2; shard++) {
            yaml = yaml.replace(YAML_URL + shard, shard(shard).url());
        }
        String password = server.password() == null ? "" : server.password();
        yaml = yaml.replace("username: root", "username: " + server.username())
                .replace("password: \"\"", "password: \"" + password + "\"");
        for (Map.Entry<String, String> change : changes.entrySet()) {
            assertThat(yaml).contains(change.getKey());
            yaml = yaml.replace(change.getKey(), change.getValue());
        }
        return new ShardingSphereSource(
                YamlShardingSphereDataSourceFactory.createDataSource(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    /** Closes a ShardingSphere DataSource (and its pools) after a test. */
    private record ShardingSphereSource(DataSource dataSource) implements AutoCloseable {

        @Override
        public void close() throws SQLException {
            try {
                ((AutoCloseable) dataSource).close();
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new SQLException(e);
            }
        }
    }

    /** idgen's own tables on a plain pool to the first shard's database, as an application's DataSource. */
    @Configuration(proxyBeanMethods = false)
    static class IdgenDatabase {

        @Bean(destroyMethod = "close")
        DataSource idgenDataSource() {
            return shard(0).pool(2);
        }
    }
}
