package dev.idgen.spring.boot.contract;

import java.util.List;
import java.util.UUID;

/**
 * The contract on {@code idgen.strategy=segment}, on an embedded H2 of the test's own.
 */
class SegmentSpringContractTest extends SpringIdServiceContract {

    private final String database =
            "contract" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);

    @Override
    protected List<String> properties() {
        return List.of(
                "idgen.strategy=segment",
                "spring.datasource.url=jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
                "idgen.jdbc.initialize-schema=always");
    }
}
