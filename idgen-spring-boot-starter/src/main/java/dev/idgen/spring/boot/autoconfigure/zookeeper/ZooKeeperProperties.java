package dev.idgen.spring.boot.autoconfigure.zookeeper;

import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code idgen.zookeeper.*}: the ZooKeeper ensemble idgen keeps segments, Redis windows or worker id leases in, shared
 * by every generator that uses it.
 */
@ConfigurationProperties("idgen.zookeeper")
public class ZooKeeperProperties {

    /**
     * The section as every generator has it: {@code idgen.zookeeper.*}, set once for the whole application.
     */
    public static final IdgenSettings<ZooKeeperProperties> SECTION =
            IdgenSettings.of("zookeeper", ZooKeeperProperties::new).sharedByEveryGenerator();

    /** The ensemble, as host:port pairs separated by commas, for example zk-1:2181,zk-2:2181,zk-3:2181. */
    private String connectString;

    /**
     * The znode idgen keeps everything under, without slashes: segments under /<namespace>/segments, worker ids under
     * /<namespace>/workers. 1 to 128 of A-Z a-z 0-9 . _ -.
     */
    private String namespace = "idgen";

    /**
     * The session timeout idgen asks for, from 1s to 10m (the servers bound it to between 2 and 20 tick times). An
     * instance that stops answering loses its session after this long.
     */
    private Duration sessionTimeout = Duration.ofSeconds(15);

    /** How long the client waits to connect to a server before it tries the next, from 100ms to 1m. */
    private Duration connectionTimeout = Duration.ofSeconds(5);

    /**
     * How long one ZooKeeper operation may take, retries included, from 100ms to 1m: a call waits no longer while the
     * ensemble has no quorum, and fails with a store-unavailable error (HTTP 503 from a web controller).
     */
    private Duration timeout = Duration.ofSeconds(3);

    /** Where a name's segments start when it is new: its first ID is initial-value + 1. At least 0. */
    private long initialValue = 0;

    public String getConnectString() {
        return connectString;
    }

    public void setConnectString(String connectString) {
        this.connectString = connectString;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public Duration getSessionTimeout() {
        return sessionTimeout;
    }

    public void setSessionTimeout(Duration sessionTimeout) {
        this.sessionTimeout = sessionTimeout;
    }

    public Duration getConnectionTimeout() {
        return connectionTimeout;
    }

    public void setConnectionTimeout(Duration connectionTimeout) {
        this.connectionTimeout = connectionTimeout;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public long getInitialValue() {
        return initialValue;
    }

    public void setInitialValue(long initialValue) {
        this.initialValue = initialValue;
    }
}
