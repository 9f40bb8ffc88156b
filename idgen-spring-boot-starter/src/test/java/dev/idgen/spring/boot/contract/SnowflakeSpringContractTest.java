package dev.idgen.spring.boot.contract;

import java.util.List;

/**
 * The contract on {@code idgen.strategy=snowflake}, the default, with a static worker id.
 */
class SnowflakeSpringContractTest extends SpringIdServiceContract {

    @Override
    protected List<String> properties() {
        return List.of("idgen.snowflake.worker-id=3");
    }

    @Override
    protected boolean namesAreIndependent() {
        // One sequence serves every name: drawing from one name moves the others' IDs.
        return false;
    }
}
