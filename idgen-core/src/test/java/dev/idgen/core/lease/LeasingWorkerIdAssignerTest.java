package dev.idgen.core.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.LeaseLostException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.WorkerIdsExhaustedException;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeLayout;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LeasingWorkerIdAssignerTest {

    private static final SnowflakeLayout TWO_WORKERS = SnowflakeLayout.standard().toBuilder().workerBits(1)
            .sequenceBits(12).timestampBits(41).build();

    private final ManualTimeSource clock = new ManualTimeSource(1_800_000_000_000L);

    private final InMemoryWorkerIdLeaseStore store = new InMemoryWorkerIdLeaseStore(clock);

    private final java.util.List<SnowflakeGenerator> generators = new java.util.ArrayList<>();

    @AfterEach
    void closeGenerators() {
        generators.forEach(SnowflakeGenerator::close);
    }

    /** 30 s leases, 3 s margin; the heartbeat's own schedule (real time) is far off, tests renew by hand. */
    private LeasingWorkerIdAssigner assigner(String instanceId) {
        return LeasingWorkerIdAssigner.builder(store).instanceId(instanceId).ttl(Duration.ofSeconds(30))
                .renewInterval(Duration.ofSeconds(13)).safetyMargin(Duration.ofSeconds(3))
                .reuseDelay(Duration.ofSeconds(5)).acquireTimeout(Duration.ZERO).timeSource(clock).build();
    }

    private SnowflakeGenerator generator(String instanceId) {
        SnowflakeGenerator generator = SnowflakeGenerator.builder().layout(TWO_WORKERS).timeSource(clock)
                .workerIdAssigner(assigner(instanceId)).build();
        generators.add(generator);
        return generator;
    }

    private static RenewingWorkerIdLease lease(SnowflakeGenerator generator) {
        return (RenewingWorkerIdLease) generator.lease();
    }

    @Test
    void theGeneratorStopsBeforeTheLeaseCouldExpireAndResumesOnRenewal() {
        SnowflakeGenerator generator = generator("a");
        clock.advanceMillis(1);
        assertThat(generator.nextId()).isPositive();
        clock.advanceMillis(26_998);
        assertThat(generator.nextId()).isPositive();
        clock.advanceMillis(2);
        assertThatThrownBy(generator::nextId).isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("worker id 0").hasMessageContaining("'a'");
        assertThat(lease(generator).isValid()).isFalse();
        assertThat(lease(generator).renewNow()).as("expired in the store, but nobody took it").isTrue();
        clock.advanceMillis(1);
        assertThat(generator.nextId()).isPositive();
        assertThat(lease(generator).renewals()).isEqualTo(1);
    }

    @Test
    void anUnreachableStoreLeavesTheDeadlineWhereItWas() {
        SnowflakeGenerator generator = generator("a");
        store.setAvailable(false);
        clock.advanceMillis(10_000);
        assertThat(lease(generator).renewNow()).isFalse();
        assertThat(lease(generator).renewalFailures()).isEqualTo(1);
        assertThat(generator.nextId()).isPositive();
        assertThat(lease(generator).remaining()).isEqualTo(Duration.ofSeconds(17));
        clock.advanceMillis(17_000);
        assertThatThrownBy(generator::nextId).isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("the last renewal failed");
        store.setAvailable(true);
        assertThat(lease(generator).renewNow()).isTrue();
        clock.advanceMillis(1);
        assertThat(generator.nextId()).isPositive();
    }

    @Test
    void aLeaseTakenOverByAnotherInstanceStopsTheGeneratorAtOnce() {
        SnowflakeGenerator first = generator("first");
        clock.advanceMillis(30_000 + 5_000);
        SnowflakeGenerator second = generator("second");
        assertThat(second.workerId()).isEqualTo(first.workerId());
        assertThat(lease(first).renewNow()).isFalse();
        assertThatThrownBy(first::nextId).isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("another instance holds worker id");
        clock.advanceMillis(1);
        assertThat(second.nextId()).isPositive();
    }

    @Test
    void whenEveryWorkerIdIsTakenStartupFailsSayingSo() {
        generator("a");
        generator("b");
        assertThatThrownBy(() -> generator("c")).isInstanceOf(WorkerIdsExhaustedException.class)
                .hasMessageContaining("No worker id from 0 to 1 is free for 'c'")
                .hasMessageContaining("more worker bits");
    }

    @Test
    void theNextHolderStartsAfterTheLastTimestampItsPredecessorUsed() {
        SnowflakeGenerator first = generator("first");
        clock.advanceMillis(5);
        long lastId = first.nextId();
        first.close();
        generators.remove(first);
        clock.set(clock.currentTimeMillis() - 2_000);
        clock.advanceMillis(5_000 + 2_000 + 1);
        SnowflakeGenerator second = generator("second");
        assertThat(second.workerId()).isEqualTo(0);
        assertThat(second.lease().lastUsedTimestamp().orElseThrow())
                .isGreaterThanOrEqualTo(first.decode(lastId).timestamp().toEpochMilli());
        clock.advanceMillis(1);
        assertThat(second.nextId()).isGreaterThan(lastId);
    }

    @Test
    void aStoreThatLostItsDataLetsHoldersBackButNewcomersWait() {
        SnowflakeGenerator holder = generator("holder");
        store.loseData();
        assertThat(lease(holder).renewNow()).isTrue();
        assertThatThrownBy(() -> generator("newcomer")).isInstanceOf(WorkerIdsExhaustedException.class)
                .hasMessageContaining("lost its data");
        clock.advanceMillis(35_000);
        assertThat(lease(holder).renewNow()).isTrue();
        assertThat(generator("newcomer").workerId()).isNotEqualTo(holder.workerId());
    }

    @Test
    void badSettingsNameTheArgument() {
        assertThatThrownBy(() -> LeasingWorkerIdAssigner.builder(store).ttl(Duration.ofMillis(10)).build())
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("ttl must be between 1s and 1d");
        assertThatThrownBy(() -> LeasingWorkerIdAssigner.builder(store).ttl(Duration.ofSeconds(30))
                .renewInterval(Duration.ofSeconds(20)).build()).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("renewInterval must be");
        assertThatThrownBy(() -> LeasingWorkerIdAssigner.builder(store).reuseDelay(Duration.ofMillis(10)).build())
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("reuseDelay");
    }

    @Test
    void theDefaultInstanceIdIsUniquePerProcessStart() {
        assertThat(LeasingWorkerIdAssigner.defaultInstanceId()).isNotEqualTo(LeasingWorkerIdAssigner.defaultInstanceId())
                .contains("/" + ProcessHandle.current().pid() + "/");
    }
}
