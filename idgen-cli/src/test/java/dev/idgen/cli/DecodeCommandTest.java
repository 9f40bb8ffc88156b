package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DecodeCommandTest {

    /** idgen's standard layout: (ms since 2025-01-01Z) << 22 | worker << 12 | sequence. */
    private static final long IDGEN_ID = 1_000_000_000L << 22 | 5L << 12 | 9;

    @Test
    void decodesUnderIdgensStandardLayoutByDefault() {
        CliRun run = CliRun.of("decode", Long.toString(IDGEN_ID), "4194304");

        assertThat(run.code()).isZero();
        assertThat(run.out())
                .isEqualTo(IDGEN_ID + "  time 2025-01-12T13:46:40Z  worker 5  sequence 9\n"
                        + "4194304  time 2025-01-01T00:00:00.001Z  worker 0  sequence 0\n");
    }

    @Test
    void decodesUnderAPreset() {
        long sonyflake = 123_456_789L << 24 | 7L << 16 | 0xBEEF;

        CliRun run = CliRun.of("decode", "--layout", "sonyflake", Long.toString(sonyflake));

        assertThat(run.out()).isEqualTo(sonyflake + "  time 2014-09-15T06:56:07.890Z  worker 48879  sequence 7\n");
    }

    @Test
    void decodesUnderALayoutGivenFieldByField() {
        // 31 bits of seconds since 2020-01-01Z, 8 worker bits, 10 sequence bits.
        long id = 86_400L << 18 | 200L << 10 | 1000;

        CliRun run = CliRun.of(
                "decode",
                "--epoch",
                "2020-01-01T00:00:00Z",
                "--time-unit",
                "seconds",
                "--timestamp-bits",
                "31",
                "--worker-bits",
                "8",
                "--sequence-bits",
                "10",
                Long.toString(id));

        assertThat(run.out()).isEqualTo(id + "  time 2020-01-02T00:00:00Z  worker 200  sequence 1000\n");
    }

    @Test
    void layoutAllReadsTheIdUnderEveryPresetAndMarksFutureTimes() {
        CliRun run = CliRun.of("decode", "--layout", "all", Long.toString(IDGEN_ID));

        assertThat(run.code()).isZero();
        assertThat(run.out())
                .startsWith(IDGEN_ID + "\n")
                .contains("  idgen  ")
                .contains("twitter, hutool, mybatis-plus, leaf   time 2010-11-")
                .contains("cosid", "uid-generator", "sonyflake", "yitter");
        // yitter's 12 low bits put this ID's time far ahead of 2026.
        assertThat(run.out()
                        .lines()
                        .filter(l -> l.contains("yitter"))
                        .findFirst()
                        .orElseThrow())
                .endsWith("(in the future)");
        assertThat(run.out()
                        .lines()
                        .filter(l -> l.contains("idgen"))
                        .findFirst()
                        .orElseThrow())
                .doesNotContain("future");
    }

    @Test
    void aNonNumericIdIsOneLineNamingIt() {
        CliRun run = CliRun.of("decode", "12", "abc");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("invalid ID 'abc'");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aNegativeIdIsOneLineSayingSo() {
        CliRun run = CliRun.of("decode", "-5");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("invalid ID '-5'").contains("negative");
    }

    @Test
    void anIdTooLargeForALongIsOneLine() {
        CliRun run = CliRun.of("decode", "9223372036854775808");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("invalid ID '9223372036854775808'");
    }

    @Test
    void anUnknownPresetListsTheKnownOnes() {
        CliRun run = CliRun.of("decode", "--layout", "snowflake", "12");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("--layout").contains("'snowflake'").contains("mybatis-plus, leaf, cosid");
    }

    @Test
    void aLayoutAndItsFieldsTogetherAreRefused() {
        CliRun run = CliRun.of("decode", "--layout", "hutool", "--worker-bits", "8", "12");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("--layout").contains("--worker-bits");
    }

    @Test
    void aFieldBreakingTheLayoutsRulesIsNamed() {
        CliRun run = CliRun.of("decode", "--timestamp-bits", "50", "12");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("timestampBits + workerBits + sequenceBits");
    }

    @Test
    void noIdIsAUsageError() {
        CliRun run = CliRun.of("decode");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("ID");
    }
}
