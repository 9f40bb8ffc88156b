package dev.idgen.jdbc;

import dev.idgen.test.services.OwnPostgresReplicaSet;
import dev.idgen.test.services.OwnReplicaSet;

/**
 * The lagging promotion on a PostgreSQL 15 primary and a streaming replica of the test's own (made with
 * {@code pg_basebackup -R}): the replica is cut off from the primary ({@code primary_conninfo = ''}; pausing replay would
 * not do, promotion replays what was received), the primary is killed, the replica promoted ({@code pg_promote()}); the
 * instances reach it through a pgjdbc URL with both hosts and {@code targetServerType=primary}.
 */
class PostgresLaggingPromotionTest extends LaggingPromotionContract {

    @Override
    protected OwnReplicaSet start() throws Exception {
        return OwnPostgresReplicaSet.start();
    }

    @Override
    protected String user() {
        return "postgres";
    }
}
