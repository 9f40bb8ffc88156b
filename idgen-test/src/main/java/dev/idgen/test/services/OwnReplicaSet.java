package dev.idgen.test.services;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * A primary database and one replica of the test's own, for failover tests that do not care which database it is.
 */
public interface OwnReplicaSet extends AutoCloseable {

    /** @return a JDBC URL naming both servers, that reaches whichever is the writable primary */
    String failoverUrl();

    Connection connectPrimary() throws SQLException;

    Connection connectReplica() throws SQLException;

    /** Waits until the replica holds everything the primary wrote. */
    void awaitReplicaCaughtUp(Duration deadline) throws Exception;

    /** From now on the replica receives nothing more from the primary: it lags. */
    void cutOffReplica() throws Exception;

    /** {@code kill -9} of the primary; returns once it is gone. */
    void killPrimary() throws Exception;

    /**
     * Waits until the replica has applied every write it received before the primary went away, as a failover tool
     * does before it promotes. A replica that was cut off applies nothing more and returns at once.
     */
    void awaitReceivedWritesApplied(Duration deadline) throws Exception;

    /** Makes the replica a writable primary, after it applied what it received; returns once it is. */
    void promoteReplica() throws Exception;

    /** Kills both servers and deletes their data. */
    @Override
    void close() throws IOException;
}
