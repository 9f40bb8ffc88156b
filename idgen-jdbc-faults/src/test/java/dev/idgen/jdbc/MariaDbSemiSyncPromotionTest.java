package dev.idgen.jdbc;

import dev.idgen.test.services.OwnMariaDbReplicaSet;
import dev.idgen.test.services.OwnReplicaSet;
import java.time.Duration;

/**
 * The same failover on MariaDB with semi-synchronous replication ({@code AFTER_SYNC}): while it is active the replica
 * holds every write the primary acknowledged, so a failover loses nothing (the report says so, and the replica's rows
 * are checked to hold everything handed out); the lease case cuts the replica off, the primary falls back to
 * asynchronous after its 1 s timeout, and the fence still keeps the lost lease from a second instance.
 */
class MariaDbSemiSyncPromotionTest extends LaggingPromotionContract {

    private OwnMariaDbReplicaSet set;

    @Override
    protected OwnReplicaSet start() throws Exception {
        set = OwnMariaDbReplicaSet.startSemiSync(Duration.ofSeconds(1));
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

    @Override
    protected boolean lossless() {
        return true;
    }

    /** No commit went through without the replica's acknowledgement (none waited out the timeout). */
    @Override
    protected boolean acknowledgedEverything() throws Exception {
        return "0".equals(set.primaryStatus("Rpl_semi_sync_master_no_tx"))
                && "ON".equalsIgnoreCase(set.primaryStatus("Rpl_semi_sync_master_status"));
    }
}
