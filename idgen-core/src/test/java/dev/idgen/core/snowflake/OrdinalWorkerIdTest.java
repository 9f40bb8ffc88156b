package dev.idgen.core.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrdinalWorkerIdTest {

    private static final Pattern DEFAULT = OrdinalWorkerId.pattern(OrdinalWorkerId.DEFAULT_PATTERN);

    @ParameterizedTest
    @CsvSource({"orders-0, 0", "orders-7, 7", "order-service-12, 12", "web-007, 7", "a-b-c-1023, 1023"})
    void theDefaultPatternTakesTheNumberAfterTheLastDash(String hostName, long ordinal) {
        assertThat(OrdinalWorkerId.fromHostName(hostName, DEFAULT)).isEqualTo(ordinal);
    }

    @ParameterizedTest
    @CsvSource({"orders", "orders-", "orders-7a", "orders-x7", "orders-+7", "7", "''"})
    void aHostNameWithoutTrailingOrdinalIsRefusedNamingItAndThePattern(String hostName) {
        assertThatThrownBy(() -> OrdinalWorkerId.fromHostName(hostName, DEFAULT))
                .isInstanceOfSatisfying(InvalidArgumentException.class, e -> {
                    assertThat(e.argument()).isEqualTo("hostName");
                    assertThat(e.value()).isEqualTo(hostName);
                })
                .hasMessage("hostName '" + hostName + "' does not match the pattern '.*-(\\d+)$'");
    }

    @Test
    void aConfiguredPatternIsFoundAnywhereInTheName() {
        Pattern pattern = OrdinalWorkerId.pattern("^node(\\d+)\\.");
        assertThat(OrdinalWorkerId.fromHostName("node12.dc1.example.com", pattern))
                .isEqualTo(12);
        assertThat(OrdinalWorkerId.fromHostName("node3.x", OrdinalWorkerId.pattern("node(\\d+)")))
                .isEqualTo(3);
    }

    @Test
    void aGroupThatIsNotANumberIsRefused() {
        assertThatThrownBy(() -> OrdinalWorkerId.fromHostName("web-abc", OrdinalWorkerId.pattern("-(\\w+)$")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("hostName 'web-abc' matches the pattern '-(\\w+)$', but its group 'abc' is not an ordinal"
                        + " (a number from 0)");
        assertThatThrownBy(() -> OrdinalWorkerId.fromHostName("web-99999999999999999999", DEFAULT))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("is not an ordinal");
        assertThatThrownBy(() -> OrdinalWorkerId.fromHostName("web", OrdinalWorkerId.pattern("web(\\d+)?")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("does not match");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "'' | pattern must be a regular expression with one group, the ordinal, for example .*-(\\d+)$",
                ".*-\\d+$ | pattern must have exactly one group, the ordinal, but '.*-\\d+$' has 0 (write other groups as (?:...))",
                "(.*)-(\\d+)$ | pattern must have exactly one group, the ordinal, but '(.*)-(\\d+)$' has 2 (write other groups as (?:...))",
                "-(\\d+ | pattern must be a regular expression, but '-(\\d+' is not: Unclosed group",
            })
    void aPatternNeedsExactlyOneGroup(String regex, String message) {
        assertThatThrownBy(() -> OrdinalWorkerId.pattern(regex))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("pattern"))
                .hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "7, 7", "' 12 ', 12", "0042, 42"})
    void aVariableHoldsTheOrdinal(String value, long ordinal) {
        assertThat(OrdinalWorkerId.fromValue(value)).isEqualTo(ordinal);
    }

    @ParameterizedTest
    @CsvSource({"''", "-1", "+1", "seven", "1.0"})
    void aVariableThatIsNotAnOrdinalIsRefused(String value) {
        assertThatThrownBy(() -> OrdinalWorkerId.fromValue(value))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("value"))
                .hasMessage("value must be an ordinal (a number from 0), but was '" + value + "'");
        assertThatThrownBy(() -> OrdinalWorkerId.fromValue(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"0, 0, 1023, 0", "1023, 0, 1023, 1023", "5, 100, 1023, 105", "1, -1, 63, 0"})
    void theWorkerIdIsTheOrdinalPlusTheOffset(long ordinal, long offset, long max, long workerId) {
        assertThat(OrdinalWorkerId.workerId(ordinal, offset, max)).isEqualTo(workerId);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "1024 | 0 | 1023 | workerId must be between 0 and 1023 for this layout's worker bits, but the ordinal 1024 makes it 1024",
                "60 | 4 | 63 | workerId must be between 0 and 63 for this layout's worker bits, but the ordinal 60 with offset 4 makes it 64",
                "0 | -1 | 63 | workerId must be between 0 and 63 for this layout's worker bits, but the ordinal 0 with offset -1 makes it -1",
                "9223372036854775807 | 1 | 1023 | workerId must be between 0 and 1023 for this layout's worker bits, but the ordinal 9223372036854775807 with offset 1 makes it 9223372036854775808",
            })
    void aWorkerIdOutsideTheLayoutIsRefusedWithTheRange(long ordinal, long offset, long max, String message) {
        assertThatThrownBy(() -> OrdinalWorkerId.workerId(ordinal, offset, max))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("workerId"))
                .hasMessage(message);
    }

    @Test
    void theHostNameComesFromHostnameThenTheLocalHost() {
        assertThat(OrdinalWorkerId.hostName(Map.of("HOSTNAME", " orders-3 ")::get, () -> "local-9"))
                .isEqualTo("orders-3");
        assertThat(OrdinalWorkerId.hostName(Map.of("HOSTNAME", " ")::get, () -> "local-9"))
                .isEqualTo("local-9");
        assertThat(OrdinalWorkerId.hostName(name -> null, () -> "local-9")).isEqualTo("local-9");
        assertThat(OrdinalWorkerId.hostName(name -> null))
                .as("the real local host")
                .isNotBlank();
    }
}
