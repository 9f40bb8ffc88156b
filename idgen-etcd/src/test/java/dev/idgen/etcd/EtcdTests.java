package dev.idgen.etcd;

import dev.idgen.test.services.OwnEtcdCluster;
import io.etcd.jetcd.Client;
import java.util.UUID;

/** What the etcd tests share: clients on every member of a cluster, and namespaces of their own. */
final class EtcdTests {

    private EtcdTests() {}

    /**
     * @return a client on all members of {@code cluster}, with jetcd's defaults; {@code -Didgen.etcd.waitForReady=false}
     *         runs the tests with clients that fail a call at once when no member is reachable
     */
    static Client client(OwnEtcdCluster cluster) {
        return Client.builder()
                .endpoints(cluster.clientUrls().toArray(new String[0]))
                .waitForReady(Boolean.parseBoolean(System.getProperty("idgen.etcd.waitForReady", "true")))
                .build();
    }

    /** @return a namespace no other test uses, e.g. {@code idgen-test/1a2b3c4d/} */
    static String namespace() {
        return "idgen-test/" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }
}
