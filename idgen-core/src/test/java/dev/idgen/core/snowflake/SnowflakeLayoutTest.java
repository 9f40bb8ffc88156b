package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SnowflakeLayoutTest {

    @Test
    void standardIsTheClassic41_10_12MillisecondLayout() {
        SnowflakeLayout layout = SnowflakeLayout.standard();
        assertThat(layout.tickUnit()).isEqualTo(TickUnit.MILLISECONDS);
        assertThat(layout.timestampBits()).isEqualTo(41);
        assertThat(layout.workerBits()).isEqualTo(10);
        assertThat(layout.sequenceBits()).isEqualTo(12);
        assertThat(layout.maxWorkerId()).isEqualTo(1023);
        assertThat(layout.maxIdsPerSecond()).isEqualTo(4_096_000);
        assertThat(layout.maxId()).isEqualTo(Long.MAX_VALUE);
        assertThat(layout.exhaustedAt()).isEqualTo(Instant.parse("2094-09-07T15:47:35.552Z"));
    }

    @Test
    void javascriptSafeIdsStayAtOrBelow2To53() {
        SnowflakeLayout layout = SnowflakeLayout.javascriptSafe();
        assertThat(layout.maxId()).isLessThanOrEqualTo(1L << 53);
        assertThat(layout.maxId()).isEqualTo((1L << 53) - 1);
        assertThat(layout.tickUnit()).isEqualTo(TickUnit.SECONDS);
        assertThat(layout.exhaustedAt()).isAfter(Instant.parse("2090-01-01T00:00:00Z"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0 | 10 | 12 | timestampBits | timestampBits must be between 1 and 62, but was 0",
                "63 | 0 | 12 | timestampBits | timestampBits must be between 1 and 62, but was 63",
                "41 | -1 | 12 | workerBits | workerBits must be between 0 and 61, but was -1",
                "41 | 10 | 0 | sequenceBits | sequenceBits must be between 1 and 62, but was 0",
                "41 | 10 | 13 | layoutBits | timestampBits + workerBits + sequenceBits must be at most 63, but 41 + 10 + 13 = 64",
            })
    void rejectsBitsBreakingARuleNamingTheSetting(
            int timestampBits, int workerBits, int sequenceBits, String argument, String message) {
        assertThatThrownBy(() -> SnowflakeLayout.builder()
                        .timestampBits(timestampBits)
                        .workerBits(workerBits)
                        .sequenceBits(sequenceBits)
                        .build())
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo(argument))
                .hasMessage(message);
    }

    @Test
    void rejectsAMissingOrPre1970Epoch() {
        assertThatThrownBy(() -> SnowflakeLayout.builder().epoch(null).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("epoch must be set");
        assertThatThrownBy(() -> SnowflakeLayout.builder()
                        .epoch(Instant.parse("1969-12-31T23:59:59Z"))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("epoch must not be before 1970");
    }

    @Test
    void toBuilderRoundTrips() {
        SnowflakeLayout layout = SnowflakeLayout.javascriptSafe();
        assertThat(layout.toBuilder().build()).isEqualTo(layout).hasSameHashCodeAs(layout);
        assertThat(layout.toBuilder().workerBits(5).build()).isNotEqualTo(layout);
    }

    @Test
    void decodeSplitsAnIdIntoItsParts() {
        SnowflakeLayout layout = SnowflakeLayout.standard();
        long id = (1000L << 22) | (5L << 12) | 7;
        SnowflakeDecodedId decoded = SnowflakeDecodedId.decode(layout, id);
        assertThat(decoded.timestamp()).isEqualTo(SnowflakeLayout.DEFAULT_EPOCH.plusMillis(1000));
        assertThat(decoded.workerId()).isEqualTo(5);
        assertThat(decoded.sequence()).isEqualTo(7);
        assertThat(decoded.toMap()).containsEntry("strategy", "snowflake").containsEntry("workerId", 5L);
    }

    @Test
    void decodeRejectsATimestampBeyondRepresentableTime() {
        SnowflakeLayout huge = SnowflakeLayout.builder()
                .tickUnit(TickUnit.SECONDS)
                .timestampBits(60)
                .workerBits(0)
                .sequenceBits(3)
                .build();
        assertThat(huge.exhaustedAt()).isEqualTo(Instant.ofEpochMilli(Long.MAX_VALUE));
        assertThatThrownBy(() -> SnowflakeDecodedId.decode(huge, Long.MAX_VALUE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("beyond the representable time");
    }

    @Test
    void decodeRejectsIdsAboveTheLayout() {
        assertThatThrownBy(() -> SnowflakeDecodedId.decode(SnowflakeLayout.javascriptSafe(), 1L << 53))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("id"))
                .hasMessageContaining("above the layout's largest ID");
    }
}
