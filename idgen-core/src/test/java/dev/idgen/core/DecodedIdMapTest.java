package dev.idgen.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakeLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code decode(...).toMap()}, which the README offers for JSON, carries the 64-bit ID as a decimal string, as idgen's
 * JSON integration writes IDs: a JSON number above 2^53 comes out of JavaScript's {@code JSON.parse} with other
 * digits.
 */
class DecodedIdMapTest {

    private static final long ABOVE_2_53 = (1L << 53) + 1;

    @Test
    void aSnowflakeIdAbove2To53IsADecimalStringWithEveryDigit() {
        long id = (1L << 62) + 12345; // a standard-layout ID some 73 years after the epoch
        Map<String, Object> map =
                SnowflakeDecodedId.decode(SnowflakeLayout.standard(), id).toMap();
        assertThat(map.get("id")).isEqualTo("4611686018427400249").isEqualTo(Long.toString(id));
        assertThat((long) (double) id)
                .as("the same ID as a JSON number read by JavaScript (a double)")
                .isNotEqualTo(id);
        assertThat(map.get("workerId")).as("small parts stay numbers").isInstanceOf(Long.class);
    }

    @Test
    void aCounterIdIsADecimalStringThroughTheGeneratorThatIssuedIt() {
        DecodedId decoded = new GeneratorDecodedId("invoice", new SequenceDecodedId("ticket", ABOVE_2_53));
        assertThat(decoded.toMap())
                .containsExactly(
                        Map.entry("strategy", "ticket"),
                        Map.entry("generator", "invoice"),
                        Map.entry("id", "9007199254740993"));
        assertThat(decoded.id()).as("the number is still there for Java").isEqualTo(ABOVE_2_53);
        assertThat(new SequenceDecodedId("segment", Long.MAX_VALUE).toMap()).containsEntry("id", "9223372036854775807");
    }
}
