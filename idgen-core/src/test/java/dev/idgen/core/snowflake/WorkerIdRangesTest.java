package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class WorkerIdRangesTest {

    @Test
    void idsAndRangesAreReadMergedAndCountedWithinALayout() {
        WorkerIdRanges ranges = WorkerIdRanges.parse("oldWorkerIds", " 40, 0-31 ,30-33,1023");

        assertThat(ranges.contains(0)).isTrue();
        assertThat(ranges.contains(33)).isTrue();
        assertThat(ranges.contains(34)).isFalse();
        assertThat(ranges.contains(40)).isTrue();
        assertThat(ranges.max()).isEqualTo(1023);
        // 0-33 and 40 within 6 worker bits (0 to 63); 1023 lies beyond them.
        assertThat(ranges.countUpTo(63)).isEqualTo(35);
        assertThat(ranges.countUpTo(1023)).isEqualTo(36);
        assertThat(WorkerIdRanges.parse("oldWorkerIds", " ").isEmpty()).isTrue();
    }

    @Test
    void aPartThatIsNotAnIdOrARangeFromLowToHighIsRefusedNamingTheArgument() {
        for (String text : new String[] {"3-1", "a", "-1", "0-", "1,,2"}) {
            assertThatThrownBy(() -> WorkerIdRanges.parse("oldWorkerIds", text))
                    .as(text)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("oldWorkerIds must be worker ids and ranges such as 0-31,40");
        }
    }
}
