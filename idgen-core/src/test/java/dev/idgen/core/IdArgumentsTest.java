package dev.idgen.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class IdArgumentsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a",
                "Z",
                "7",
                "orders",
                "A-Z_0.9:x",
                "a.",
                "a..",
                "0-",
                "x:_.-",
                "0123456789012345678901234567890123456789012345678901234567890123"
            })
    void acceptsNamesOfTheAllowedCharacters(String name) {
        assertThat(IdArguments.checkName(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(
            strings = {
                "with space",
                "slash/",
                "ümlaut",
                "star*",
                "{tag}",
                "01234567890123456789012345678901234567890123456789012345678901234"
            })
    void rejectsOtherNamesNamingTheArgumentAndRule(String name) {
        assertThatThrownBy(() -> IdArguments.checkName(name))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("name"))
                .hasMessageStartingWith(
                        "name must be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit");
    }

    /** {@code .} and {@code ..} would be path segments a URL resolves; no name may start with punctuation. */
    @ParameterizedTest
    @ValueSource(strings = {".", "..", "._x", ".hidden", "-x", "--", "_x", ":x", "-1"})
    void rejectsNamesThatDoNotStartWithALetterOrDigit(String name) {
        assertThatThrownBy(() -> IdArguments.checkName(name))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("name"))
                .hasMessage("name must be 1 to 64 characters of [A-Za-z0-9._:-], the first a letter or digit, but was '"
                        + name + "'");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 9_999, IdService.MAX_BATCH_SIZE})
    void acceptsCountsInRange(int count) {
        assertThat(IdArguments.checkCount(count)).isEqualTo(count);
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, IdService.MAX_BATCH_SIZE + 1, Integer.MAX_VALUE})
    void rejectsCountsOutOfRange(int count) {
        assertThatThrownBy(() -> IdArguments.checkCount(count))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("count"))
                .hasMessage("count must be between 1 and 10000, but was " + count);
    }

    @ParameterizedTest
    @ValueSource(longs = {Long.MIN_VALUE, -1, 0})
    void rejectsIdsThatAreNotPositive(long id) {
        assertThatThrownBy(() -> IdArguments.checkId(id))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("id"))
                .hasMessageContaining("id must be a positive 64-bit number");
    }
}
