package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import cn.hutool.core.lang.Snowflake;
import com.baomidou.mybatisplus.core.toolkit.Sequence;
import com.github.yitter.contract.IdGeneratorOptions;
import com.github.yitter.idgen.DefaultIdGenerator;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakePreset;
import java.time.Instant;
import java.util.Arrays;
import java.util.function.LongSupplier;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.junit.jupiter.api.Test;

/**
 * IDs made by the peer libraries themselves, from Maven Central, read back through their presets: the worker id the
 * library was given, a sequence within the layout, and a time within the test's clock window. In this module's tests,
 * not idgen-core's: the core's tests depend on nothing but JUnit and AssertJ.
 */
class PeerLibrariesTest {

    /** Enough IDs to run past a millisecond's first sequence numbers, and over several milliseconds. */
    private static final int IDS = 5_000;

    @Test
    void hutoolSnowflakeIdsDecodeUnderTheHutoolPreset() {
        // Hutool's 5-bit data centre is the top half of the 10 worker bits, its 5-bit worker the bottom half.
        Snowflake snowflake = new Snowflake(17, 3);
        assertReads(SnowflakePreset.HUTOOL, snowflake::nextId, 3 * 32 + 17, 0);
    }

    @Test
    void mybatisPlusSequenceIdsDecodeUnderTheMybatisPlusPreset() {
        // Given both ids: the no-argument Sequence picks them from the MAC address and the pid.
        Sequence sequence = new Sequence(17, 3);
        // Its clock is SystemClock, a cached time a scheduled thread updates every millisecond: it can lag the JVM's
        // clock by a scheduling delay.
        assertReads(SnowflakePreset.MYBATIS_PLUS, sequence::nextId, 3 * 32 + 17, 100);
    }

    @Test
    void cosidMillisecondSnowflakeIdsDecodeUnderTheCosidPreset() {
        MillisecondSnowflakeId cosid = new MillisecondSnowflakeId(777);
        assertReads(SnowflakePreset.COSID, cosid::generate, 777, 0);
    }

    @Test
    void yitterIdsDecodeUnderTheYitterPreset() {
        IdGeneratorOptions options = new IdGeneratorOptions((short) 42);
        DefaultIdGenerator yitter = new DefaultIdGenerator(options);
        assertReads(SnowflakePreset.YITTER, yitter::newLong, 42, 0);
    }

    private static void assertReads(SnowflakePreset preset, LongSupplier library, long workerId, long clockLagMillis) {
        long before = System.currentTimeMillis();
        long[] ids = new long[IDS];
        for (int i = 0; i < IDS; i++) {
            ids[i] = library.getAsLong();
        }
        long after = System.currentTimeMillis();
        // yitter borrows up to 2,000 milliseconds ahead when a millisecond's sequences run out.
        Instant earliest = Instant.ofEpochMilli(before - clockLagMillis - preset.tickMillis() + 1);
        Instant latest = Instant.ofEpochMilli(after + preset.aheadTicks() * preset.tickMillis());
        long maxSequence = (1L << preset.sequenceBits()) - 1;
        for (long id : ids) {
            SnowflakeDecodedId decoded = preset.decode(id);
            assertThat(decoded.workerId()).as("worker id of %d", id).isEqualTo(workerId);
            assertThat(decoded.sequence()).as("sequence of %d", id).isBetween(0L, maxSequence);
            assertThat(decoded.timestamp()).as("time of %d", id).isBetween(earliest, latest);
            assertThat(id)
                    .as("bound after the run")
                    .isLessThanOrEqualTo(preset.maxIdIssuedBy(Instant.ofEpochMilli(after)));
        }
        // Time-ordered within one worker, and more than one sequence number used.
        assertThat(ids).isSorted();
        assertThat(Arrays.stream(ids)
                        .map(id -> preset.decode(id).sequence())
                        .distinct()
                        .count())
                .isGreaterThan(1);
    }
}
