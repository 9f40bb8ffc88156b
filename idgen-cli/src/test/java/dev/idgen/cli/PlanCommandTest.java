package dev.idgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlanCommandTest {

    @Test
    void hutoolCanKeepItsLayoutOrTakeIdgensWithANewEpoch() {
        CliRun run = CliRun.of(
                "plan",
                "--from",
                "hutool",
                "--highest",
                "2000000000000000000",
                "--old-worker-ids",
                "0-31,40",
                "--now",
                "2026-12-03T00:00:00Z");

        assertThat(run.code()).isZero();
        assertThat(run.out())
                .contains("It runs out at 2080-07-10T17:30:30.209Z: 53.6 years left")
                .contains("up to 60 s ahead")
                .contains("(a) Keep hutool's layout")
                .contains("    idgen.snowflake.preset=hutool\n")
                .contains("    idgen.snowflake.switch.from=hutool\n")
                .contains("    idgen.snowflake.switch.old-worker-ids=0-31,40\n")
                .contains("--preset hutool --worker-ids 32-39,41-1023")
                .contains("    idgen.snowflake.epoch=2010-11-04T01:41:54Z\n")
                .contains("    idgen.snowflake.switch.start-above=2000000000000000000\n")
                .contains("(until 2080-07-10T17:29:29.552Z)")
                .contains("The old writers must have stopped by 2026-12-03T00:00:00Z")
                .contains("may repeat idgen's")
                .contains("take way (a)")
                .doesNotContain("old-writers-stop-by=")
                .doesNotContain("(c)");
    }

    @Test
    void aStopByPushesTheNewEpochBackByAsMuchAndIsPrinted() {
        CliRun run = CliRun.of(
                "plan",
                "--from",
                "hutool",
                "--highest",
                "1",
                "--now",
                "2026-12-03T00:00:00Z",
                "--old-writers-stop-by",
                "2026-12-04T00:00:00Z");

        assertThat(run.code()).isZero();
        assertThat(run.out())
                .contains("    idgen.snowflake.epoch=2010-11-03T01:41:54Z\n")
                .contains("    idgen.snowflake.switch.old-writers-stop-by=2026-12-04T00:00:00Z\n")
                .contains("The old writers must stop by 2026-12-04T00:00:00Z: IDs they issue after it may repeat"
                        + " idgen's")
                .contains("take way (a)");
    }

    @Test
    void aBadStopByIsOneLineNamingIt() {
        CliRun bad = CliRun.of("plan", "--from", "hutool", "--highest", "1", "--old-writers-stop-by", "tomorrow");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.errLine()).contains("--old-writers-stop-by 'tomorrow'");
        CliRun far = CliRun.of(
                "plan",
                "--from",
                "hutool",
                "--highest",
                "1",
                "--now",
                "2026-12-03T00:00:00Z",
                "--old-writers-stop-by",
                "2027-12-05T00:00:00Z");
        assertThat(far.code()).isEqualTo(2);
        assertThat(far.errLine())
                .contains("--old-writers-stop-by '2027-12-05T00:00:00Z'")
                .contains("366 days");
    }

    @Test
    void uidGeneratorHasNoYearLeftAndGetsSegments() {
        CliRun run = CliRun.of(
                "plan", "--from", "uid-generator", "--highest", "9223372036854775000", "--now", "2026-12-03T00:00:00Z");

        assertThat(run.code()).isZero();
        assertThat(run.out())
                .contains("It ran out at 2024-11-20T13:24:16Z")
                .contains("(a) Keep uid-generator's layout, on worker ids the old fleet never used: not possible")
                .contains("(b) ")
                .contains("807 IDs are left above --highest 9223372036854775000")
                .contains("    idgen.segment.start-above=9223372036854775000\n")
                .doesNotContain("idgen.snowflake.epoch=");
    }

    @Test
    void sonyflakeCannotKeepItsLayout() {
        CliRun run = CliRun.of("plan", "--from", "sonyflake", "--highest", "1", "--now", "2026-12-03T00:00:00Z");

        assertThat(run.out())
                .contains("(a) Keep sonyflake's layout, on worker ids the old fleet never used: not possible")
                .contains("idgen.snowflake.epoch=");
    }

    @Test
    void withoutOldWorkerIdsThePlanSaysWhatToFillIn() {
        CliRun run = CliRun.of("plan", "--from", "cosid", "--highest", "1", "--now", "2026-12-03T00:00:00Z");

        assertThat(run.out()).contains("idgen.snowflake.switch.old-worker-ids=<the worker ids the old fleet used");
    }

    @Test
    void aHighestAboveWhatThePresetCanHaveIssuedIsPointedOut() {
        CliRun run = CliRun.of(
                "plan", "--from", "cosid", "--highest", "9000000000000000000", "--now", "2026-12-03T00:00:00Z");

        assertThat(run.out()).contains("is --from right?");
    }

    @Test
    void anUnknownPresetIsOneLineListingTheKnownOnes() {
        CliRun run = CliRun.of("plan", "--from", "snowflak", "--highest", "1");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("--from").contains("'snowflak'").contains("twitter, hutool");
    }

    @Test
    void aBadRangeIsOneLineNamingTheOption() {
        for (String bad : new String[] {"5-3", "0-2000", "a", "1,,2", "1-2-3"}) {
            CliRun run = CliRun.of("plan", "--from", "hutool", "--highest", "1", "--old-worker-ids", bad);

            assertThat(run.code()).as(bad).isEqualTo(2);
            assertThat(run.errLine()).as(bad).contains("--old-worker-ids '" + bad + "'");
        }
    }

    @Test
    void aBadHighestOrNowIsOneLineNamingIt() {
        assertThat(CliRun.of("plan", "--from", "hutool", "--highest", "-1").errLine())
                .contains("--highest '-1'");
        assertThat(CliRun.of("plan", "--from", "hutool", "--highest", "x").errLine())
                .contains("--highest 'x'");
        CliRun run = CliRun.of("plan", "--from", "hutool", "--highest", "1", "--now", "yesterday");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("--now 'yesterday'");
    }

    @Test
    void aMissingOptionIsOneLineNamingIt() {
        CliRun run = CliRun.of("plan", "--from", "hutool");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLine()).contains("--highest");
    }

    @Test
    void anUnknownCommandOrNoneIsOneLine() {
        CliRun unknown = CliRun.of("frobnicate");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.errLine()).contains("unknown command 'frobnicate'");

        CliRun none = CliRun.of();
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.errLine()).contains("a command is required");

        CliRun option = CliRun.of("plan", "--from", "hutool", "--highest", "1", "--frob");
        assertThat(option.code()).isEqualTo(2);
        assertThat(option.errLine()).contains("--frob");
    }
}
