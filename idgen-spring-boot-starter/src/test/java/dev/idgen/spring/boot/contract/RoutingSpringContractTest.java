package dev.idgen.spring.boot.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.IdService;
import dev.idgen.core.RoutingIdService;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The contract on a service with named generators: the contract's names reach the default generator (segments on an
 * embedded H2) through the routing service, beside a named Snowflake generator.
 */
class RoutingSpringContractTest extends SpringIdServiceContract {

    private final String database =
            "routing" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    @Override
    protected List<String> properties() {
        return List.of(
                "idgen.strategy=segment",
                "spring.datasource.url=jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
                "idgen.jdbc.initialize-schema=always",
                "idgen.generators.flake.strategy=snowflake");
    }

    @Test
    void theServiceRoutes() throws Exception {
        IdService service = service();
        try {
            assertThat(service.decode("flake", service.nextId("flake")).toMap())
                    .containsEntry("strategy", "snowflake")
                    .containsEntry("generator", "flake");
            assertThat(service.sequence("orders").generator()).isEqualTo(RoutingIdService.DEFAULT_GENERATOR);
        } finally {
            ((AutoCloseable) service).close();
        }
    }
}
