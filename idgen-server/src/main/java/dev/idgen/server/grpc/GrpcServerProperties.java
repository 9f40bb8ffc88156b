package dev.idgen.server.grpc;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The server's gRPC face: {@code idgen.server.grpc.*}. */
@ConfigurationProperties("idgen.server.grpc")
public class GrpcServerProperties {

    /** Whether the server answers gRPC (service idgen.v1.Idgen) beside HTTP. */
    private boolean enabled = true;

    /** The port gRPC listens on, 1 to 65535; 0 picks a free one (tests). */
    private int port = 9090;

    /** The address gRPC binds to; empty binds where HTTP does (server.address), and without that every interface. */
    private String address = "";

    /**
     * The SSL bundle (spring.ssl.bundle.*) whose key serves gRPC over TLS; empty serves whatever TLS HTTP serves
     * (server.ssl.bundle, server.ssl.key-store or server.ssl.certificate), and plain text only when HTTP does. With a
     * trust store in the bundle, clients must present a certificate it trusts (mutual TLS).
     */
    private String sslBundle = "";

    /** How long a shutdown lets calls in flight finish before it cancels them. */
    private Duration shutdownGracePeriod = Duration.ofSeconds(10);

    /**
     * The threads that run gRPC calls, 4 to 4096. Calls waiting for a store hold at most idgen.server.store-threads plus
     * idgen.server.store-queue of them, so keep this above that sum: the rest answer names served from memory.
     */
    private int threads = 128;

    /** The calls one connection may have open at once, 1 to 10000 (HTTP/2's MAX_CONCURRENT_STREAMS). */
    private int maxCallsPerConnection = 100;

    public int getThreads() {
        return threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    public int getMaxCallsPerConnection() {
        return maxCallsPerConnection;
    }

    public void setMaxCallsPerConnection(int maxCallsPerConnection) {
        this.maxCallsPerConnection = maxCallsPerConnection;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getSslBundle() {
        return sslBundle;
    }

    public void setSslBundle(String sslBundle) {
        this.sslBundle = sslBundle;
    }

    public Duration getShutdownGracePeriod() {
        return shutdownGracePeriod;
    }

    public void setShutdownGracePeriod(Duration shutdownGracePeriod) {
        this.shutdownGracePeriod = shutdownGracePeriod;
    }
}
