package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The presets against the layouts their libraries publish. The vectors are built from each library's own formula (not
 * from the preset's code), so a preset that puts a part in the wrong place or counts from the wrong epoch fails here.
 */
class SnowflakePresetTest {

    @Test
    void parseReadsNamesAsPeopleWriteThem() {
        assertThat(SnowflakePreset.parse("mybatis-plus")).isEqualTo(SnowflakePreset.MYBATIS_PLUS);
        assertThat(SnowflakePreset.parse("MYBATIS_PLUS")).isEqualTo(SnowflakePreset.MYBATIS_PLUS);
        assertThat(SnowflakePreset.parse(" Hutool ")).isEqualTo(SnowflakePreset.HUTOOL);
        assertThat(SnowflakePreset.parse("uid-generator")).isEqualTo(SnowflakePreset.UID_GENERATOR);
        for (SnowflakePreset preset : SnowflakePreset.values()) {
            assertThat(SnowflakePreset.parse(preset.key())).isEqualTo(preset);
        }
    }

    @Test
    void parseOfAnUnknownNameNamesPresetAndListsTheKnownOnes() {
        for (String bad : new String[] {"snowflake", "", "mybatis plus"}) {
            assertThatThrownBy(() -> SnowflakePreset.parse(bad))
                    .isInstanceOf(InvalidArgumentException.class)
                    .satisfies(e -> assertThat(((InvalidArgumentException) e).argument())
                            .isEqualTo("preset"))
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining(
                            "twitter, hutool, mybatis-plus, leaf, cosid, uid-generator, sonyflake, sonyflake-v2, yitter");
        }
        assertThatThrownBy(() -> SnowflakePreset.parse(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void sonyflakeIdIsElapsedTenMillisecondsThenSequenceThenMachine() {
        // sonyflake.go: elapsedTime<<(BitLenSequence+BitLenMachineID) | sequence<<BitLenMachineID | machineID.
        long elapsed = 123_456_789L;
        long sequence = 7;
        long machine = 0xBEEF;
        long id = elapsed << (8 + 16) | sequence << 16 | machine;
        assertThat(id).isEqualTo(2_071_261_216_227_055L);

        SnowflakeDecodedId decoded = SnowflakePreset.SONYFLAKE.decode(id);

        assertThat(decoded.timestamp()).isEqualTo(Instant.parse("2014-09-15T06:56:07.890Z"));
        assertThat(decoded.workerId()).isEqualTo(machine);
        assertThat(decoded.sequence()).isEqualTo(sequence);
    }

    @Test
    void sonyflakeV2CountsFrom2025() {
        // v2's default StartTime is 2025-01-01 UTC; the bits and the 10 ms unit are v1's.
        long elapsed = 123_456_789; // 10 ms units
        long id = elapsed << (8 + 16) | 3L << 16 | 42;

        SnowflakeDecodedId decoded = SnowflakePreset.SONYFLAKE_V2.decode(id);

        assertThat(decoded.timestamp()).isEqualTo(Instant.parse("2025-01-15T06:56:07.890Z"));
        assertThat(decoded.workerId()).isEqualTo(42);
        assertThat(decoded.sequence()).isEqualTo(3);
        assertThat(SnowflakePreset.SONYFLAKE_V2.layout()).isEmpty();
    }

    @Test
    void uidGeneratorIdIsDeltaSecondsThenWorkerThenSequence() {
        // BitsAllocator.allocate: deltaSeconds<<timestampShift | workerId<<workerIdShift | sequence, with 22 worker
        // and 13 sequence bits; the epoch is 2016-05-20 at midnight in UTC+8.
        long deltaSeconds = 100_000_000L;
        long worker = 1_234_567;
        long sequence = 4321;
        long id = deltaSeconds << (22 + 13) | worker << 13 | sequence;
        assertThat(id).isEqualTo(3_435_973_846_913_577_185L);

        SnowflakeDecodedId decoded = SnowflakePreset.UID_GENERATOR.decode(id);

        assertThat(decoded.timestamp()).isEqualTo(Instant.parse("2019-07-21T01:46:40Z"));
        assertThat(decoded.workerId()).isEqualTo(worker);
        assertThat(decoded.sequence()).isEqualTo(sequence);
    }

    @Test
    void twitterIdIsMillisecondsThenDatacentreAndWorkerThenSequence() {
        // Hutool and MyBatis-Plus: (ms - 1288834974657)<<22 | datacenterId<<17 | workerId<<12 | sequence.
        long millis = Instant.parse("2026-01-02T03:04:05.678Z").toEpochMilli();
        long id = (millis - 1288834974657L) << 22 | 3L << 17 | 17L << 12 | 4095;

        SnowflakeDecodedId decoded = SnowflakePreset.HUTOOL.decode(id);

        assertThat(decoded.timestamp()).isEqualTo(Instant.ofEpochMilli(millis));
        assertThat(decoded.workerId()).isEqualTo(3 * 32 + 17);
        assertThat(decoded.sequence()).isEqualTo(4095);
    }

    @Test
    void decodeOfANegativeIdNamesTheId() {
        assertThatThrownBy(() -> SnowflakePreset.TWITTER.decode(-1))
                .isInstanceOf(InvalidArgumentException.class)
                .satisfies(e ->
                        assertThat(((InvalidArgumentException) e).argument()).isEqualTo("id"));
    }

    @Test
    void exhaustedAtIsEpochPlusAllTicks() {
        assertThat(SnowflakePreset.UID_GENERATOR.exhaustedAt()).isEqualTo(Instant.parse("2024-11-20T13:24:16Z"));
        assertThat(SnowflakePreset.TWITTER.exhaustedAt()).isEqualTo(Instant.parse("2080-07-10T17:30:30.209Z"));
        assertThat(SnowflakePreset.COSID.exhaustedAt()).isEqualTo(Instant.parse("2089-08-30T07:47:35.552Z"));
        assertThat(SnowflakePreset.SONYFLAKE.exhaustedAt()).isEqualTo(Instant.parse("2188-11-16T03:28:58.880Z"));
    }

    @Test
    void maxIdIssuedByHoldsEveryIdOfTheTickAndNoneOfTheNext() {
        Instant time = Instant.parse("2023-06-07T08:09:10.123Z");
        for (SnowflakePreset preset : SnowflakePreset.values()) {
            if (preset.epoch().isAfter(time)) {
                assertThat(preset.maxIdIssuedBy(time)).as(preset.key()).isNegative();
                continue;
            }
            long bound = preset.maxIdIssuedBy(time);
            long tick = Math.floorDiv(time.toEpochMilli() - preset.epoch().toEpochMilli(), preset.tickMillis())
                    + preset.aheadTicks();
            long highestOfTick = highestId(preset, tick);
            assertThat(bound).as(preset.key()).isGreaterThanOrEqualTo(highestOfTick);
            // The next tick's smallest ID is above the bound: the bound is the tightest.
            assertThat(bound).as(preset.key()).isLessThan((tick + 1) << (preset.workerBits() + preset.sequenceBits()));
        }
    }

    @Test
    void maxIdIssuedByYitterCountsTheMillisecondsItBorrowsAhead() {
        Instant time = Instant.parse("2023-06-07T08:09:10.123Z");
        long tick = time.toEpochMilli() - 1582136402000L;
        // yitter's SnowWorkerM1: timestamp<<(WorkerIdBitLength+SeqBitLength) + workerId<<SeqBitLength + seq, with the
        // timestamp up to TopOverCostCount (2000) ms ahead.
        long borrowed = (tick + 2000) << 12 | 63L << 6 | 63;

        assertThat(SnowflakePreset.YITTER.maxIdIssuedBy(time)).isGreaterThanOrEqualTo(borrowed);
        assertThat(SnowflakePreset.YITTER.decode(borrowed).timestamp()).isEqualTo(time.plusMillis(2000));
    }

    @Test
    void maxIdIssuedByIsBelowZeroBeforeTheEpochAndUnboundedOnceExhausted() {
        assertThat(SnowflakePreset.COSID.maxIdIssuedBy(Instant.parse("2019-01-01T00:00:00Z")))
                .isEqualTo(-1);
        assertThat(SnowflakePreset.UID_GENERATOR.maxIdIssuedBy(Instant.parse("2024-11-20T13:24:16Z")))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(SnowflakePreset.UID_GENERATOR.maxIdIssuedBy(Instant.parse("2024-11-20T13:24:14Z")))
                .isLessThan(Long.MAX_VALUE);
    }

    @Test
    void layoutIsEmptyForSonyflakeAndIdgensEquivalentForTheOthers() {
        assertThat(SnowflakePreset.SONYFLAKE.layout()).isEmpty();

        SnowflakeLayout uid = SnowflakePreset.UID_GENERATOR.layout().orElseThrow();
        assertThat(uid.tickUnit()).isEqualTo(TickUnit.SECONDS);
        assertThat(uid.epoch()).isEqualTo(Instant.parse("2016-05-19T16:00:00Z"));
        assertThat(new int[] {uid.timestampBits(), uid.workerBits(), uid.sequenceBits()})
                .containsExactly(28, 22, 13);

        long id = 3_435_973_846_913_577_185L;
        for (SnowflakePreset preset : SnowflakePreset.values()) {
            preset.layout()
                    .ifPresent(layout -> assertThat(SnowflakeDecodedId.decode(layout, id))
                            .as(preset.key())
                            .isEqualTo(preset.decode(id)));
        }
        assertThat(SnowflakePreset.COSID.layout().orElseThrow().epoch())
                .isEqualTo(Instant.parse("2019-12-24T16:00:00Z"));
    }

    private static long highestId(SnowflakePreset preset, long tick) {
        long workerAndSequence = (1L << (preset.workerBits() + preset.sequenceBits())) - 1;
        return tick << (preset.workerBits() + preset.sequenceBits()) | workerAndSequence;
    }
}
