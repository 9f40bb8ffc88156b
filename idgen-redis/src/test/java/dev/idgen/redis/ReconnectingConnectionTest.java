package dev.idgen.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/**
 * Which failures make {@link ReconnectingConnection} drop its connection: those saying it leads to an old master or
 * nowhere, and not a script's own error or a slow answer.
 */
class ReconnectingConnectionTest {

    @Test
    void failuresThatSayTheConnectionLeadsToAnOldMasterDropIt() {
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new RedisConnectionException("refused")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(
                        new RedisCommandExecutionException("READONLY You can't write against a read only replica.")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(
                        new RedisCommandExecutionException("MOVED 3999 127.0.0.1:6381")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(
                        new RedisCommandExecutionException("CLUSTERDOWN The cluster is down")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new IllegalStateException("Connection is closed")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new IllegalStateException("Channel closed")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new IllegalStateException("Closed")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new IllegalStateException("not connected")))
                .isTrue();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new IllegalStateException("Connection reset by peer")))
                .isTrue();
    }

    @Test
    void otherFailuresKeepTheConnection() {
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(
                        new RedisCommandExecutionException("ERR Error running script: idgen needs INFO replication")))
                .isFalse();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(
                        new RedisCommandExecutionException("NOSCRIPT No matching script.")))
                .isFalse();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new RedisCommandTimeoutException("Command timed out")))
                .isFalse();
        assertThat(ReconnectingConnection.pointsAtAnOldMaster(new CancellationException()))
                .as("no message")
                .isFalse();
    }
}
