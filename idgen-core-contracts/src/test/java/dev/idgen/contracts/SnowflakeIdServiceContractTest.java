package dev.idgen.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdService;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.test.IdServiceContract;
import java.time.Instant;

/** The {@link IdService} contract for Snowflake, on a static worker id. */
class SnowflakeIdServiceContractTest extends IdServiceContract {

    private static final long WORKER_ID = 7;

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.standard();

    private final Instant created = Instant.now();

    @Override
    protected IdService service() {
        return SnowflakeIdService.of(
                SnowflakeGenerator.builder().layout(LAYOUT).workerId(WORKER_ID).build());
    }

    @Override
    protected boolean idsIncreaseAcrossThreads() {
        return true;
    }

    @Override
    protected boolean namesAreIndependent() {
        return false;
    }

    /** The parts put back together by the layout give the ID, and say when and by whom it was issued. */
    @Override
    protected void checkParts(long id, DecodedId parts) {
        assertThat(parts).isInstanceOf(SnowflakeDecodedId.class);
        SnowflakeDecodedId snowflake = (SnowflakeDecodedId) parts;
        assertThat(snowflake.workerId()).isEqualTo(WORKER_ID);
        // No borrowing: a tick between the generator's start and now.
        assertThat(snowflake.timestamp()).isBetween(created, Instant.now());
        long tick = (snowflake.timestamp().toEpochMilli() - LAYOUT.epoch().toEpochMilli())
                / LAYOUT.tickUnit().millis();
        long reassembled = tick << (LAYOUT.workerBits() + LAYOUT.sequenceBits())
                | snowflake.workerId() << LAYOUT.sequenceBits()
                | snowflake.sequence();
        assertThat(reassembled).isEqualTo(id);
    }
}
