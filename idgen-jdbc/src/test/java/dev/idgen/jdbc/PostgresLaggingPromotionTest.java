package dev.idgen.jdbc;

import dev.idgen.test.services.OwnPostgresReplicaSet;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The lagging promotion on a PostgreSQL 15 primary and a streaming replica of the test's own (made with
 * {@code pg_basebackup -R}): the replica is cut off from the primary ({@code primary_conninfo = ''}; pausing replay would
 * not do, promotion replays what was received), the primary is killed, the replica promoted ({@code pg_promote()}); the
 * instances reach it through a pgjdbc URL with both hosts and {@code targetServerType=primary}.
 */
class PostgresLaggingPromotionTest extends LaggingPromotionContract {

    @Override
    protected Replicas start() throws Exception {
        OwnPostgresReplicaSet set = OwnPostgresReplicaSet.start();
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
                set.cutOffReplica();
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
        return "postgres";
    }
}
