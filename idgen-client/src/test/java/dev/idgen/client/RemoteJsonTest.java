package dev.idgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.segment.Segment;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The small JSON reader and the checks of a block. */
class RemoteJsonTest {

    @Test
    void readsAFlatObjectAndSkipsNestedFields() {
        Map<String, Object> json = FlatJson.parseObject(
                " {\"name\":\"or\\\"d\\u0065rs\",\"first\":\"1001\",\"n\":-1.5e3,\"ok\":true,\"no\":null,"
                        + "\"extra\":{\"a\":[1,{\"b\":false}]}} ");
        assertThat(json)
                .containsEntry("name", "or\"ders")
                .containsEntry("first", "1001")
                .containsEntry("n", new BigDecimal("-1.5e3"))
                .containsEntry("ok", true)
                .containsEntry("no", null);
        assertThat(json.get("extra")).isEqualTo(Map.of("a", List.of(new BigDecimal("1"), Map.of("b", false))));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "[]",
                "{\"a\":1,}",
                "{\"a\":1}x",
                "{\"a\":01}",
                "{\"a\":1,\"a\":2}",
                "{\"a\":\"x",
                "{a:1}",
                "{\"a\":tru}",
                "{\"a\":\"\\q\"}"
            })
    void refusesWhatIsNotOneJsonObject(String text) {
        assertThatThrownBy(() -> FlatJson.parseObject(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not JSON");
    }

    @Test
    void nestingDeeperThanTheBoundIsRefusedNotRecursedInto() {
        String deep = "{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertThatThrownBy(() -> FlatJson.parseObject(deep))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("deep");
        String within = "{\"a\":" + "[".repeat(10) + "]".repeat(10) + "}";
        assertThat(FlatJson.parseObject(within)).containsKey("a");
    }

    @Test
    void aBlockIsCheckedAgainstTheRequest() {
        String body = "{\"name\":\"orders\",\"first\":\"1001\",\"last\":\"2000\",\"size\":1000}";
        assertThat(RemoteAnswers.block(body, "orders", 1000, 1000)).isEqualTo(new Segment(1001, 2000));
        assertThat(RemoteAnswers.block("{\"name\":\"orders\",\"first\":1001,\"last\":2000}", "orders", 1000, 0))
                .isEqualTo(new Segment(1001, 2000));
        assertThatThrownBy(() -> RemoteAnswers.block(body, "orders", 999, 0))
                .hasMessageContaining("1000 IDs (1001 to 2000) where at most 999 were asked for");
        // Fewer than asked is a usable block (an interleaved store's slot end).
        assertThat(RemoteAnswers.block(body, "orders", 1500, 0)).isEqualTo(new Segment(1001, 2000));
        assertThatThrownBy(() -> RemoteAnswers.block(body, "orders", 1000, 1001))
                .hasMessageContaining("not above 1001");
        assertThatThrownBy(() -> RemoteAnswers.block(body, "invoices", 1000, 0))
                .hasMessageContaining("name 'orders' where 'invoices'");
        assertThatThrownBy(() -> RemoteAnswers.block(
                        "{\"name\":\"orders\",\"first\":\"1001\",\"last\":\"2000\",\"size\":10}", "orders", 1000, 0))
                .hasMessageContaining("size 10 does not match");
        assertThatThrownBy(() -> RemoteAnswers.block(
                        "{\"name\":\"orders\",\"first\":\"99999999999999999999\",\"last\":\"2000\"}", "orders", 1, 0))
                .hasMessageContaining("not a decimal long");
        assertThatThrownBy(() ->
                        RemoteAnswers.block("{\"name\":\"orders\",\"first\":\"0\",\"last\":\"9\"}", "orders", 10, 0))
                .hasMessageContaining("are no block");
    }
}
