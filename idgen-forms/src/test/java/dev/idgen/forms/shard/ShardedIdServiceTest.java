package dev.idgen.forms.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.ForwardingIdService;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShardedIdServiceTest {

    private final SnowflakeGenerator generator = SnowflakeGenerator.builder()
            .layout(ShardedSnowflake.defaultLayout(1024))
            .workerId(3)
            .build();

    private final SnowflakeIdService snowflake = SnowflakeIdService.of(generator);

    private final ShardedSnowflake sharded =
            ShardedSnowflake.builder().generator(generator).logicalShards(1024).build();

    private final ShardedIdService service = new ShardedIdService(snowflake, sharded);

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void forwardsToTheSnowflakeServiceAndKeepsItsStrategy() {
        assertThat(service.delegate()).isSameAs(snowflake);
        assertThat(ForwardingIdService.innermost(service)).isSameAs(snowflake);
        assertThat(service.strategy()).isEqualTo(snowflake.strategy());
        assertThat(service.sharded()).isSameAs(sharded);
    }

    @Test
    void refusesIdsWithoutAShardKeyNamingTheWayToGetThem() {
        assertThatThrownBy(() -> service.nextId("order"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("generator 'order' is shard-aware")
                .hasMessageContaining("IdForms.form(\"order\").next(count, shardKey)");
        assertThatThrownBy(() -> service.nextIds("order", 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("generator 'order' is shard-aware");
    }

    @Test
    void refusesAsyncCallsAtOnceWithoutTheExecutor() {
        java.util.concurrent.Executor refusing = command -> {
            throw new AssertionError("handed to the executor");
        };
        assertThatThrownBy(() -> service.nextIdAsync("order", refusing))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("generator 'order' is shard-aware");
        assertThatThrownBy(() -> service.nextIdsAsync("order", 2, refusing))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("generator 'order' is shard-aware");
    }

    @Test
    void decodesTheShardWithTheSnowflakeParts() {
        long id = sharded.nextId("customer-42");
        Map<String, Object> parts = service.decode(id).toMap();
        assertThat(parts).isEqualTo(sharded.decode(id));
        assertThat(service.decode(id).id()).isEqualTo(id);
        assertThat(service.decode(id).strategy()).isEqualTo(snowflake.strategy());
        assertThat(parts).containsEntry("shard", sharded.logicalShardOf("customer-42"));
    }

    @Test
    void closingItClosesTheSnowflakeGenerator() {
        service.close();
        assertThat(generator.isClosed()).isTrue();
    }
}
