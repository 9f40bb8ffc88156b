package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The documented {@code remote} profile: the sample takes its segments in blocks from a real idgen server (the jar,
 * {@code idgen-server/target/idgen-server.jar}, as docs/server.md runs it) over MariaDB, and serves IDs from them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("remote")
class RemoteProfileTest {

    private static IdgenServerJar server;

    @Value("${local.server.port}")
    private int port;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        server = IdgenServerJar.start();
        registry.add("idgen.remote.servers", () -> "http://127.0.0.1:" + server.port());
        registry.add("idgen.remote.token", server::token);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void servesIdsFromBlocksTheServerHandedOut() throws Exception {
        HttpResponse<String> ids = SampleHttp.get(port, "/ids/orders?count=3");
        assertThat(ids.statusCode()).as(ids.body()).isEqualTo(200);
        assertThat(ids.body()).isEqualTo("[\"1\",\"2\",\"3\"]");

        // The block came from the server: its meters count it under this client and name.
        String metrics = server.management("/actuator/prometheus").body();
        assertThat(metrics)
                .containsPattern("idgen_server_block_ids_total\\{[^}]*client=\"sample\"[^}]*name=\"orders\"");

        HttpResponse<String> health = SampleHttp.get(port, "/actuator/health");
        assertThat(health.body()).contains("\"storeAvailable\":true").contains("127.0.0.1:" + server.port());
    }
}
