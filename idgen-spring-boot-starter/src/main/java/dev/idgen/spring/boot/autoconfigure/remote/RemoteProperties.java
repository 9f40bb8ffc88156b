package dev.idgen.spring.boot.autoconfigure.remote;

import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code idgen.remote.*}: the idgen servers that generators with {@code segment.store=remote} take their blocks from,
 * shared by every such generator.
 */
@ConfigurationProperties("idgen.remote")
public class RemoteProperties {

    /**
     * The section as every generator has it: {@code idgen.remote.*}, set once for the whole application.
     */
    public static final IdgenSettings<RemoteProperties> SECTION =
            IdgenSettings.of("remote", RemoteProperties::new).sharedByEveryGenerator();

    /**
     * The servers' base URLs, for example http://idgen-1:8080, http://idgen-2:8080; blocks are asked for at
     * <url>/blocks/<name>. List every server: calls spread over them and move to the next while one fails. Each must be
     * http or https with a host and no query; https servers with a private CA need idgen.remote.ssl.bundle.
     */
    private List<URI> servers = new ArrayList<>();

    /** The bearer token sent to every server (Authorization: Bearer); unset for servers that take anonymous clients. */
    private String token;

    /** How long opening a connection to a server may take, more than 0 and at most 10m. */
    private Duration connectTimeout = Duration.ofSeconds(1);

    /** How long one server may take to answer, more than 0 and at most idgen.remote.timeout; then the next is asked. */
    private Duration requestTimeout = Duration.ofSeconds(1);

    /**
     * How long taking one block may take in all, over every server asked, more than 0 and at most 10m; then it fails
     * with a store-unavailable error naming each server and why.
     */
    private Duration timeout = Duration.ofSeconds(3);

    private final Breaker breaker = new Breaker();

    private final Ssl ssl = new Ssl();

    public List<URI> getServers() {
        return servers;
    }

    public void setServers(List<URI> servers) {
        this.servers = servers;
    }

    public String getToken() {
        return token;
    }

    public void setToken(String token) {
        this.token = token;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public Breaker getBreaker() {
        return breaker;
    }

    public Ssl getSsl() {
        return ssl;
    }

    /**
     * The breaker each server has: after failure-threshold consecutive failures the server is skipped for
     * open-duration, then one trial request decides.
     */
    public static class Breaker {

        /** How many consecutive failures (5xx, timeouts, refused connections, bad blocks) open it, from 1 to 1000. */
        private int failureThreshold = 3;

        /** How long an open breaker skips its server before one trial request, from 0 to 10m. */
        private Duration openDuration = Duration.ofSeconds(5);

        public int getFailureThreshold() {
            return failureThreshold;
        }

        public void setFailureThreshold(int failureThreshold) {
            this.failureThreshold = failureThreshold;
        }

        public Duration getOpenDuration() {
            return openDuration;
        }

        public void setOpenDuration(Duration openDuration) {
            this.openDuration = openDuration;
        }
    }

    /**
     * TLS to the servers.
     */
    public static class Ssl {

        /**
         * The SSL bundle (spring.ssl.bundle.*) whose trust store checks the https servers' certificates (a private CA)
         * and whose key store, if any, holds a client certificate. Unset: the JDK's default trust.
         */
        private String bundle;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }
    }
}
