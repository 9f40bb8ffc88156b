package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.spring.boot.autoconfigure.IdgenAutoConfiguration;
import dev.idgen.test.services.OwnEtcdCluster;
import dev.idgen.test.services.OwnZooKeeperCluster;
import dev.idgen.test.services.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * An application with rows moves its segments from store to store as a user would, jdbc, etcd, ZooKeeper, an idgen
 * server and back to jdbc, inserting its IDs as primary keys all along: no insert ever meets a duplicate key. Each
 * move made without saying where the names were refuses to start, naming the setting, and leaves nothing behind that
 * traps the start that follows with it.
 */
class StoreSwitchTest {

    private static final int ROWS_PER_STORE = 250;

    private static OwnEtcdCluster etcd;
    private static OwnZooKeeperCluster zookeeper;
    private static IdgenServerJar server;

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private final String orders = "switch_orders_" + suffix;
    private final String invoices = "switch_invoices_" + suffix;
    private final String refunds = "switch_refunds_" + suffix;

    @BeforeAll
    static void startStores() throws Exception {
        etcd = OwnEtcdCluster.start(1);
        zookeeper = OwnZooKeeperCluster.start(1);
        server = IdgenServerJar.start();
    }

    @AfterAll
    static void stopStores() throws Exception {
        for (AutoCloseable store : new AutoCloseable[] {server, zookeeper, etcd}) {
            if (store != null) {
                store.close();
            }
        }
    }

    private ApplicationContextRunner application(String... settings) {
        TestServices.JdbcEndpoint mariadb = TestServices.mariadb();
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataSourceAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=" + mariadb.url(),
                        "spring.datasource.username=" + mariadb.username(),
                        "spring.datasource.password=" + mariadb.password(),
                        "idgen.strategy=segment",
                        "idgen.segment.step=100",
                        "idgen.jdbc.table=idgen_switch_" + suffix,
                        "idgen.jdbc.initialize-schema=always",
                        "idgen.etcd.endpoints=" + etcd.endpoints(),
                        "idgen.etcd.namespace=switch-" + suffix + "/",
                        "idgen.zookeeper.connect-string=" + zookeeper.connectString(),
                        "idgen.zookeeper.namespace=switch-" + suffix,
                        "idgen.remote.servers=http://127.0.0.1:" + server.port(),
                        "idgen.remote.token=" + server.token())
                .withPropertyValues(settings);
    }

    @Test
    void movingFromStoreToStoreNeverRepeatsAnIdInTheApplicationsTables() throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + orders + " (id BIGINT PRIMARY KEY)");
            statement.execute("CREATE TABLE " + invoices + " (id BIGINT PRIMARY KEY)");
            statement.execute("CREATE TABLE " + refunds + " (id BIGINT PRIMARY KEY)");
        }
        try {
            insertFrom(application("idgen.segment.store=jdbc"));
            insertRefunds(application("idgen.segment.store=jdbc"));

            refuses(application("idgen.segment.store=etcd"), "jdbc");
            // A switch-from naming a store that never held the names, while the table is their home.
            refuses(application("idgen.segment.store=etcd", "idgen.segment.switch-from=zookeeper"), "never held");
            insertFrom(application("idgen.segment.store=etcd", "idgen.segment.switch-from=jdbc"));
            // The setting left in place after the switch changes nothing; then it goes.
            insertFrom(application("idgen.segment.store=etcd", "idgen.segment.switch-from=jdbc"));
            insertFrom(application("idgen.segment.store=etcd"));
            // Not served during the switch: the switch copied it from the table it listed, so it goes on above.
            insertRefunds(application("idgen.segment.store=etcd"));

            refuses(application("idgen.segment.store=zookeeper"), "jdbc");
            insertFrom(application("idgen.segment.store=zookeeper", "idgen.segment.switch-from=etcd"));

            // An idgen server keeps no marks; the store it comes from, configured, is seen.
            refuses(application("idgen.segment.store=remote", "idgen.segment.switch-from=etcd"), "left it");
            insertFrom(application("idgen.segment.store=remote", "idgen.segment.switch-from=zookeeper"));
            // An instance restarted on ZooKeeper after the switch refuses: its names went on to the server.
            refuses(application("idgen.segment.store=zookeeper"), "left zookeeper");
            // The server keeps no marks; ZooKeeper says it was left for a server: the same switch, not another.
            insertFrom(application("idgen.segment.store=remote", "idgen.segment.switch-from=zookeeper"));
            insertFrom(application("idgen.segment.store=remote"));

            // Back to the table it left: its rows are where they were when it left, far below.
            refuses(application("idgen.segment.store=jdbc"), "left jdbc");
            insertFrom(application("idgen.segment.store=jdbc", "idgen.segment.switch-from=remote"));
            insertFrom(application("idgen.segment.store=jdbc"));

            assertThat(count(orders)).isEqualTo(10L * ROWS_PER_STORE);
            assertThat(count(invoices)).isEqualTo(10L * ROWS_PER_STORE);
            assertThat(count(refunds)).isEqualTo(2L * ROWS_PER_STORE);
        } finally {
            try (Connection connection = TestServices.mariadb().connect();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + orders);
                statement.execute("DROP TABLE IF EXISTS " + invoices);
                statement.execute("DROP TABLE IF EXISTS " + refunds);
                statement.execute("DROP TABLE IF EXISTS idgen_switch_" + suffix);
            }
        }
    }

    /** Starts the application, inserts IDs of two names as primary keys, and stops it: an insert that repeats fails. */
    private void insertFrom(ApplicationContextRunner application) {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            IdService ids = context.getBean(IdService.class);
            try (Connection connection = TestServices.mariadb().connect()) {
                insert(connection, orders, ids, "orders");
                insert(connection, invoices, ids, "invoices");
            }
        });
    }

    private void insertRefunds(ApplicationContextRunner application) {
        application.run(context -> {
            assertThat(context).hasNotFailed();
            try (Connection connection = TestServices.mariadb().connect()) {
                insert(connection, refunds, context.getBean(IdService.class), "refunds");
            }
        });
    }

    private static void insert(Connection connection, String table, IdService ids, String name) throws Exception {
        List<Long> batch = new ArrayList<>();
        for (int i = 0; i < ROWS_PER_STORE; i++) {
            batch.add(ids.nextId(name));
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
            for (long id : batch) {
                insert.setLong(1, id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void refuses(ApplicationContextRunner application, String where) {
        application.run(context -> {
            assertThat(context).hasFailed();
            String failure = messages(context.getStartupFailure());
            assertThat(failure).contains("would issue their IDs again");
            if (where != null) {
                assertThat(failure).contains(where);
            }
        });
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    private static long count(String table) throws Exception {
        try (Connection connection = TestServices.mariadb().connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
