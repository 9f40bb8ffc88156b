package dev.idgen.etcd;

import dev.idgen.test.services.OwnEtcdCluster;
import io.etcd.jetcd.Client;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The etcd contract tests' set-up, once: a cluster of the test class's own and one client on all its members, started
 * before its first test and closed after its last. Register it as a static field:
 * <pre>
 * &#64;RegisterExtension
 * static final EtcdCluster etcd = new EtcdCluster(3);
 * </pre>
 */
final class EtcdCluster implements BeforeAllCallback, AfterAllCallback {

    private final int members;

    private OwnEtcdCluster cluster;

    private Client client;

    /** @param members how many members the cluster has */
    EtcdCluster(int members) {
        this.members = members;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster = OwnEtcdCluster.start(members);
        client = EtcdTests.client(cluster);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** @return the cluster, to stop or restart its members */
    OwnEtcdCluster cluster() {
        return cluster;
    }

    /** @return the client on all members */
    Client client() {
        return client;
    }
}
