package dev.idgen.forms.publicid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.DecodedId;
import dev.idgen.core.IdSequence;
import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import dev.idgen.core.SequenceDecodedId;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.snowflake.SnowflakeGenerator;
import dev.idgen.core.snowflake.SnowflakeIdService;
import dev.idgen.core.snowflake.SnowflakeLayout;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PublicIdFormTest {

    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private static final byte[] KEY = new byte[16];

    private final ManualTimeSource time = new ManualTimeSource(START);

    private final SnowflakeIdService service = SnowflakeIdService.of(
            SnowflakeGenerator.builder().timeSource(time).workerId(3).build());

    private final PublicIdCodec codec =
            PublicIdCodec.builder().tweak("orders").key(1, KEY).build();

    @AfterEach
    void close() {
        service.close();
    }

    private IdForm form() {
        time.advanceMillis(1);
        return new PublicIdForm("orders", service.sequence("orders"), codec);
    }

    @Test
    void issuesThePublicIdOfTheSequencesNextId() {
        IdForm form = form();
        assertThat(form.generator()).isEqualTo("orders");
        assertThat(form.form()).isEqualTo("public");
        String text = form.next();
        assertThat(text).hasSize(18).startsWith("1");
        long id = codec.decode(text);
        assertThat(service.decode(id).timestamp()).isEqualTo(START.plusMillis(1));

        String[] batch = form.next(3);
        assertThat(batch).hasSize(3).doesNotHaveDuplicates();
        long previous = id;
        for (String each : batch) {
            long next = codec.decode(each);
            assertThat(next).isGreaterThan(previous); // issued in order, though the strings are not
            previous = next;
        }
        assertThatThrownBy(() -> form.next(0))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("count");
        assertThatThrownBy(() -> form.next(1, "user-1"))
                .isInstanceOf(InvalidArgumentException.class)
                .extracting("argument")
                .isEqualTo("shardKey");
    }

    @Test
    void decodesToTheInternalIdAndWhatItCarries() {
        IdForm form = form();
        String text = form.next();
        long id = codec.decode(text);
        Map<String, Object> parts = form.decode(text);
        assertThat(parts.keySet())
                .startsWith("form", "timestamp", "id", "keyVersion")
                .contains("workerId", "sequence");
        assertThat(parts)
                .containsEntry("form", "public")
                .containsEntry("timestamp", START.plusMillis(1))
                .containsEntry("id", Long.toString(id))
                .containsEntry("keyVersion", 1)
                .containsEntry("workerId", 3L);
    }

    @Test
    void decodeOfAnIdWithoutTimestampListsFormIdAndKeyVersionFirst() {
        AtomicLong counter = new AtomicLong();
        IdSequence sequence = new CounterSequence(counter);
        IdForm form = new PublicIdForm(
                "tickets",
                sequence,
                PublicIdCodec.builder().tweak("tickets").key(4, KEY).build());
        String text = form.next();
        assertThat(form.decode(text))
                .containsExactly(
                        Map.entry("form", "public"),
                        Map.entry("id", "1"),
                        Map.entry("keyVersion", 4),
                        Map.entry("strategy", "counter"));
    }

    @Test
    void rejectsTextThatIsNotAPublicIdOfThisGenerator() {
        IdForm form = form();
        String text = form.next();
        String tampered = text.substring(0, 10) + (text.charAt(10) == 'a' ? 'b' : 'a') + text.substring(11);
        String otherGenerator =
                PublicIdCodec.builder().tweak("invoices").key(1, KEY).build().encode(42);
        for (String bad : new String[] {
            tampered, text.substring(0, 17), otherGenerator, "2" + text.substring(1), "!" + text.substring(1)
        }) {
            assertThatThrownBy(() -> form.decode(bad))
                    .as(bad)
                    .isInstanceOf(InvalidArgumentException.class)
                    .extracting("argument")
                    .isEqualTo("id");
        }
    }

    @Test
    void rejectsAValidPublicIdWhoseIdTheSequenceCannotHaveIssued() {
        // The same key and tweak as another generator's codec: the check passes, the sequence's decode does not.
        try (SnowflakeIdService small = SnowflakeIdService.of(SnowflakeGenerator.builder()
                .layout(SnowflakeLayout.javascriptSafe())
                .timeSource(time)
                .build())) {
            IdForm form = new PublicIdForm("orders", small.sequence("orders"), codec);
            String foreign = codec.encode(1L << 60); // above the layout's 53 bits
            assertThatThrownBy(() -> form.decode(foreign))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("cannot have issued")
                    .extracting("argument")
                    .isEqualTo("id");
        }
    }

    @Test
    void rejectsMissingParts() {
        IdSequence sequence = service.sequence("orders");
        assertThatThrownBy(() -> new PublicIdForm("", sequence, codec))
                .extracting("argument")
                .isEqualTo("generator");
        assertThatThrownBy(() -> new PublicIdForm("orders", null, codec))
                .extracting("argument")
                .isEqualTo("sequence");
        assertThatThrownBy(() -> new PublicIdForm("orders", sequence, null))
                .extracting("argument")
                .isEqualTo("codec");
    }

    /** A sequence whose IDs carry nothing but themselves. */
    private record CounterSequence(AtomicLong counter) implements IdSequence {

        @Override
        public String name() {
            return "tickets";
        }

        @Override
        public String generator() {
            return "tickets";
        }

        @Override
        public String strategy() {
            return "counter";
        }

        @Override
        public long nextId() {
            return counter.incrementAndGet();
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
            return new SequenceDecodedId("counter", id);
        }
    }
}
