package dev.idgen.samples;

import dev.idgen.test.services.OwnEtcdCluster;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented {@code etcd} profile on a real three-member etcd cluster, over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("etcd")
class EtcdProfileTest extends ConsensusProfileContract {

    private static OwnEtcdCluster etcd;

    @DynamicPropertySource
    static void etcd(DynamicPropertyRegistry registry) throws Exception {
        etcd = OwnEtcdCluster.start(3);
        registry.add("idgen.etcd.endpoints", etcd::endpoints);
        registry.add(
                "idgen.etcd.namespace",
                () -> "sample" + UUID.randomUUID().toString().substring(0, 8) + "/");
    }

    @AfterAll
    static void stop() throws Exception {
        etcd.close();
    }

    @Override
    protected String engine() {
        return "etcd";
    }
}
