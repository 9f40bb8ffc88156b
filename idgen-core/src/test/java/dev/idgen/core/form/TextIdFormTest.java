package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdSequence;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.SequenceDecodedId;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TextIdFormTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    /** A counter sequence whose decode refuses IDs it has not issued yet. */
    private static final class CountingSequence implements IdSequence {

        private final AtomicLong last = new AtomicLong();

        @Override
        public String name() {
            return "orders";
        }

        @Override
        public String generator() {
            return "tickets";
        }

        @Override
        public String strategy() {
            return "ticket";
        }

        @Override
        public long nextId() {
            return last.incrementAndGet();
        }

        @Override
        public long[] nextIds(int count) {
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = nextId();
            }
            return ids;
        }

        @Override
        public DecodedId decode(long id) {
            if (id > last.get()) {
                throw new IllegalArgumentException("id " + id + " is beyond the last issued, " + last.get());
            }
            return new SequenceDecodedId("ticket", id);
        }
    }

    @Test
    void formatsTheSequencesIdsAndDecodesThemThroughTheSequence() {
        TextIdForm form = new TextIdForm(
                "tickets", new CountingSequence(), IdText.crockford32().withPrefix("ord_"));
        assertThat(form.generator()).isEqualTo("tickets");
        assertThat(form.form()).isEqualTo("crockford32");
        assertThat(form.next()).isEqualTo("ord_0000000000001");
        assertThat(form.next(3)).containsExactly("ord_0000000000002", "ord_0000000000003", "ord_0000000000004");

        Map<String, Object> decoded = form.decode("ord_0000000000003");
        assertThat(decoded)
                .containsExactly(
                        Map.entry("form", "crockford32"), Map.entry("strategy", "ticket"), Map.entry("id", "3"));
        assertThatThrownBy(() -> decoded.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void decimalTextIsTheNumberForm() {
        TextIdForm form = new TextIdForm("tickets", new CountingSequence(), IdText.decimal());
        assertThat(form.form()).isEqualTo("number");
        assertThat(form.next()).isEqualTo("1");
        assertThat(form.decode("1")).containsEntry("form", "number");
        assertThat(new TextIdForm("tickets", new CountingSequence(), IdText.base62()).form())
                .isEqualTo("base62");
    }

    @Test
    void aSnowflakeDecodeHasTheTimestampRightAfterTheForm() {
        ManualTimeSource time = new ManualTimeSource(START);
        SnowflakeIdService service = SnowflakeIdService.of(
                SnowflakeGenerator.builder().timeSource(time).workerId(5).build());
        time.advanceMillis(1);
        TextIdForm form = new TextIdForm("snowflake", service.sequence("orders"), IdText.base62());
        String text = form.next();
        assertThat(text).hasSize(11);

        Map<String, Object> decoded = form.decode(text);
        assertThat(decoded.keySet()).startsWith("form", "timestamp");
        assertThat(decoded)
                .containsEntry("form", "base62")
                .containsEntry("timestamp", START.plusMillis(1))
                .containsEntry("workerId", 5L)
                .containsEntry("id", Long.toString(IdText.base62().parse(text)))
                .containsKey("strategy")
                .containsKey("generator");
        service.close();
    }

    @Test
    void aMalformedOrUnissuedIdIsAnInvalidId() {
        TextIdForm form = new TextIdForm(
                "tickets", new CountingSequence(), IdText.crockford32().withPrefix("ord_"));
        form.next();
        for (String bad :
                new String[] {"usr_0000000000001", "ord_000000000000U", "ord_0000000000000", null, "ord_0000000000002"
                }) {
            assertThatThrownBy(() -> form.decode(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("id"));
        }
        assertThatThrownBy(() -> form.decode("ord_0000000000002"))
                .hasMessageContaining("cannot have been issued by generator 'tickets'")
                .hasMessageContaining("beyond the last issued");
    }

    @Test
    void checksItsArguments() {
        TextIdForm form = new TextIdForm("tickets", new CountingSequence(), IdText.base62());
        for (int count : new int[] {0, -1, 10_001}) {
            assertThatThrownBy(() -> form.next(count))
                    .isInstanceOfSatisfying(
                            InvalidArgumentException.class,
                            e -> assertThat(e.argument()).isEqualTo("count"));
        }
        assertThat(form.next(10_000)).hasSize(10_000).doesNotHaveDuplicates();
        assertThatThrownBy(() -> new TextIdForm(" ", new CountingSequence(), IdText.base62()))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("generator"));
        assertThatThrownBy(() -> new TextIdForm("tickets", null, IdText.base62()))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("sequence"));
        assertThatThrownBy(() -> new TextIdForm("tickets", new CountingSequence(), null))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("text"));
        assertThatThrownBy(() -> form.next(0, "buyer-1"))
                .isInstanceOfSatisfying(
                        InvalidArgumentException.class,
                        e -> assertThat(e.argument()).isEqualTo("shardKey"));
    }
}
