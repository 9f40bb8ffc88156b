package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.snowflake.SnowflakePreset;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The new epoch against its definition, checked by brute force: idgen's smallest ID now exceeds what the old fleet
 * can issue a minute ahead at every sampled time up to the time it stops, and one second later the epoch would not.
 */
class SwitchPlanTest {

    private static final Instant NOW = Instant.parse("2026-12-03T10:11:12.345Z");

    @Test
    void theEpochKeepsIdgenAboveTheOldFleetAtEveryTimeAndIsTheLatestThatDoes() {
        for (SnowflakePreset preset : SnowflakePreset.values()) {
            if (preset == SnowflakePreset.UID_GENERATOR) {
                continue;
            }
            long highest = preset.maxIdIssuedBy(NOW);
            SwitchPlan.EpochChoice choice = SwitchPlan.latestEpoch(preset, highest, NOW, NOW);
            Instant epoch =
                    choice.epoch().orElseThrow(() -> new AssertionError(preset.key() + ": " + choice.whyNone()));

            assertThat(epoch.toEpochMilli() % 1000).as(preset.key()).isZero();
            assertThat(holds(preset, highest, epoch, NOW))
                    .as(preset.key() + " at " + epoch)
                    .isTrue();
            assertThat(holds(preset, highest, epoch.plusSeconds(1), NOW))
                    .as(preset.key() + " a second later")
                    .isFalse();
            assertThat(choice.exhaustedAt().orElseThrow()).isEqualTo(epoch.plusMillis(1L << 41));
        }
    }

    @Test
    void twitterLayoutsGetTheirEpochLessTheMinuteTheirClocksMayRunAhead() {
        Instant epoch = SwitchPlan.latestEpoch(SnowflakePreset.HUTOOL, 1, NOW, NOW)
                .epoch()
                .orElseThrow();

        // 1288834974657 less 60,001 ms, rounded down to the second.
        assertThat(epoch).isEqualTo(Instant.parse("2010-11-04T01:41:54Z"));
    }

    @Test
    void aHighestAboveTheBoundPushesTheEpochBack() {
        long highest = SnowflakePreset.YITTER.maxIdIssuedBy(NOW) * 4;
        SwitchPlan.EpochChoice choice = SwitchPlan.latestEpoch(SnowflakePreset.YITTER, highest, NOW, NOW);

        assertThat(holds(SnowflakePreset.YITTER, highest, choice.epoch().orElseThrow(), NOW))
                .isTrue();
        assertThat(holds(SnowflakePreset.YITTER, highest, choice.epoch().get().plusSeconds(1), NOW))
                .isFalse();
    }

    @Test
    void uidGeneratorsExhaustedLayoutAdmitsNoEpoch() {
        SwitchPlan.EpochChoice choice =
                SwitchPlan.latestEpoch(SnowflakePreset.UID_GENERATOR, Long.MAX_VALUE - 5, NOW, NOW);

        assertThat(choice.epoch()).isEmpty();
        assertThat(choice.whyNone()).contains("ran out at 2024-11-20T13:24:16Z");
    }

    @Test
    void anEpochBefore1970IsRefused() {
        // An ID the standard layout reaches only 2^41 ms after its epoch: the epoch would lie 69 years before now.
        SwitchPlan.EpochChoice choice = SwitchPlan.latestEpoch(SnowflakePreset.COSID, Long.MAX_VALUE - 1000, NOW, NOW);

        assertThat(choice.epoch()).isEmpty();
        assertThat(choice.whyNone()).contains("before 1970");
    }

    @Test
    void anEpochLeavingUnderAYearIsRefused() {
        // In 2079, above an ID half a year short of the standard layout's last millisecond: idgen would run out in
        // half a year.
        Instant later = Instant.parse("2079-01-01T00:00:00Z");
        long highest = ((1L << 41) - Duration.ofDays(182).toMillis()) << 22;

        SwitchPlan.EpochChoice choice = SwitchPlan.latestEpoch(SnowflakePreset.YITTER, highest, later, later);

        assertThat(choice.epoch()).isEmpty();
        assertThat(choice.whyNone()).contains("under a year").contains("0.5 years");
    }

    @Test
    void aLaterStopByShiftsTwitterShapedEpochsBackByAsMuch() {
        for (SnowflakePreset preset : SnowflakePreset.values()) {
            if (preset.tickMillis() != 1
                    || preset.workerBits() + preset.sequenceBits() != 22
                    || preset.aheadTicks() != 0
                    || preset.maxIdIssuedBy(NOW) == Long.MAX_VALUE) {
                continue;
            }
            Instant now = SwitchPlan.latestEpoch(preset, 1, NOW, NOW).epoch().orElseThrow();
            for (Duration ahead : new Duration[] {Duration.ofSeconds(3), Duration.ofHours(5), Duration.ofDays(366)}) {
                Instant stopBy = NOW.plus(ahead);
                Instant epoch =
                        SwitchPlan.latestEpoch(preset, 1, NOW, stopBy).epoch().orElseThrow();

                assertThat(epoch).as(preset.key() + " " + ahead).isEqualTo(now.minus(ahead));
                assertThat(holds(preset, 1, epoch, stopBy))
                        .as(preset.key() + " " + ahead)
                        .isTrue();
                assertThat(holds(preset, 1, epoch.plusSeconds(1), stopBy))
                        .as(preset.key() + " " + ahead + ", a second later")
                        .isFalse();
            }
        }
    }

    @Test
    void aStopByBeforeNowCountsAsNow() {
        assertThat(SwitchPlan.latestEpoch(SnowflakePreset.HUTOOL, 1, NOW, NOW.minusSeconds(3600)))
                .isEqualTo(SwitchPlan.latestEpoch(SnowflakePreset.HUTOOL, 1, NOW, NOW));
    }

    /**
     * The definition, sampled: idgen's smallest ID at {@link #NOW} is above {@code highest} and above the old bound a
     * minute ahead of every sampled time up to {@code stopBy}: every ms of its last 20 seconds, every minute before.
     */
    private static boolean holds(SnowflakePreset preset, long highest, Instant epoch, Instant stopBy) {
        long nowMillis = NOW.toEpochMilli();
        long smallest = (nowMillis - epoch.toEpochMilli()) << 22;
        if (smallest <= highest) {
            return false;
        }
        long end = Math.max(nowMillis, stopBy.toEpochMilli());
        long step = Duration.ofMinutes(1).toMillis();
        for (long t = nowMillis; t <= end; t += t < end - 20_000 ? Math.min(step, end - 20_000 - t) : 1) {
            long bound = preset.maxIdIssuedBy(Instant.ofEpochMilli(t).plus(SwitchPlan.CLOCK_MARGIN));
            if (smallest <= bound) {
                return false;
            }
        }
        return true;
    }
}
