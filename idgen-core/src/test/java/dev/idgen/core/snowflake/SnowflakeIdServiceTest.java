package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.IdService;
import dev.idgen.core.InvalidArgumentException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SnowflakeIdServiceTest {

    private final SnowflakeIdService ids =
            SnowflakeIdService.of(SnowflakeGenerator.builder().workerId(9).build());

    @AfterEach
    void close() {
        ids.close();
    }

    @Test
    void servesEveryNameFromOneGeneratorSoIdsAreUniqueAcrossNames() {
        long a = ids.nextId("orders");
        long b = ids.nextId("payments");
        long c = ids.nextId();
        assertThat(b).isGreaterThan(a);
        assertThat(c).isGreaterThan(b);
        assertThat(ids.strategy()).isEqualTo("snowflake");
        assertThat(ids.decode(c).workerId()).isEqualTo(9);
        assertThat(ids.generatedCount()).isEqualTo(3);
    }

    @Test
    void nextIdsReturnsCountIncreasingIds() {
        long[] batch = ids.nextIds("orders", IdService.MAX_BATCH_SIZE);
        assertThat(batch).hasSize(IdService.MAX_BATCH_SIZE).isSorted().doesNotHaveDuplicates();
        assertThat(ids.generatedCount()).isEqualTo(IdService.MAX_BATCH_SIZE);
    }

    @Test
    void rejectsBadArgumentsBeforeTakingAnyId() {
        assertThatThrownBy(() -> ids.nextId("no spaces"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("name must be");
        assertThatThrownBy(() -> ids.nextIds("orders", 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("count must be between 1 and 10000");
        assertThatThrownBy(() -> ids.nextIds("", 1)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> ids.decode(0)).isInstanceOf(InvalidArgumentException.class);
        assertThat(ids.generatedCount()).isZero();
    }
}
