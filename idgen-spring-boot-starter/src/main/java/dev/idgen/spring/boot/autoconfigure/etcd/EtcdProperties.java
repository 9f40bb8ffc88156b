package dev.idgen.spring.boot.autoconfigure.etcd;

import dev.idgen.spring.boot.autoconfigure.core.IdgenSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code idgen.etcd.*}: the etcd cluster idgen keeps segments, Redis windows or worker id leases in, shared by every
 * generator that uses it.
 */
@ConfigurationProperties("idgen.etcd")
public class EtcdProperties {

    /**
     * The section as every generator has it: {@code idgen.etcd.*}, set once for the whole application.
     */
    public static final IdgenSettings<EtcdProperties> SECTION =
            IdgenSettings.of("etcd", EtcdProperties::new).sharedByEveryGenerator();

    /**
     * The cluster's client URLs, for example http://etcd-1:2379, http://etcd-2:2379, http://etcd-3:2379. List every
     * member: the client spreads over them and moves to another when one fails. https URLs need idgen.etcd.ssl.bundle.
     */
    private List<String> endpoints = new ArrayList<>();

    /**
     * The prefix of every key idgen writes: segments under <namespace>segments/, worker ids under
     * <namespace>workers/. 1 to 128 characters, no whitespace.
     */
    private String namespace = "idgen/";

    /** The user, when the cluster has authentication enabled. */
    private String username;

    /** The user's password. */
    private String password;

    /**
     * How long one etcd operation may take, from 100ms to 1m: a call waits no longer while the cluster has no quorum,
     * and fails with a store-unavailable error (HTTP 503 from a web controller).
     */
    private Duration timeout = Duration.ofSeconds(3);

    /** Where a name's segments start when it is new: its first ID is initial-value + 1. At least 0. */
    private long initialValue = 0;

    private final Ssl ssl = new Ssl();

    public List<String> getEndpoints() {
        return endpoints;
    }

    public void setEndpoints(List<String> endpoints) {
        this.endpoints = endpoints;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
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

    public Ssl getSsl() {
        return ssl;
    }

    /**
     * TLS to etcd.
     */
    public static class Ssl {

        /**
         * The SSL bundle (spring.ssl.bundle.*) whose trust store checks the members' certificates and whose key
         * store, if any, holds the client certificate. Setting it turns TLS on.
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
