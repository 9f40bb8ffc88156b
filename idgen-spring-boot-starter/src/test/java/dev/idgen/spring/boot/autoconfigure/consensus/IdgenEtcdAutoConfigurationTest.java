package dev.idgen.spring.boot.autoconfigure.consensus;

import dev.idgen.test.services.OwnEtcdCluster;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class IdgenEtcdAutoConfigurationTest extends ConsensusAutoConfigurationContract {

    private static OwnEtcdCluster etcd;

    @BeforeAll
    static void startCluster() throws Exception {
        etcd = OwnEtcdCluster.start(3);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        etcd.close();
    }

    @Override
    protected String engine() {
        return "etcd";
    }

    @Override
    protected List<String> connection(String namespace) {
        return List.of(
                "idgen.etcd.endpoints=" + etcd.endpoints(),
                "idgen.etcd.namespace=" + namespace + "/",
                "idgen.etcd.timeout=3s");
    }

    @Override
    protected String connectionProperty() {
        return "idgen.etcd.endpoints";
    }

    @Override
    protected Class<?> clientClass() {
        return Client.class;
    }

    @Override
    protected void loseQuorum() throws Exception {
        etcd.kill(1);
        etcd.kill(2);
    }

    @Override
    protected void restoreQuorum() throws Exception {
        etcd.restart(1);
        etcd.restart(2);
        etcd.awaitLeader(Duration.ofSeconds(60));
    }
}
