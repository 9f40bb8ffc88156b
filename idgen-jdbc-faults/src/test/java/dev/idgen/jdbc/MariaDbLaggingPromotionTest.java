package dev.idgen.jdbc;

import dev.idgen.test.services.OwnMariaDbReplicaSet;
import dev.idgen.test.services.OwnReplicaSet;

/**
 * The lagging promotion on a MariaDB primary and asynchronous replica of the test's own (GTID, ROW binlog): the
 * replica stops ({@code STOP SLAVE}), the primary is killed, the replica promoted ({@code RESET SLAVE ALL},
 * {@code read_only=0}); the instances reach it through {@code jdbc:mariadb:sequential://primary,replica/test}.
 */
class MariaDbLaggingPromotionTest extends LaggingPromotionContract {

    @Override
    protected OwnReplicaSet start() throws Exception {
        OwnMariaDbReplicaSet set = OwnMariaDbReplicaSet.start();
        set.createApplicationUser("app", "app");
        return set;
    }

    /** Not root: root's SUPER would let the instances write to the replica before it is promoted. */
    @Override
    protected String user() {
        return "app";
    }

    @Override
    protected String password() {
        return "app";
    }
}
