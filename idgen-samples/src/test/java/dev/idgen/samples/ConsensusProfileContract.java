package dev.idgen.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

/**
 * What the {@code etcd} and {@code zookeeper} profiles serve: segments from the engine for {@code orders}, Snowflake
 * IDs under a worker id leased from it for {@code events}, and health that shows the cluster and the lease.
 */
abstract class ConsensusProfileContract {

    @Value("${local.server.port}")
    private int port;

    /** {@code etcd} or {@code zookeeper}. */
    protected abstract String engine();

    @Test
    void segmentsAndLeasedWorkerIdsComeFromTheEngine() throws Exception {
        HttpResponse<String> orders = SampleHttp.get(port, "/ids/orders?count=3");
        assertThat(orders.statusCode()).isEqualTo(200);
        assertThat(orders.body()).isEqualTo("[\"1\",\"2\",\"3\"]");
        HttpResponse<String> events = SampleHttp.get(port, "/ids/events");
        assertThat(events.statusCode()).isEqualTo(200);
        String id = events.body().replaceAll("[\\[\\]\"]", "");
        assertThat(SampleHttp.get(port, "/ids/events/decode/" + id).body())
                .contains("\"strategy\":\"snowflake\"")
                .contains("\"workerId\":0");
        String health = SampleHttp.get(port, "/actuator/health").body();
        assertThat(health).contains("\"" + engine() + "\":{").contains("\"leaseOwner\":");
        String endpoint = SampleHttp.get(port, "/actuator/idgen").body();
        assertThat(endpoint).contains(engine());
    }
}
