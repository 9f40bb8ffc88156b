package dev.idgen.jdbc;

import dev.idgen.test.services.OwnMariaDbReplicaSet;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The lagging promotion on a MariaDB primary and asynchronous replica of the test's own (GTID, ROW binlog): the
 * replica stops ({@code STOP SLAVE}), the primary is killed, the replica promoted ({@code RESET SLAVE ALL},
 * {@code read_only=0}); the instances reach it through {@code jdbc:mariadb:sequential://primary,replica/test}.
 */
class MariaDbLaggingPromotionTest extends LaggingPromotionContract {

    @Override
    protected Replicas start() throws Exception {
        OwnMariaDbReplicaSet set = OwnMariaDbReplicaSet.start();
        return new Replicas() {
            @Override
            public String failoverUrl() {
                return set.failoverUrl();
            }

            @Override
            public Connection primary() throws SQLException {
                return set.connectPrimary();
            }

            @Override
            public Connection replica() throws SQLException {
                return set.connectReplica();
            }

            @Override
            public void awaitCaughtUp(Duration within) throws Exception {
                set.awaitReplicaCaughtUp(within);
            }

            @Override
            public void cutOff() throws Exception {
                set.stopReplication();
            }

            @Override
            public void killPrimary() throws Exception {
                set.killPrimary();
            }

            @Override
            public void promote() throws Exception {
                set.promoteReplica();
            }

            @Override
            public void close() throws Exception {
                set.close();
            }
        };
    }

    @Override
    protected String user() {
        return "root";
    }
}
